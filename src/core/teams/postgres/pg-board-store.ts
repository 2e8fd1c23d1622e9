// The board on a shared PostgreSQL server, for a team whose members work in several editors on
// several machines. Same interface, rules and wording as the workspace board (sql-board-store.ts):
// every change is one transaction that locks the task's row (SELECT … FOR NO KEY UPDATE) before its checks,
// so two editors changing one task take turns and the second sees the first's outcome; the server's
// triggers (pg-board-schema.ts) hold every writer to the rules. Claims are conditional updates of
// the pending row with their audit events and runs' heartbeats, an editor's concurrent claims in ONE
// statement (pg-claims.ts): contention costs a row lock wait, not a retry, and of many claimers
// exactly one matches the pending row.
// Member runs live in editors: each store instance heartbeats its own live runs, releases the claims
// of its own ended runs at once, and the one editor holding the watchdog lock releases claims whose
// run has not been seen for `staleRunMs` (its machine went away).
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { changeOf, createDetail, orphanDetail, outcomeOf, refusal, searchWords, whyNotClaimed } from '../board-explain';
import { eventFromRow, messageFromRow, taskFromRow, type EventRow, type MessageRow, type TaskRow } from '../board-rows';
import type { Actor, BoardEvent, BoardStore, BoardTask, ListFilter, ListOrder, NewTask, TaskChange, TaskOutcome, TeamMessage } from '../board-types';
import { PG_BOARD_MIGRATIONS } from './pg-board-schema';
import { PgClaimBatcher } from './pg-claims';
import { PgConnection, type BoardChange } from './pg-connection';
import { migrate } from './pg-migrate';
import type { TeamStoreConnection } from './team-store-settings';

const OPEN = `('pending', 'in_progress', 'in_review')`;
const COLUMNS = `t.id, t.team_id, t.subject, t.description, t.priority, t.status, t.assignee, t.owner, t.run_id,
  t.require_review::int AS require_review, t.progress, t.progress_note, t.result, t.returns, t.gate_failures,
  t.attachments::text AS attachments, t.gates::text AS gates, t.created_by, t.created_at, t.updated_at`;
const BLOCKERS = `(SELECT string_agg(d.blocker_id::text, ',') FROM team_task_deps d WHERE d.task_id = t.id) AS blocked_by`;
const OPEN_BLOCKERS = `(SELECT string_agg(d.blocker_id::text, ',') FROM team_task_deps d JOIN team_tasks b ON b.id = d.blocker_id
    WHERE d.task_id = t.id AND b.status <> 'completed') AS open_blockers`;
/** A task row with its blockers (all, and those not yet completed), in the shape taskFromRow reads. */
const TASK_SELECT = `SELECT ${COLUMNS}, ${BLOCKERS}, ${OPEN_BLOCKERS} FROM team_tasks t`;

export interface PgBoardOptions {
  connection: TeamStoreConnection;
  /** This editor's name for its runs (default: a new random id per store). */
  instance?: string;
  /** A run another editor has not reported alive for this long is taken as gone (default 90 s: three watchdog sweeps). */
  staleRunMs?: number;
}

export class PgBoardStore implements BoardStore {
  private readonly instance: string;
  private readonly staleRunMs: number;
  private readonly claims: PgClaimBatcher;

  private constructor(private readonly db: PgConnection, opts: PgBoardOptions) {
    this.instance = opts.instance ?? randomUUID();
    this.staleRunMs = opts.staleRunMs ?? 90_000;
    this.claims = new PgClaimBatcher(db, this.instance, { columns: COLUMNS, blockers: BLOCKERS, openBlockers: OPEN_BLOCKERS });
  }

  /** Connects, migrates the schema (once, under the server's advisory lock) and starts listening. */
  static async open(opts: PgBoardOptions): Promise<PgBoardStore> {
    const db = new PgConnection(opts.connection);
    try {
      await db.session((c) => migrate(c, opts.connection.schema, PG_BOARD_MIGRATIONS));
      await db.listen();
    } catch (e) {
      await db.close();
      throw e;
    }
    return new PgBoardStore(db, opts);
  }

  /** Every change on the board by any editor (this one included), announced by the server at commit. */
  onChange(listener: (change: BoardChange) => void): { dispose(): void } {
    return this.db.onChange(listener);
  }

  /** Connected (true) or offline and reconnecting (false). */
  onStatus(listener: (online: boolean) => void): { dispose(): void } {
    return this.db.onStatus(listener);
  }

  get online(): boolean {
    return this.db.online;
  }

  close(): Promise<void> {
    return this.db.close();
  }

  async create(teamId: string, input: NewTask, by: Actor): Promise<BoardTask> {
    const blockers = [...new Set(input.blockedBy ?? [])];
    const id = await this.db.tx(async (c) => {
      const [{ id }] = (await c.query<{ id: number }>(
        `INSERT INTO team_tasks(team_id, subject, description, priority, assignee, require_review, gates, created_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $9) RETURNING id`,
        [teamId, input.subject, input.description ?? '', input.priority ?? 0, input.assignee ?? null, input.requireReview ?? false, JSON.stringify(input.gates ?? []), by.name, by.at],
      )).rows as [{ id: number }];
      for (const b of blockers) await c.query('INSERT INTO team_task_deps(task_id, blocker_id) VALUES ($1, $2)', [id, b]);
      await event(c, teamId, id, by.name, 'create', createDetail(input, blockers), by.at);
      return id;
    });
    return (await this.get(teamId, id))!;
  }

  get(teamId: string, id: number): Promise<BoardTask | undefined> {
    return this.one(`${TASK_SELECT} WHERE t.id = $1 AND t.team_id = $2`, [id, teamId]);
  }

  list(teamId: string, filter: ListFilter, order: ListOrder, limit = 200): Promise<BoardTask[]> {
    const where = filter === 'active' ? ` AND t.status IN ${OPEN}` : filter === 'completed' ? ` AND t.status NOT IN ${OPEN}` : '';
    const by = order === 'priority' ? 't.priority DESC, t.id' : 't.id DESC';
    return this.many(`${TASK_SELECT} WHERE t.team_id = $1${where} ORDER BY ${by} LIMIT $2`, [teamId, limit]);
  }

  async search(teamId: string, query: string, opts: { limit?: number; anyWord?: boolean; openOnly?: boolean } = {}): Promise<BoardTask[]> {
    const words = searchWords(query);
    if (!words.length) return [];
    // Words are letters and digits only, so joined with & or | they are a well-formed tsquery.
    return this.many(
      `${TASK_SELECT}, to_tsquery('simple', $1) q WHERE t.search @@ q AND t.team_id = $2${opts.openOnly ? ` AND t.status IN ${OPEN}` : ''}
       ORDER BY ts_rank(t.search, q) DESC, t.id LIMIT $3`,
      [words.join(opts.anyWord ? ' | ' : ' & '), teamId, opts.limit ?? 10],
    );
  }

  async update(teamId: string, id: number, change: TaskChange, by: Actor): Promise<BoardTask> {
    const { columns, blockers, detail } = changeOf(change);
    await this.change(teamId, id, async (c, t) => {
      if (t.status === 'completed') throw new Error(refusal.completedFinal(id));
      const values = columns.map(([col, v]) => (col === 'require_review' ? v === 1 : v));
      await c.query(`UPDATE team_tasks SET ${[...columns.map(([col], i) => `${col} = $${i + 1}`), `updated_at = $${columns.length + 1}`].join(', ')} WHERE id = $${columns.length + 2}`, [...values, by.at, id]);
      if (blockers) {
        await c.query('DELETE FROM team_task_deps WHERE task_id = $1', [id]);
        for (const b of blockers) await c.query('INSERT INTO team_task_deps(task_id, blocker_id) VALUES ($1, $2)', [id, b]);
      }
      await event(c, teamId, id, by.name, 'update', detail, by.at);
    });
    return (await this.get(teamId, id))!;
  }

  async claim(teamId: string, id: number, runId: string | undefined, by: Actor): Promise<BoardTask> {
    // A claim that did not win is answered with the task as its batch found it (locked), without another read.
    const { won, task: t } = await this.claims.submit({ teamId, id, owner: by.name, runId: runId ?? null, at: by.at });
    if (!t) throw new Error(refusal.noTask(id, teamId));
    if (won) return t;
    // A claim repeated by its holder (its first answer was lost with the connection) stands — when it
    // is a run's: a run id names one run in one editor, whereas a claim without a run (a lead's own)
    // names only an agent, and every editor's lead of the team has the same name. Two editors' leads
    // claiming one task would otherwise both be told they hold it (found by the two-window host test).
    if (runId !== undefined && t.status === 'in_progress' && t.owner === by.name && t.runId === runId) return t;
    throw new Error(await whyNotClaimed(t, by.name, (b) => this.get(teamId, b)));
  }

  async assign(teamId: string, id: number, assignee: string, by: Actor): Promise<BoardTask> {
    await this.change(teamId, id, async (c, t) => {
      if (t.status !== 'pending' && t.status !== 'in_progress') throw new Error(refusal.notReassignable(id));
      // Reassigning a task in progress takes the claim from its holder: it starts again with the new assignee.
      await c.query(`UPDATE team_tasks SET assignee = $1, status = 'pending', owner = NULL, run_id = NULL, updated_at = $2 WHERE id = $3`, [assignee, by.at, id]);
      await event(c, teamId, id, by.name, 'assign', `assigned to ${assignee}`, by.at);
    });
    return (await this.get(teamId, id))!;
  }

  async progress(teamId: string, id: number, percent: number, note: string, by: Actor): Promise<BoardTask> {
    await this.change(teamId, id, async (c, t) => {
      ownerOnly(t, by, 'report progress on');
      await c.query('UPDATE team_tasks SET progress = $1, progress_note = $2, updated_at = $3 WHERE id = $4', [percent, note || null, by.at, id]);
      await event(c, teamId, id, by.name, 'progress', `${percent}%${note ? `: ${note}` : ''}`, by.at);
    });
    return (await this.get(teamId, id))!;
  }

  async comment(teamId: string, id: number, kind: 'note' | 'blocker', text: string, by: Actor): Promise<TaskOutcome> {
    await this.change(teamId, id, async (c, t) => {
      if (kind === 'blocker') {
        ownerOnly(t, by, 'report a blocker on');
        await c.query(`UPDATE team_tasks SET status = 'failed', result = $1, run_id = NULL, updated_at = $2 WHERE id = $3`, [`Blocked: ${text}`, by.at, id]);
      }
      await event(c, teamId, id, by.name, kind === 'blocker' ? 'blocker' : 'comment', text, by.at);
    });
    return this.outcome(teamId, id);
  }

  async attach(teamId: string, id: number, ref: string, by: Actor): Promise<BoardTask> {
    await this.change(teamId, id, async (c) => {
      await c.query(`UPDATE team_tasks SET attachments = attachments || jsonb_build_array($1::text), updated_at = $2 WHERE id = $3 AND NOT attachments ? $1`, [ref, by.at, id]);
      await event(c, teamId, id, by.name, 'attach', ref, by.at);
    });
    return (await this.get(teamId, id))!;
  }

  async complete(teamId: string, id: number, result: string, by: Actor): Promise<TaskOutcome> {
    await this.change(teamId, id, async (c, t) => {
      ownerOnly(t, by, 'complete');
      if (t.requireReview) throw new Error(refusal.needsReview(id));
      await c.query(`UPDATE team_tasks SET status = 'completed', result = $1, progress = 100, run_id = NULL, updated_at = $2 WHERE id = $3`, [result, by.at, id]);
      await event(c, teamId, id, by.name, 'complete', result, by.at);
    });
    return this.outcome(teamId, id);
  }

  async submitForReview(teamId: string, id: number, result: string, by: Actor): Promise<BoardTask> {
    await this.change(teamId, id, async (c, t) => {
      ownerOnly(t, by, 'hand in');
      await c.query(`UPDATE team_tasks SET status = 'in_review', result = $1, run_id = NULL, updated_at = $2 WHERE id = $3`, [result, by.at, id]);
      await event(c, teamId, id, by.name, 'review', `handed in for review: ${result}`, by.at);
    });
    return (await this.get(teamId, id))!;
  }

  async approve(teamId: string, id: number, note: string, by: Actor): Promise<TaskOutcome> {
    await this.change(teamId, id, async (c, t) => {
      if (t.status !== 'in_review') throw new Error(refusal.notInReview(id));
      await c.query(`UPDATE team_tasks SET status = 'completed', updated_at = $1 WHERE id = $2`, [by.at, id]);
      await event(c, teamId, id, by.name, 'approve', note || 'approved', by.at);
    });
    return this.outcome(teamId, id);
  }

  async reject(teamId: string, id: number, feedback: string, by: Actor): Promise<BoardTask> {
    await this.change(teamId, id, async (c, t) => {
      if (t.status !== 'in_review') throw new Error(refusal.notInReview(id));
      await c.query(`UPDATE team_tasks SET status = 'pending', assignee = owner, owner = NULL, progress = 0, updated_at = $1 WHERE id = $2`, [by.at, id]);
      await event(c, teamId, id, by.name, 'reject', feedback, by.at);
    });
    return (await this.get(teamId, id))!;
  }

  async cancel(teamId: string, id: number, reason: string, by: Actor): Promise<TaskOutcome> {
    await this.change(teamId, id, async (c) => {
      await c.query(`UPDATE team_tasks SET status = 'cancelled', run_id = NULL, updated_at = $1 WHERE id = $2`, [by.at, id]);
      await event(c, teamId, id, by.name, 'cancel', reason || 'cancelled', by.at);
    });
    return this.outcome(teamId, id);
  }

  async retry(teamId: string, id: number, reason: string, by: Actor): Promise<BoardTask> {
    await this.change(teamId, id, async (c, t) => {
      if (t.status !== 'failed' && t.status !== 'cancelled') throw new Error(refusal.notRetryable(id));
      await c.query(`UPDATE team_tasks SET status = 'pending', owner = NULL, run_id = NULL, progress = 0, returns = 0, gate_failures = 0, updated_at = $1 WHERE id = $2`, [by.at, id]);
      await event(c, teamId, id, by.name, 'retry', reason || 'back to pending', by.at);
    });
    return (await this.get(teamId, id))!;
  }

  async recordGate(teamId: string, id: number, gate: { name: string; passed: boolean; feedback: string; fail?: boolean }, by: Actor): Promise<BoardTask> {
    await this.change(teamId, id, async (c) => {
      if (!gate.passed && gate.fail) {
        await c.query(`UPDATE team_tasks SET gate_failures = gate_failures + 1, status = 'failed', run_id = NULL, result = $1, updated_at = $2 WHERE id = $3`, [`Quality gate ${gate.name} failed: ${gate.feedback}`, by.at, id]);
      } else if (!gate.passed) {
        await c.query('UPDATE team_tasks SET gate_failures = gate_failures + 1, updated_at = $1 WHERE id = $2', [by.at, id]);
      }
      await event(c, teamId, id, by.name, gate.passed ? 'gate-passed' : gate.fail ? 'gate-failed-final' : 'gate-failed', `${gate.name}: ${gate.feedback}`, by.at);
    });
    return (await this.get(teamId, id))!;
  }

  async releaseOrphans(liveRuns: ReadonlySet<string>, lead: (teamId: string) => string | undefined, maxReturns: number, at: number): Promise<BoardTask[]> {
    const live = [...liveRuns];
    const moved = await this.db.tx(async (c) => {
      await c.query('UPDATE team_runs SET seen_at = now(), instance = $2 WHERE run_id = ANY($1)', [live, this.instance]);
      // One watchdog at a time judges other editors' runs; every editor judges its own.
      const [{ watchdog }] = (await c.query<{ watchdog: boolean }>(`SELECT pg_try_advisory_xact_lock(hashtextextended('pincer-watchdog:' || current_schema(), 0)) AS watchdog`)).rows as [{ watchdog: boolean }];
      const orphans = (await c.query<TaskRow & { gone: boolean }>(
        `SELECT ${COLUMNS}, NULL AS blocked_by, NULL AS open_blockers, (r.instance = $2) IS NOT TRUE AS gone
         FROM team_tasks t LEFT JOIN team_runs r ON r.run_id = t.run_id
         WHERE t.status = 'in_progress' AND t.run_id IS NOT NULL AND NOT (t.run_id = ANY($1))
           AND (r.instance = $2 OR ($3 AND (r.run_id IS NULL OR r.seen_at < now() - $4 * interval '1 millisecond')))
         ORDER BY t.id FOR NO KEY UPDATE OF t SKIP LOCKED`,
        [live, this.instance, watchdog, this.staleRunMs],
      )).rows;
      for (const row of orphans) {
        const t = taskFromRow(row);
        const toLead = t.returns + 1 >= maxReturns ? lead(t.teamId) : undefined;
        await c.query(`UPDATE team_tasks SET status = 'pending', owner = NULL, run_id = NULL, returns = returns + 1, assignee = COALESCE($1, assignee), updated_at = $2 WHERE id = $3`, [toLead ?? null, at, t.id]);
        const why = row.gone ? `was not seen alive for ${Math.round(this.staleRunMs / 1000)} s (its editor went away)` : undefined;
        await event(c, t.teamId, t.id, 'watchdog', 'return', orphanDetail(t, toLead, why), at);
      }
      await c.query(`DELETE FROM team_runs WHERE (instance = $1 AND NOT (run_id = ANY($2))) OR ($3 AND seen_at < now() - $4 * interval '1 millisecond')`, [this.instance, live, watchdog, this.staleRunMs]);
      return orphans.map((r) => [r.team_id, r.id] as const);
    });
    return (await Promise.all(moved.map(([team, id]) => this.get(team, id)))).filter((t): t is BoardTask => t !== undefined);
  }

  async note(teamId: string, taskId: number | undefined, action: string, detail: string, by: Actor): Promise<void> {
    if (taskId === undefined) await this.db.tx((c) => event(c, teamId, null, by.name, action, detail, by.at));
    else await this.change(teamId, taskId, (c) => event(c, teamId, taskId, by.name, action, detail, by.at));
  }

  async events(teamId: string, opts: { taskId?: number; limit?: number } = {}): Promise<BoardEvent[]> {
    const rows = opts.taskId === undefined
      ? await this.db.query<EventRow>('SELECT * FROM team_events WHERE team_id = $1 ORDER BY id DESC LIMIT $2', [teamId, opts.limit ?? 100])
      : await this.db.query<EventRow>('SELECT * FROM team_events WHERE team_id = $1 AND task_id = $2 ORDER BY id DESC LIMIT $3', [teamId, opts.taskId, opts.limit ?? 100]);
    return rows.map(eventFromRow).reverse();
  }

  async send(teamId: string, sender: string, recipients: readonly string[], text: string, at: number): Promise<void> {
    await this.db.query(`INSERT INTO team_messages(team_id, sender, recipient, text, at) SELECT $1, $2, r, $3, $4 FROM unnest($5::text[]) AS r`, [teamId, sender, text, at, [...recipients]]);
  }

  async messages(teamId: string, limit = 100): Promise<TeamMessage[]> {
    const rows = await this.db.query<MessageRow>('SELECT * FROM team_messages WHERE team_id = $1 ORDER BY id DESC LIMIT $2', [teamId, limit]);
    return rows.map(messageFromRow).reverse();
  }

  async unreadCount(teamId: string, recipient: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM team_messages WHERE team_id = $1 AND recipient = $2 AND read_at IS NULL', [teamId, recipient]);
    return rows[0]?.n ?? 0;
  }

  async readUnread(teamId: string, recipient: string, at: number): Promise<TeamMessage[]> {
    // Rows another reader is marking are skipped, and marked rows no longer match: each message is read once.
    const rows = await this.db.query<MessageRow>(
      `UPDATE team_messages SET read_at = $3 WHERE read_at IS NULL AND id IN (
         SELECT id FROM team_messages WHERE team_id = $1 AND recipient = $2 AND read_at IS NULL FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [teamId, recipient, at],
    );
    return rows.map(messageFromRow).sort((a, b) => a.id - b.id);
  }

  /**
   * One change of task `id`: its row locked first (or "no such task"), then `fn`'s checks and writes, in one
   * transaction. The lock is the one an UPDATE takes (NO KEY UPDATE): dependency rows that only reference the
   * task (foreign-key checks) are not held up by it.
   */
  private change(teamId: string, id: number, fn: (c: PoolClient, t: BoardTask) => Promise<void>): Promise<void> {
    return this.db.tx(async (c) => {
      const row = (await c.query<TaskRow>(`SELECT ${COLUMNS}, NULL AS blocked_by, NULL AS open_blockers FROM team_tasks t WHERE t.id = $1 AND t.team_id = $2 FOR NO KEY UPDATE`, [id, teamId])).rows[0];
      if (!row) throw new Error(refusal.noTask(id, teamId));
      await fn(c, taskFromRow(row));
    });
  }

  private async outcome(teamId: string, id: number): Promise<TaskOutcome> {
    const task = (await this.get(teamId, id))!;
    return outcomeOf(task, await this.many(`${TASK_SELECT} WHERE t.id IN (SELECT task_id FROM team_task_deps WHERE blocker_id = $1) AND t.status IN ${OPEN} ORDER BY t.id`, [id]));
  }

  private async one(sql: string, params: unknown[]): Promise<BoardTask | undefined> {
    return (await this.many(sql, params))[0];
  }

  private async many(sql: string, params: unknown[]): Promise<BoardTask[]> {
    return (await this.db.query<TaskRow>(sql, params)).map(taskFromRow);
  }
}

function ownerOnly(t: BoardTask, by: Actor, verb: string): void {
  if (t.status !== 'in_progress' || t.owner !== by.name) throw new Error(refusal.notOwner(t.id, verb));
}

async function event(c: PoolClient, teamId: string, taskId: number | null, actor: string, action: string, detail: string, at: number): Promise<void> {
  await c.query('INSERT INTO team_events(team_id, task_id, actor, action, detail, at) VALUES ($1, $2, $3, $4, $5, $6)', [teamId, taskId, actor, action, detail, at]);
}
