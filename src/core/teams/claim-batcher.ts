// Claims that arrive together are written together: every claim is a conditional update (it takes the
// task only while it is pending, unblocked, and unassigned or assigned to the claimer) plus its audit
// event guarded by changes(), and the claims queued while a write is in flight go to the database as
// ONE journaled transaction — one durable write for many members, instead of one each waiting behind
// the others. Two claims of one task in a batch cannot both match: the first leaves it in progress.
// Who won is read back once the batch is durable, the batch's tasks in one query the storage worker
// answers with the write (no second round trip); the rules in board-schema.ts still guard every
// other writer.
import type { Database } from '../storage/database';
import type { StatementSpec } from '../storage/types';
import { TASK_SELECT, taskFromRow, type TaskRow } from './board-rows';
import type { BoardTask } from './board-types';
import { TurnBatcher } from './turn-batcher';

export interface ClaimRequest {
  teamId: string;
  id: number;
  owner: string;
  runId: string | null;
  at: number;
}

function claimStatements(c: ClaimRequest, instance: string): StatementSpec[] {
  return [
    {
      sql: `UPDATE team_tasks SET status = 'in_progress', owner = ?, run_id = ?, progress = 0, updated_at = ?
            WHERE id = ? AND team_id = ? AND status = 'pending' AND (assignee IS NULL OR assignee = ?)
              AND NOT EXISTS (SELECT 1 FROM team_task_deps d JOIN team_tasks b ON b.id = d.blocker_id WHERE d.task_id = team_tasks.id AND b.status <> 'completed')`,
      params: [c.owner, c.runId, c.at, c.id, c.teamId, c.owner],
    },
    {
      sql: `INSERT INTO team_events(team_id, task_id, actor, action, detail, at) SELECT ?, ?, ?, 'claim', ?, ? WHERE changes() = 1`,
      params: [c.teamId, c.id, c.owner, c.runId ? `claimed (run ${c.runId})` : 'claimed', c.at],
    },
    // The claiming run is this window's: another window's watchdog leaves its claims alone while it is seen.
    ...(c.runId ? [{
      sql: 'INSERT INTO team_runs(run_id, instance, seen_at) VALUES (?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET instance = excluded.instance, seen_at = excluded.seen_at',
      params: [c.runId, instance, c.at],
    }] : []),
  ];
}

export class ClaimBatcher {
  private readonly batcher = new TurnBatcher<ClaimRequest, BoardTask | undefined>((claims) => this.write(claims));

  constructor(private readonly db: Database, private readonly instance: string) {}

  /**
   * Resolves, once the claim's batch is durable, with the task as it is after the batch (undefined:
   * no such task on the team); whether this claim took it, the caller reads from its owner and run.
   */
  submit(claim: ClaimRequest): Promise<BoardTask | undefined> {
    return this.batcher.submit(claim);
  }

  private async write(claims: ClaimRequest[]): Promise<(BoardTask | undefined)[]> {
    const ids = [...new Set(claims.map((c) => c.id))];
    const rows = await this.db.transactionThenQuery<TaskRow>(claims.flatMap((c) => claimStatements(c, this.instance)),
      { sql: `${TASK_SELECT} WHERE t.id IN (${ids.map(() => '?').join(', ')})`, params: ids });
    const tasks = new Map(rows.map((r) => [r.id, taskFromRow(r)]));
    return claims.map((c) => {
      const t = tasks.get(c.id);
      return t && t.teamId === c.teamId ? t : undefined;
    });
  }
}
