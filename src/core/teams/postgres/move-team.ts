// Pincer: Move Team to Server…: a team's board (tasks, dependencies, audit trail, mailbox) copied from
// the workspace database to a shared server in ONE transaction — all of it lands, verified, or none
// of it. The server numbers rows itself, so tasks get new ids (dependencies and events follow them;
// the map is kept and told). Verified before commit: the counts, and a checksum of the board read
// back from the server against the one read from the workspace (ids left out). A second move of the
// same workspace board finds the record of the first and copies nothing; if the workspace board
// changed since, it is refused rather than copied twice. Cancelling rolls everything back.
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { Database } from '../../storage/database';
import { copyMemoryToServer, type MemoryMoveOutcome } from './move-team-memory';
import { PG_BOARD_MIGRATIONS } from './pg-board-schema';
import { PgConnection } from './pg-connection';
import { migrate } from './pg-migrate';
import type { TeamStoreConnection } from './team-store-settings';

export interface MoveProgress {
  /** What is being copied: tasks, dependencies, events, messages, or checking. */
  step: string;
  done: number;
  total: number;
}

export interface MoveOutcome {
  /** false: this workspace board was moved before (nothing was copied this time). */
  copied: boolean;
  tasks: number;
  deps: number;
  events: number;
  messages: number;
  checksum: string;
  /** Workspace task id → its id on the server. */
  idMap: Record<string, number>;
  /** The agents' shared memory and context files, when agents were named (move-team-memory.ts). */
  memory?: MemoryMoveOutcome;
}

export interface MoveRequest {
  source: Database;
  /** The workspace board's identity (e.g. its database folder): a second move of it is recognised. */
  sourceId: string;
  teamId: string;
  /** The team's lead and members: their shared (agent-level) memory and context files move with the board. */
  agents?: readonly string[];
  connection: TeamStoreConnection;
  /** Who moves it, for the audit event. */
  actor: string;
  at: number;
  signal?: AbortSignal;
  progress?: (p: MoveProgress) => void;
}

export interface TaskRow {
  id: number; subject: string; description: string; priority: number; status: string; assignee: string | null; owner: string | null;
  run_id: string | null; require_review: number | boolean; progress: number; progress_note: string | null; result: string | null;
  returns: number; gate_failures: number; attachments: string | string[]; created_by: string; created_at: number; updated_at: number;
  /** The task's own gates: JSON text in the workspace, parsed from JSONB on the server. */
  gates: string | unknown[];
}
export interface DepRow { task_id: number; blocker_id: number }
export interface EventRow { task_id: number | null; actor: string; action: string; detail: string; at: number }
export interface MessageRow { sender: string; recipient: string; text: string; at: number; read_at: number | null }
export interface Board { tasks: TaskRow[]; deps: DepRow[]; events: EventRow[]; messages: MessageRow[] }

const BATCH = 500;

const json = (v: string | unknown[]): unknown[] => (typeof v === 'string' ? JSON.parse(v) as unknown[] : v);
/** Gates with their keys in one order (the server's JSONB keeps its own key order, not the writer's). */
const canonGates = (v: string | unknown[]) => json(v).map((g) => Object.entries(g as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)));

/**
 * sha256 of the board with every task id replaced by its place in id order (the same on both sides).
 * A task's gates count only when it has some, so a board without any sums as it did before tasks had gates.
 */
export function boardChecksum(b: Board): string {
  const place = new Map(b.tasks.map((t, i) => [t.id, i]));
  const at = (id: number | null) => (id === null ? null : place.get(id) ?? null);
  const canon = {
    tasks: b.tasks.map((t) => [t.subject, t.description, t.priority, t.status, t.assignee, t.owner, t.run_id, t.require_review === true || t.require_review === 1,
      t.progress, t.progress_note, t.result, t.returns, t.gate_failures, typeof t.attachments === 'string' ? JSON.parse(t.attachments) as unknown : t.attachments,
      t.created_by, Number(t.created_at), Number(t.updated_at), ...(json(t.gates).length ? [canonGates(t.gates)] : [])]),
    deps: b.deps.map((d) => [at(d.task_id), at(d.blocker_id)]).sort((x, y) => (x[0]! - y[0]!) || (x[1]! - y[1]!)),
    events: b.events.map((e) => [at(e.task_id), e.actor, e.action, e.detail, Number(e.at)]),
    messages: b.messages.map((m) => [m.sender, m.recipient, m.text, Number(m.at), m.read_at === null ? null : Number(m.read_at)]),
  };
  return createHash('sha256').update(JSON.stringify(canon)).digest('hex');
}

export async function readWorkspaceBoard(db: Database, teamId: string): Promise<Board> {
  const [tasks, deps, events, messages] = await Promise.all([
    db.query<TaskRow>('SELECT * FROM team_tasks WHERE team_id = ? ORDER BY id', [teamId]),
    db.query<DepRow>('SELECT d.task_id, d.blocker_id FROM team_task_deps d JOIN team_tasks t ON t.id = d.task_id WHERE t.team_id = ?', [teamId]),
    db.query<EventRow>('SELECT task_id, actor, action, detail, at FROM team_events WHERE team_id = ? ORDER BY id', [teamId]),
    db.query<MessageRow>('SELECT sender, recipient, text, at, read_at FROM team_messages WHERE team_id = ? ORDER BY id', [teamId]),
  ]);
  return { tasks, deps, events, messages };
}

/** Copies `teamId`'s board to the server (see the top of this file). */
export async function moveTeamToServer(r: MoveRequest): Promise<MoveOutcome> {
  const board = await readWorkspaceBoard(r.source, r.teamId);
  const checksum = boardChecksum(board);
  const counts = { tasks: board.tasks.length, deps: board.deps.length, events: board.events.length, messages: board.messages.length };
  const db = new PgConnection(r.connection);
  const step = (name: string, done: number, total: number) => {
    if (r.signal?.aborted) throw new Error(`Moving team ${r.teamId} was cancelled: nothing was copied.`);
    r.progress?.({ step: name, done, total });
  };
  try {
    await db.session((c) => migrate(c, r.connection.schema, PG_BOARD_MIGRATIONS));
    return await db.tx(async (c) => {
      // Two windows moving the same board at once take turns: the second finds the first's record.
      await c.query(`SELECT pg_advisory_xact_lock(hashtextextended('pincer-move:' || $1 || ':' || $2, 0))`, [r.sourceId, r.teamId]);
      const before = (await c.query<{ checksum: string; id_map: Record<string, number>; moved_at: Date }>('SELECT checksum, id_map, moved_at FROM team_moves WHERE source = $1 AND team_id = $2', [r.sourceId, r.teamId])).rows[0];
      // The memory is copied in the same transaction, also when the board was moved before (what is there already is not written again).
      const memory = async () => (r.agents?.length ? { memory: await copyMemoryToServer(c, r.source, r.teamId, r.agents) } : {});
      if (before?.checksum === checksum) return { copied: false, ...counts, checksum, idMap: before.id_map, ...(await memory()) };
      if (before) {
        throw new Error(`Refused: team ${r.teamId} was moved from this workspace to the server on ${before.moved_at.toISOString()}, and its workspace board changed since. Nothing was copied (a second copy would duplicate its tasks): the server's board is the team's board now.`);
      }
      const idMap = await copyTasks(c, r.teamId, board.tasks, step);
      const written = await copyRows(c, board, idMap, r.teamId, step);
      step('checking', 0, 1);
      const copied = await readServerBoard(c, [...idMap.values()], written);
      const got = { tasks: copied.tasks.length, deps: copied.deps.length, events: copied.events.length, messages: copied.messages.length };
      if (JSON.stringify(got) !== JSON.stringify(counts) || boardChecksum(copied) !== checksum) {
        throw new Error(`Moving team ${r.teamId}: the copy on the server does not match the workspace board (counts ${JSON.stringify(got)} for ${JSON.stringify(counts)}); nothing was copied.`);
      }
      const idObject = Object.fromEntries([...idMap].map(([from, to]) => [String(from), to]));
      await c.query('INSERT INTO team_moves(source, team_id, tasks, deps, events, messages, checksum, id_map) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [r.sourceId, r.teamId, counts.tasks, counts.deps, counts.events, counts.messages, checksum, JSON.stringify(idObject)]);
      const renumbered = [...idMap].filter(([from, to]) => from !== to).map(([from, to]) => `#${from} is #${to}`);
      await c.query('INSERT INTO team_events(team_id, task_id, actor, action, detail, at) VALUES ($1, NULL, $2, $3, $4, $5)', [r.teamId, r.actor, 'move',
        `moved here from a workspace board: ${counts.tasks} tasks, ${counts.events} events, ${counts.messages} messages${renumbered.length ? `; renumbered: ${renumbered.slice(0, 50).join(', ')}${renumbered.length > 50 ? ', …' : ''}` : ''}`, r.at]);
      const moved = await memory();
      step('checking', 1, 1);
      return { copied: true, ...counts, checksum, idMap: idObject, ...moved };
    });
  } finally {
    await db.close();
  }
}

async function copyTasks(c: PoolClient, teamId: string, tasks: TaskRow[], step: (s: string, d: number, t: number) => void): Promise<Map<number, number>> {
  const idMap = new Map<number, number>();
  for (const [i, t] of tasks.entries()) {
    if (i % 50 === 0) step('tasks', i, tasks.length);
    const { rows } = await c.query<{ id: number }>(
      `INSERT INTO team_tasks(team_id, subject, description, priority, status, assignee, owner, run_id, require_review, progress, progress_note,
         result, returns, gate_failures, attachments, created_by, created_at, updated_at, gates)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16, $17, $18, $19::jsonb) RETURNING id`,
      [teamId, t.subject, t.description, t.priority, t.status, t.assignee, t.owner, t.run_id, t.require_review === 1 || t.require_review === true, t.progress,
        t.progress_note, t.result, t.returns, t.gate_failures, typeof t.attachments === 'string' ? t.attachments : JSON.stringify(t.attachments), t.created_by, t.created_at, t.updated_at,
        JSON.stringify(json(t.gates))],
    );
    idMap.set(t.id, rows[0]!.id);
  }
  step('tasks', tasks.length, tasks.length);
  return idMap;
}

/** Copies the dependencies, events and messages; returns the ids the server gave the events and messages. */
async function copyRows(c: PoolClient, b: Board, idMap: Map<number, number>, teamId: string, step: (s: string, d: number, t: number) => void): Promise<{ events: number[]; messages: number[] }> {
  const ids = { events: [] as number[], messages: [] as number[] };
  const to = (id: number | null) => (id === null ? null : idMap.get(id) ?? null);
  step('dependencies', 0, b.deps.length);
  await c.query('INSERT INTO team_task_deps(task_id, blocker_id) SELECT * FROM unnest($1::int[], $2::int[])', [b.deps.map((d) => to(d.task_id)), b.deps.map((d) => to(d.blocker_id))]);
  for (let i = 0; i < b.events.length; i += BATCH) {
    step('events', i, b.events.length);
    const part = b.events.slice(i, i + BATCH);
    ids.events.push(...(await c.query<{ id: number }>(`INSERT INTO team_events(team_id, task_id, actor, action, detail, at)
      SELECT $1, e.task_id, e.actor, e.action, e.detail, e.at FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::bigint[]) WITH ORDINALITY AS e(task_id, actor, action, detail, at, n) ORDER BY e.n RETURNING id`,
    [teamId, part.map((e) => to(e.task_id)), part.map((e) => e.actor), part.map((e) => e.action), part.map((e) => e.detail), part.map((e) => e.at)])).rows.map((x) => x.id));
  }
  for (let i = 0; i < b.messages.length; i += BATCH) {
    step('messages', i, b.messages.length);
    const part = b.messages.slice(i, i + BATCH);
    ids.messages.push(...(await c.query<{ id: number }>(`INSERT INTO team_messages(team_id, sender, recipient, text, at, read_at)
      SELECT $1, m.sender, m.recipient, m.text, m.at, m.read_at FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[]) WITH ORDINALITY AS m(sender, recipient, text, at, read_at, n) ORDER BY m.n RETURNING id`,
    [teamId, part.map((m) => m.sender), part.map((m) => m.recipient), part.map((m) => m.text), part.map((m) => m.at), part.map((m) => m.read_at)])).rows.map((x) => x.id));
  }
  return ids;
}

/** The rows this move wrote, read back by the ids the server gave them, in id order (the order they were written in). */
async function readServerBoard(c: PoolClient, taskIds: number[], written: { events: number[]; messages: number[] }): Promise<Board> {
  const tasks = (await c.query<TaskRow>('SELECT * FROM team_tasks WHERE id = ANY($1) ORDER BY id', [taskIds])).rows;
  const deps = (await c.query<DepRow>('SELECT task_id, blocker_id FROM team_task_deps WHERE task_id = ANY($1)', [taskIds])).rows;
  const events = (await c.query<EventRow>('SELECT task_id, actor, action, detail, at FROM team_events WHERE id = ANY($1) ORDER BY id', [written.events])).rows;
  const messages = (await c.query<MessageRow>('SELECT sender, recipient, text, at, read_at FROM team_messages WHERE id = ANY($1) ORDER BY id', [written.messages])).rows;
  return { tasks, deps, events, messages };
}
