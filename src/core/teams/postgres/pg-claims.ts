// Claims on the server, batched per editor: the claims its members make in the same turn of the event
// loop go as ONE statement, which is its own transaction — a conditional update of the pending rows
// joined with the requests, their audit events and their runs' heartbeats — so a busy editor pays one
// round trip and one commit (one disk flush) for many claims, and does not wait for its previous
// batch (the server flushes concurrent commits together). Two requests for one task in a batch
// cannot both win: a row is updated once per statement, and across editors the row lock makes the
// later statement see the task taken (PostgreSQL re-reads a row updated meanwhile and checks the
// conditions again). A batch locks its tasks' rows first, in id order, as every batch does: two
// editors' batches over the same tasks then wait for each other instead of deadlocking. The winners
// are announced to the other editors after the commit (see pg-board-schema.ts and PgConnection.announce).
// A claim that does not win is answered from the same statement (the task as its lock found it), so
// a refusal costs no second round trip either.
// A claim is a HOT update (schema version 4): no index changes, so its commit writes little.
//
// Claims keep synchronous commit, although most of a claim's wait is that commit's disk flush.
// With `SET LOCAL synchronous_commit = off` the server would answer before the flush, and a server
// crash in the next fraction of a second would lose a claim already answered: the member that won
// it is working, while the task is pending again and another editor's member may claim it once the
// server is back — two workers on one task, the audit trail without the first claim. The loser
// learns of it only at its next write to the task (refused: not its claim), after the duplicate work
// began, and no check at reconnect can win that race against the other editor's claim. So a claim
// is answered only once it is durable; what is saved instead is the number of flushes: an editor's
// concurrent claims share one commit, and the server flushes concurrent commits together.
import { taskFromRow, type TaskRow } from '../board-rows';
import type { BoardTask } from '../board-types';
import type { ClaimRequest } from '../claim-batcher';
import { TurnBatcher } from '../turn-batcher';
import type { PgConnection } from './pg-connection';


const CLAIM_BATCH = (sql: TaskSql) => `
WITH req AS (
  SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[]) AS r(team_id, id, owner, run_id, at)),
-- Materialized, so it runs as written: the requested rows locked one by one in id order, each before
-- it is updated, and whether each waits on a blocker asked of these rows only. A row is read as it
-- is once locked (another editor's committed claim included): a claim that does not win is answered
-- from it, without another read.
locked AS MATERIALIZED (
  SELECT ${sql.columns}, ${sql.blockers}, ${sql.openBlockers}
  FROM team_tasks t WHERE t.id = ANY($2::int[]) ORDER BY t.id FOR NO KEY UPDATE OF t),
c AS (
  UPDATE team_tasks t SET status = 'in_progress', owner = req.owner, run_id = req.run_id, progress = 0, updated_at = req.at
  FROM locked JOIN req ON req.id = locked.id
  WHERE t.id = locked.id AND locked.open_blockers IS NULL AND t.team_id = req.team_id AND t.status = 'pending' AND (t.assignee IS NULL OR t.assignee = req.owner)
  RETURNING t.*),
e AS (
  INSERT INTO team_events(team_id, task_id, actor, action, detail, at)
  SELECT team_id, id, owner, 'claim', CASE WHEN run_id IS NULL THEN 'claimed' ELSE 'claimed (run ' || run_id || ')' END, updated_at FROM c),
r AS (
  INSERT INTO team_runs(run_id, instance) SELECT DISTINCT run_id, $6 FROM c WHERE run_id IS NOT NULL
  ON CONFLICT (run_id) DO UPDATE SET instance = EXCLUDED.instance, seen_at = now())
SELECT ${sql.columns}, ${sql.blockers}, NULL AS open_blockers, true AS claimed FROM c t
UNION ALL
SELECT l.*, false FROM locked l WHERE l.id NOT IN (SELECT id FROM c)`;

/** The task columns and blocker lists as the store selects them (pg-board-store.ts). */
interface TaskSql { columns: string; blockers: string; openBlockers: string }

/** Whether a claim took its task, and the task as its batch left it (undefined: no such task in that team). */
export interface ClaimAnswer { won: boolean; task?: BoardTask }

export class PgClaimBatcher {
  private readonly batcher = new TurnBatcher<ClaimRequest, ClaimAnswer>((claims) => this.write(claims), { overlap: true });

  /** Prepared once per session: a batch sends only its parameters. */
  private readonly statement: { name: string; text: string };

  constructor(private readonly db: PgConnection, private readonly instance: string, sql: TaskSql) {
    this.statement = { name: 'pincer_claim_batch', text: CLAIM_BATCH(sql) };
  }

  /** Resolves once its batch committed. */
  submit(claim: ClaimRequest): Promise<ClaimAnswer> {
    return this.batcher.submit(claim);
  }

  private async write(cs: ClaimRequest[]): Promise<ClaimAnswer[]> {
    const rows = await this.db.write<TaskRow & { claimed: boolean }>(this.statement, [
      cs.map((x) => x.teamId), cs.map((x) => x.id), cs.map((x) => x.owner), cs.map((x) => x.runId), cs.map((x) => x.at), this.instance,
    ]);
    const tasks = new Map(rows.map((r) => [r.id, { task: taskFromRow(r), claimed: r.claimed }]));
    this.db.announce([...tasks.values()].filter((x) => x.claimed).map(({ task: t }) => ({ teamId: t.teamId, taskId: t.id, action: 'claim' })));
    return cs.map((q) => {
      const found = tasks.get(q.id);
      if (!found || found.task.teamId !== q.teamId) return { won: false };
      const t = found.task;
      // Of two claims of one task in a batch, the one not taken sees the other's claim here.
      return { won: found.claimed && t.owner === q.owner && (t.runId ?? null) === q.runId, task: t };
    });
  }
}
