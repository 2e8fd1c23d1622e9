// Rows of the board's tables as the sql.js store reads them, and their public shapes.
import type { SqlValue, StatementSpec } from '../storage/types';
import { refusal } from './board-explain';
import type { BoardEvent, BoardTask, TaskStatus, TeamMessage } from './board-types';
import type { GateDefinition } from './team-definition';

/** A task row with its blockers (all, and those not yet completed) as comma lists. */
export const TASK_SELECT = `SELECT t.*,
    (SELECT group_concat(d.blocker_id) FROM team_task_deps d WHERE d.task_id = t.id) AS blocked_by,
    (SELECT group_concat(d.blocker_id) FROM team_task_deps d JOIN team_tasks b ON b.id = d.blocker_id
      WHERE d.task_id = t.id AND b.status <> 'completed') AS open_blockers
  FROM team_tasks t`;

export interface TaskRow {
  id: number; team_id: string; subject: string; description: string; priority: number; status: string;
  assignee: string | null; owner: string | null; run_id: string | null; require_review: number; progress: number;
  progress_note: string | null; result: string | null; returns: number; gate_failures: number; attachments: string;
  /** The task's own gates as JSON (absent on rows read before the column existed). */
  gates?: string | null;
  created_by: string; created_at: number; updated_at: number; blocked_by: string | null; open_blockers: string | null;
}

const ids = (list: string | null): number[] => (list ? list.split(',').map(Number).sort((a, b) => a - b) : []);

export function taskFromRow(r: TaskRow): BoardTask {
  return {
    id: r.id, teamId: r.team_id, subject: r.subject, description: r.description, priority: r.priority, status: r.status as TaskStatus,
    ...(r.assignee !== null ? { assignee: r.assignee } : {}), ...(r.owner !== null ? { owner: r.owner } : {}),
    ...(r.run_id !== null ? { runId: r.run_id } : {}), requireReview: r.require_review === 1, progress: r.progress,
    ...(r.progress_note !== null ? { progressNote: r.progress_note } : {}), ...(r.result !== null ? { result: r.result } : {}),
    returns: r.returns, gateFailures: r.gate_failures, attachments: JSON.parse(r.attachments) as string[], gates: r.gates ? JSON.parse(r.gates) as GateDefinition[] : [],
    blockedBy: ids(r.blocked_by), openBlockers: ids(r.open_blockers), createdBy: r.created_by, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export interface EventRow { id: number; team_id: string; task_id: number | null; actor: string; action: string; detail: string; at: number }

export function eventFromRow(r: EventRow): BoardEvent {
  return { id: r.id, teamId: r.team_id, ...(r.task_id !== null ? { taskId: r.task_id } : {}), actor: r.actor, action: r.action, detail: r.detail, at: r.at };
}

export interface MessageRow { id: number; team_id: string; sender: string; recipient: string; text: string; at: number; read_at: number | null }

export function messageFromRow(r: MessageRow): TeamMessage {
  return { id: r.id, teamId: r.team_id, sender: r.sender, recipient: r.recipient, text: r.text, at: r.at, ...(r.read_at !== null ? { readAt: r.read_at } : {}) };
}

/** Refuses the whole transaction with `reason` unless `exists` (a SELECT) returns a row. */
export function guard(exists: string, params: SqlValue[], reason: string): StatementSpec {
  return { sql: `INSERT INTO team_guard(reason) SELECT ? WHERE NOT EXISTS (${exists})`, params: [reason, ...params] };
}

/** The task exists on this team, and (when given) satisfies `where` over its row `t`. */
export function taskGuard(teamId: string, id: number, where?: { sql: string; params: SqlValue[]; reason: string }): StatementSpec[] {
  const out = [guard('SELECT 1 FROM team_tasks WHERE id = ? AND team_id = ?', [id, teamId], refusal.noTask(id, teamId))];
  if (where) out.push(guard(`SELECT 1 FROM team_tasks t WHERE t.id = ? AND (${where.sql})`, [id, ...where.params], where.reason));
  return out;
}

/** One audit event of a task change. */
export function event(teamId: string, taskId: number | null, actor: string, action: string, detail: string, at: number): StatementSpec {
  return { sql: 'INSERT INTO team_events(team_id, task_id, actor, action, detail, at) VALUES (?, ?, ?, ?, ?, ?)', params: [teamId, taskId, actor, action, detail, at] };
}
