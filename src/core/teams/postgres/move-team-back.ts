// Pincer: Move Team Back to This Workspace: the reverse of Move Team to Server… (move-team.ts). A
// team's board on the server (tasks, dependencies, audit trail, mailbox), read in one snapshot, is
// written to the workspace database in ONE transaction, which checks its own counts before it commits;
// the copy is then read back and checked by checksum (ids left out). The workspace numbers tasks
// itself, so they get new ids (dependencies and events follow). The server's board is left as it was.
// Once back, the workspace board is the server's: moving back again copies nothing. A workspace that
// holds another board of the team is refused — except the board that was moved from here to the
// server and not changed since, which the server's replaces (the server's is the team's board now).
// The server's record of the move from here then names the board now here, so moving it to the
// server again copies nothing either.
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { StatementSpec } from '../../storage/types';
import { boardChecksum, readWorkspaceBoard, type Board, type DepRow, type EventRow, type MessageRow, type MoveOutcome, type MoveRequest, type TaskRow } from './move-team';
import { copyMemoryToWorkspace } from './move-team-memory';
import { PG_BOARD_MIGRATIONS } from './pg-board-schema';
import { PgConnection } from './pg-connection';
import { migrate } from './pg-migrate';

async function readServerBoard(c: PoolClient, teamId: string): Promise<Board> {
  const tasks = (await c.query<TaskRow>('SELECT * FROM team_tasks WHERE team_id = $1 ORDER BY id', [teamId])).rows;
  const deps = (await c.query<DepRow>('SELECT d.task_id, d.blocker_id FROM team_task_deps d JOIN team_tasks t ON t.id = d.task_id WHERE t.team_id = $1', [teamId])).rows;
  const events = (await c.query<EventRow>('SELECT task_id, actor, action, detail, at FROM team_events WHERE team_id = $1 ORDER BY id', [teamId])).rows;
  const messages = (await c.query<MessageRow>('SELECT sender, recipient, text, at, read_at FROM team_messages WHERE team_id = $1 ORDER BY id', [teamId])).rows;
  return { tasks, deps, events, messages };
}

/** The workspace statements that write `b` as team `teamId`'s board, its tasks numbered from `base + 1`. */
function writeStatements(teamId: string, b: Board, base: number, replace: boolean): { statements: StatementSpec[]; idMap: Map<number, number> } {
  const idMap = new Map(b.tasks.map((t, i) => [t.id, base + i + 1]));
  const to = (id: number | null) => (id === null ? null : idMap.get(id) ?? null);
  const ofTeam = 'SELECT id FROM team_tasks WHERE team_id = ?';
  const clear: StatementSpec[] = replace ? [
    { sql: `DELETE FROM team_tasks_fts WHERE docid IN (${ofTeam})`, params: [teamId] },
    { sql: `DELETE FROM team_task_deps WHERE task_id IN (${ofTeam}) OR blocker_id IN (${ofTeam})`, params: [teamId, teamId] },
    ...['team_events', 'team_messages', 'team_tasks'].map((table) => ({ sql: `DELETE FROM ${table} WHERE team_id = ?`, params: [teamId] })),
  ] : [];
  // Explicit ids: another window's task created meanwhile takes base + 1 too, and this transaction then fails whole.
  const tasks = b.tasks.map((t): StatementSpec => ({
    sql: `INSERT INTO team_tasks(id, team_id, create_key, subject, description, priority, status, assignee, owner, run_id, require_review, progress,
            progress_note, result, returns, gate_failures, attachments, created_by, created_at, updated_at, gates)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    params: [to(t.id), teamId, randomUUID(), t.subject, t.description, t.priority, t.status, t.assignee, t.owner, t.run_id,
      t.require_review === true || t.require_review === 1 ? 1 : 0, t.progress, t.progress_note, t.result, t.returns, t.gate_failures,
      typeof t.attachments === 'string' ? t.attachments : JSON.stringify(t.attachments), t.created_by, Number(t.created_at), Number(t.updated_at),
      typeof t.gates === 'string' ? t.gates : JSON.stringify(t.gates)],
  }));
  const deps = b.deps.map((d): StatementSpec => ({ sql: 'INSERT INTO team_task_deps(task_id, blocker_id) VALUES (?, ?)', params: [to(d.task_id), to(d.blocker_id)] }));
  const events = b.events.map((e): StatementSpec => ({
    sql: 'INSERT INTO team_events(team_id, task_id, actor, action, detail, at) VALUES (?, ?, ?, ?, ?, ?)', params: [teamId, to(e.task_id), e.actor, e.action, e.detail, Number(e.at)],
  }));
  const messages = b.messages.map((m): StatementSpec => ({
    sql: 'INSERT INTO team_messages(team_id, sender, recipient, text, at, read_at) VALUES (?, ?, ?, ?, ?, ?)',
    params: [teamId, m.sender, m.recipient, m.text, Number(m.at), m.read_at === null ? null : Number(m.read_at)],
  }));
  // The transaction's own check: the team's rows are exactly those copied, or none of it commits.
  const counted = (table: string, n: number): StatementSpec => ({
    sql: `INSERT INTO team_guard(reason) SELECT ? WHERE (SELECT count(*) FROM ${table} WHERE team_id = ?) <> ?`,
    params: [`Moving team ${teamId} back: the workspace's ${table} do not match the server's board; nothing was copied.`, teamId, n],
  });
  const checks = [counted('team_tasks', b.tasks.length), counted('team_events', b.events.length), counted('team_messages', b.messages.length)];
  return { statements: [...clear, ...tasks, ...deps, ...events, ...messages, ...checks], idMap };
}

/** Copies `teamId`'s board from the server to the workspace (see the top of this file). */
export async function moveTeamToWorkspace(r: MoveRequest): Promise<MoveOutcome> {
  const db = new PgConnection(r.connection);
  const step = (name: string, done: number, total: number) => {
    if (r.signal?.aborted) throw new Error(`Moving team ${r.teamId} back was cancelled: nothing was copied.`);
    r.progress?.({ step: name, done, total });
  };
  try {
    await db.session((c) => migrate(c, r.connection.schema, PG_BOARD_MIGRATIONS));
    return await db.tx(async (c) => {
      // One snapshot of the server's board, however many editors write to it meanwhile.
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      await c.query(`SELECT pg_advisory_xact_lock(hashtextextended('pincer-move:' || $1 || ':' || $2, 0))`, [r.sourceId, r.teamId]);
      step('reading', 0, 1);
      const board = await readServerBoard(c, r.teamId);
      const checksum = boardChecksum(board);
      const counts = { tasks: board.tasks.length, deps: board.deps.length, events: board.events.length, messages: board.messages.length };
      const here = await readWorkspaceBoard(r.source, r.teamId);
      const hereSum = boardChecksum(here);
      // The memory is written here after the board, document by document; what is here already is not written again.
      const memory = async () => (r.agents?.length ? { memory: await copyMemoryToWorkspace(c, r.source, r.teamId, r.agents) } : {});
      if (hereSum === checksum) return { copied: false, ...counts, checksum, idMap: {}, ...(await memory()) };
      const moved = (await c.query<{ checksum: string }>('SELECT checksum FROM team_moves WHERE source = $1 AND team_id = $2', [r.sourceId, r.teamId])).rows[0];
      const holds = here.tasks.length + here.events.length + here.messages.length > 0;
      if (holds && moved?.checksum !== hereSum) {
        throw new Error(`Refused: this workspace already has a board for team ${r.teamId} (${here.tasks.length} tasks) that is not the one moved from here to the server. Nothing was copied: moving the server's board here would mix the two.`);
      }
      const [{ n: base }] = await r.source.query<{ n: number }>(
        `SELECT max(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'team_tasks'), 0), COALESCE((SELECT max(id) FROM team_tasks), 0)) AS n`) as [{ n: number }];
      const { statements, idMap } = writeStatements(r.teamId, board, base, holds);
      step('writing', 0, statements.length);
      await r.source.transaction(statements);
      step('checking', 0, 1);
      if (boardChecksum(await readWorkspaceBoard(r.source, r.teamId)) !== checksum) {
        throw new Error(`Moving team ${r.teamId} back: the copy in the workspace does not match the server's board (another window changed it meanwhile); the server's board is unchanged.`);
      }
      const idObject = Object.fromEntries([...idMap].map(([server, workspace]) => [String(workspace), server]));
      await c.query(
        `INSERT INTO team_moves(source, team_id, tasks, deps, events, messages, checksum, id_map) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (source, team_id) DO UPDATE SET tasks = $3, deps = $4, events = $5, messages = $6, checksum = $7, id_map = $8, moved_at = now()`,
        [r.sourceId, r.teamId, counts.tasks, counts.deps, counts.events, counts.messages, checksum, JSON.stringify(idObject)]);
      const memoryMoved = await memory();
      step('checking', 1, 1);
      return { copied: true, ...counts, checksum, idMap: idObject, ...memoryMoved };
    });
  } finally {
    await db.close();
  }
}
