// Claims on the server, batched per editor: the claims its members make in the same turn of the event
// loop go as ONE statement — a conditional update of the pending rows joined with the requests, their
// audit events and their runs' heartbeats — so a busy editor pays one commit (one disk flush) for
// many claims. Two requests for one task in a batch cannot both win: a row is updated once per
// statement, and across editors the row lock makes the later statement see the task taken. A batch
// locks its tasks' rows first, in id order, as every batch does: two editors' batches over the same
// tasks then wait for each other instead of deadlocking. The winners are announced to the other
// editors right after the commit (see pg-board-schema.ts).
import { taskFromRow, type TaskRow } from '../board-rows';
import type { BoardTask } from '../board-types';
import type { ClaimRequest } from '../claim-batcher';
import { TurnBatcher } from '../turn-batcher';
import type { PgConnection } from './pg-connection';


const CLAIM_BATCH = (columns: string, blockers: string) => `
WITH req AS (
  SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[]) AS r(team_id, id, owner, run_id, at)),
c AS (
  UPDATE team_tasks t SET status = 'in_progress', owner = req.owner, run_id = req.run_id, progress = 0, updated_at = req.at
  FROM req
  WHERE t.id = req.id AND t.team_id = req.team_id AND t.status = 'pending' AND (t.assignee IS NULL OR t.assignee = req.owner)
    AND NOT EXISTS (SELECT 1 FROM team_task_deps d JOIN team_tasks b ON b.id = d.blocker_id WHERE d.task_id = t.id AND b.status <> 'completed')
  RETURNING t.*),
e AS (
  INSERT INTO team_events(team_id, task_id, actor, action, detail, at)
  SELECT team_id, id, owner, 'claim', CASE WHEN run_id IS NULL THEN 'claimed' ELSE 'claimed (run ' || run_id || ')' END, updated_at FROM c),
r AS (
  INSERT INTO team_runs(run_id, instance) SELECT DISTINCT run_id, $6 FROM c WHERE run_id IS NOT NULL
  ON CONFLICT (run_id) DO UPDATE SET instance = EXCLUDED.instance, seen_at = now())
SELECT ${columns}, ${blockers}, NULL AS open_blockers FROM c t`;

export class PgClaimBatcher {
  private readonly batcher = new TurnBatcher<ClaimRequest, BoardTask | undefined>((claims) => this.write(claims));

  constructor(private readonly db: PgConnection, private readonly instance: string, private readonly sql: { columns: string; blockers: string }) {}

  /** Resolves, once its batch committed, with the task if this claim took it, else undefined. */
  submit(claim: ClaimRequest): Promise<BoardTask | undefined> {
    return this.batcher.submit(claim);
  }

  private async write(cs: ClaimRequest[]): Promise<(BoardTask | undefined)[]> {
    const rows = await this.db.tx(async (c) => {
      await c.query('SELECT 1 FROM team_tasks WHERE id = ANY($1::int[]) ORDER BY id FOR NO KEY UPDATE', [cs.map((x) => x.id)]);
      return (await c.query<TaskRow>(CLAIM_BATCH(this.sql.columns, this.sql.blockers), [
        cs.map((x) => x.teamId), cs.map((x) => x.id), cs.map((x) => x.owner), cs.map((x) => x.runId), cs.map((x) => x.at), this.instance,
      ])).rows;
    });
    const won = new Map(rows.map((r) => [r.id, taskFromRow(r)]));
    // A lost announcement loses no claim: the claim is committed; others see it at their next read.
    if (won.size) this.db.announce([...won.values()].map((t) => ({ teamId: t.teamId, taskId: t.id, action: 'claim' }))).catch(() => undefined);
    return cs.map((q) => {
      const t = won.get(q.id);
      return t && t.owner === q.owner && (t.runId ?? null) === q.runId && t.teamId === q.teamId ? t : undefined;
    });
  }
}
