// The board in the workspace database (sql.js). Every change is one journaled transaction: its
// guards, the change and its audit event land together or not at all, and the rules in
// board-schema.ts (transitions, claims, results, cycles) are checked by the database inside it.
// Reads that follow a change (the task as it is now, released or stranded dependents) are plain
// queries after it: they describe the outcome and decide nothing.
import { randomBytes } from 'node:crypto';
import type { Database } from '../storage/database';
import type { SqlValue, StatementSpec } from '../storage/types';
import { ClaimBatcher } from './claim-batcher';
import { event, eventFromRow, messageFromRow, TASK_SELECT, taskFromRow, taskGuard, type EventRow, type MessageRow, type TaskRow } from './board-rows';
import { changeOf, createDetail, orphanDetail, outcomeOf, refusal, searchWords, whyNotClaimed } from './board-explain';
import type { Actor, BoardEvent, BoardStore, BoardTask, ListFilter, ListOrder, NewTask, TaskChange, TaskOutcome, TeamMessage } from './board-types';

const OPEN = `('pending', 'in_progress', 'in_review')`;

/** Words of a search, each quoted, so nothing a person types is read as FTS syntax. */
function ftsQuery(text: string, anyWord: boolean): string | undefined {
  const words = searchWords(text);
  return words.length ? words.map((w) => `"${w}"`).join(anyWord ? ' OR ' : ' ') : undefined;
}

export interface SqlBoardOptions {
  /** This window's name for its runs (default: a new random id per store). */
  instance?: string;
  /** Another window's run not reported alive for this long is taken as gone (default 90 s: three watchdog sweeps). */
  staleRunMs?: number;
}

export class SqlBoardStore implements BoardStore {
  private readonly claims: ClaimBatcher;
  private readonly instance: string;
  private readonly staleRunMs: number;

  constructor(private readonly db: Database, opts: SqlBoardOptions = {}) {
    this.instance = opts.instance ?? randomBytes(8).toString('hex');
    this.staleRunMs = opts.staleRunMs ?? 90_000;
    this.claims = new ClaimBatcher(db, this.instance);
  }

  async create(teamId: string, input: NewTask, by: Actor): Promise<BoardTask> {
    const key = randomBytes(8).toString('hex');
    const ofKey = 'SELECT id FROM team_tasks WHERE create_key = ?';
    const blockers = [...new Set(input.blockedBy ?? [])];
    await this.db.transaction([
      {
        sql: `INSERT INTO team_tasks(team_id, create_key, subject, description, priority, assignee, require_review, gates, created_by, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        params: [teamId, key, input.subject, input.description ?? '', input.priority ?? 0, input.assignee ?? null, input.requireReview ? 1 : 0, JSON.stringify(input.gates ?? []), by.name, by.at, by.at],
      },
      ...blockers.map((b) => ({ sql: `INSERT INTO team_task_deps(task_id, blocker_id) SELECT (${ofKey}), ?`, params: [key, b] })),
      {
        sql: `INSERT INTO team_events(team_id, task_id, actor, action, detail, at) SELECT ?, (${ofKey}), ?, 'create', ?, ?`,
        params: [teamId, key, by.name, createDetail(input, blockers), by.at],
      },
    ]);
    return (await this.one(`${TASK_SELECT} WHERE t.create_key = ?`, [key]))!;
  }

  get(teamId: string, id: number): Promise<BoardTask | undefined> {
    return this.one(`${TASK_SELECT} WHERE t.id = ? AND t.team_id = ?`, [id, teamId]);
  }

  list(teamId: string, filter: ListFilter, order: ListOrder, limit = 200): Promise<BoardTask[]> {
    const where = filter === 'active' ? ` AND t.status IN ${OPEN}` : filter === 'completed' ? ` AND t.status NOT IN ${OPEN}` : '';
    const by = order === 'priority' ? 't.priority DESC, t.id' : 't.id DESC';
    return this.many(`${TASK_SELECT} WHERE t.team_id = ?${where} ORDER BY ${by} LIMIT ?`, [teamId, limit]);
  }

  async search(teamId: string, query: string, opts: { limit?: number; anyWord?: boolean; openOnly?: boolean } = {}): Promise<BoardTask[]> {
    const match = ftsQuery(query, opts.anyWord ?? false);
    if (!match) return [];
    return this.many(
      `${TASK_SELECT} JOIN (SELECT docid, bm25(matchinfo(team_tasks_fts, 'pcnalx'), 2, 1) AS score FROM team_tasks_fts WHERE team_tasks_fts MATCH ?) f
         ON f.docid = t.id WHERE t.team_id = ?${opts.openOnly ? ` AND t.status IN ${OPEN}` : ''} ORDER BY f.score DESC, t.id LIMIT ?`,
      [match, teamId, opts.limit ?? 10],
    );
  }

  async update(teamId: string, id: number, change: TaskChange, by: Actor): Promise<BoardTask> {
    const { columns, blockers, detail } = changeOf(change);
    await this.db.transaction([
      ...taskGuard(teamId, id, { sql: 't.status <> \'completed\'', params: [], reason: refusal.completedFinal(id) }),
      { sql: `UPDATE team_tasks SET ${[...columns.map(([c]) => `${c} = ?`), 'updated_at = ?'].join(', ')} WHERE id = ?`, params: [...columns.map(([, v]) => v), by.at, id] },
      ...(blockers ? [{ sql: 'DELETE FROM team_task_deps WHERE task_id = ?', params: [id] }, ...blockers.map((b) => ({ sql: 'INSERT INTO team_task_deps(task_id, blocker_id) VALUES (?, ?)', params: [id, b] }))] : []),
      event(teamId, id, by.name, 'update', detail, by.at),
    ]);
    return (await this.get(teamId, id))!;
  }

  async claim(teamId: string, id: number, runId: string | undefined, by: Actor): Promise<BoardTask> {
    const t = await this.claims.submit({ teamId, id, owner: by.name, runId: runId ?? null, at: by.at });
    if (!t) throw new Error(refusal.noTask(id, teamId));
    if (t.status === 'in_progress' && t.owner === by.name && t.runId === runId) return t;
    throw new Error(await whyNotClaimed(t, by.name, (b) => this.get(teamId, b)));
  }

  async assign(teamId: string, id: number, assignee: string, by: Actor): Promise<BoardTask> {
    await this.db.transaction([
      ...taskGuard(teamId, id, { sql: `t.status IN ('pending', 'in_progress')`, params: [], reason: refusal.notReassignable(id) }),
      // Reassigning a task in progress takes the claim from its holder: it starts again with the new assignee.
      { sql: `UPDATE team_tasks SET assignee = ?, status = 'pending', owner = NULL, run_id = NULL, updated_at = ? WHERE id = ?`, params: [assignee, by.at, id] },
      event(teamId, id, by.name, 'assign', `assigned to ${assignee}`, by.at),
    ]);
    return (await this.get(teamId, id))!;
  }

  async progress(teamId: string, id: number, percent: number, note: string, by: Actor): Promise<BoardTask> {
    await this.db.transaction([
      ...this.ownerGuard(teamId, id, by, 'report progress on'),
      { sql: 'UPDATE team_tasks SET progress = ?, progress_note = ?, updated_at = ? WHERE id = ?', params: [percent, note || null, by.at, id] },
      event(teamId, id, by.name, 'progress', `${percent}%${note ? `: ${note}` : ''}`, by.at),
    ]);
    return (await this.get(teamId, id))!;
  }

  async comment(teamId: string, id: number, kind: 'note' | 'blocker', text: string, by: Actor): Promise<TaskOutcome> {
    const change: StatementSpec[] = kind === 'blocker'
      ? [...this.ownerGuard(teamId, id, by, 'report a blocker on'), { sql: `UPDATE team_tasks SET status = 'failed', result = ?, run_id = NULL, updated_at = ? WHERE id = ?`, params: [`Blocked: ${text}`, by.at, id] }]
      : taskGuard(teamId, id);
    await this.db.transaction([...change, event(teamId, id, by.name, kind === 'blocker' ? 'blocker' : 'comment', text, by.at)]);
    return this.outcome(teamId, id);
  }

  async attach(teamId: string, id: number, ref: string, by: Actor): Promise<BoardTask> {
    await this.db.transaction([
      ...taskGuard(teamId, id),
      { sql: `UPDATE team_tasks SET attachments = json_insert(attachments, '$[#]', ?), updated_at = ? WHERE id = ? AND NOT EXISTS (SELECT 1 FROM json_each(attachments) WHERE value = ?)`, params: [ref, by.at, id, ref] },
      event(teamId, id, by.name, 'attach', ref, by.at),
    ]);
    return (await this.get(teamId, id))!;
  }

  async complete(teamId: string, id: number, result: string, by: Actor): Promise<TaskOutcome> {
    await this.db.transaction([
      ...this.ownerGuard(teamId, id, by, 'complete'),
      ...taskGuard(teamId, id, { sql: 't.require_review = 0', params: [], reason: refusal.needsReview(id) }),
      { sql: `UPDATE team_tasks SET status = 'completed', result = ?, progress = 100, run_id = NULL, updated_at = ? WHERE id = ?`, params: [result, by.at, id] },
      event(teamId, id, by.name, 'complete', result, by.at),
    ]);
    return this.outcome(teamId, id);
  }

  async submitForReview(teamId: string, id: number, result: string, by: Actor): Promise<BoardTask> {
    await this.db.transaction([
      ...this.ownerGuard(teamId, id, by, 'hand in'),
      { sql: `UPDATE team_tasks SET status = 'in_review', result = ?, run_id = NULL, updated_at = ? WHERE id = ?`, params: [result, by.at, id] },
      event(teamId, id, by.name, 'review', `handed in for review: ${result}`, by.at),
    ]);
    return (await this.get(teamId, id))!;
  }

  async approve(teamId: string, id: number, note: string, by: Actor): Promise<TaskOutcome> {
    await this.db.transaction([
      ...taskGuard(teamId, id, { sql: `t.status = 'in_review'`, params: [], reason: refusal.notInReview(id) }),
      { sql: `UPDATE team_tasks SET status = 'completed', updated_at = ? WHERE id = ?`, params: [by.at, id] },
      event(teamId, id, by.name, 'approve', note || 'approved', by.at),
    ]);
    return this.outcome(teamId, id);
  }

  async reject(teamId: string, id: number, feedback: string, by: Actor): Promise<BoardTask> {
    await this.db.transaction([
      ...taskGuard(teamId, id, { sql: `t.status = 'in_review'`, params: [], reason: refusal.notInReview(id) }),
      { sql: `UPDATE team_tasks SET status = 'pending', assignee = owner, owner = NULL, progress = 0, updated_at = ? WHERE id = ?`, params: [by.at, id] },
      event(teamId, id, by.name, 'reject', feedback, by.at),
    ]);
    return (await this.get(teamId, id))!;
  }

  async cancel(teamId: string, id: number, reason: string, by: Actor): Promise<TaskOutcome> {
    await this.db.transaction([
      ...taskGuard(teamId, id),
      { sql: `UPDATE team_tasks SET status = 'cancelled', run_id = NULL, updated_at = ? WHERE id = ?`, params: [by.at, id] },
      event(teamId, id, by.name, 'cancel', reason || 'cancelled', by.at),
    ]);
    return this.outcome(teamId, id);
  }

  async retry(teamId: string, id: number, reason: string, by: Actor): Promise<BoardTask> {
    await this.db.transaction([
      ...taskGuard(teamId, id, { sql: `t.status IN ('failed', 'cancelled')`, params: [], reason: refusal.notRetryable(id) }),
      { sql: `UPDATE team_tasks SET status = 'pending', owner = NULL, run_id = NULL, progress = 0, returns = 0, gate_failures = 0, updated_at = ? WHERE id = ?`, params: [by.at, id] },
      event(teamId, id, by.name, 'retry', reason || 'back to pending', by.at),
    ]);
    return (await this.get(teamId, id))!;
  }

  async recordGate(teamId: string, id: number, gate: { name: string; passed: boolean; feedback: string; fail?: boolean }, by: Actor): Promise<BoardTask> {
    const change: StatementSpec[] = gate.passed ? [] : [{
      sql: `UPDATE team_tasks SET gate_failures = gate_failures + 1${gate.fail ? `, status = 'failed', run_id = NULL, result = ?` : ''}, updated_at = ? WHERE id = ?`,
      params: gate.fail ? [`Quality gate ${gate.name} failed: ${gate.feedback}`, by.at, id] : [by.at, id],
    }];
    await this.db.transaction([
      ...taskGuard(teamId, id), ...change,
      event(teamId, id, by.name, gate.passed ? 'gate-passed' : gate.fail ? 'gate-failed-final' : 'gate-failed', `${gate.name}: ${gate.feedback}`, by.at),
    ]);
    return (await this.get(teamId, id))!;
  }

  /**
   * Several windows share the workspace database, each with its own member runs: this window says its
   * live runs are alive, and releases the claims of runs that are not live here and are its own, or
   * that no window has reported alive for `staleRunMs` (their window closed or crashed).
   */
  async releaseOrphans(liveRuns: ReadonlySet<string>, lead: (teamId: string) => string | undefined, maxReturns: number, at: number): Promise<BoardTask[]> {
    const live = [...liveRuns];
    const upsert = 'INSERT INTO team_runs(run_id, instance, seen_at) VALUES (?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET instance = excluded.instance, seen_at = excluded.seen_at';
    await this.db.transaction([
      ...live.map((r) => ({ sql: upsert, params: [r, this.instance, at] })),
      { sql: `DELETE FROM team_runs WHERE (instance = ? AND run_id NOT IN (${live.map(() => '?').join(', ')})) OR seen_at < ?`, params: [this.instance, ...live, at - this.staleRunMs] },
    ]);
    // A run without a row here belongs to no live window (its rows were stale, or it claimed before runs were kept).
    const held = await this.many(`${TASK_SELECT} LEFT JOIN team_runs r ON r.run_id = t.run_id
      WHERE t.status = 'in_progress' AND t.run_id IS NOT NULL AND (r.run_id IS NULL OR r.instance = ?)`, [this.instance]);
    const moved: BoardTask[] = [];
    for (const t of held.filter((x) => !liveRuns.has(x.runId!))) {
      const toLead = t.returns + 1 >= maxReturns ? lead(t.teamId) : undefined;
      // Conditional on the same run still holding it: a claim or completion that landed meanwhile wins.
      await this.db.transaction([
        { sql: `UPDATE team_tasks SET status = 'pending', owner = NULL, run_id = NULL, returns = returns + 1, assignee = COALESCE(?, assignee), updated_at = ? WHERE id = ? AND run_id = ? AND status = 'in_progress'`, params: [toLead ?? null, at, t.id, t.runId!] },
        {
          sql: `INSERT INTO team_events(team_id, task_id, actor, action, detail, at) SELECT ?, ?, 'watchdog', 'return', ?, ? WHERE changes() = 1`,
          params: [t.teamId, t.id, orphanDetail(t, toLead), at],
        },
      ]);
      const now = await this.get(t.teamId, t.id);
      if (now && now.status === 'pending' && now.returns === t.returns + 1) moved.push(now);
    }
    return moved;
  }

  async note(teamId: string, taskId: number | undefined, action: string, detail: string, by: Actor): Promise<void> {
    await this.db.transaction([...(taskId !== undefined ? taskGuard(teamId, taskId) : []), event(teamId, taskId ?? null, by.name, action, detail, by.at)]);
  }

  async events(teamId: string, opts: { taskId?: number; limit?: number } = {}): Promise<BoardEvent[]> {
    const rows = opts.taskId === undefined
      ? await this.db.query<EventRow>('SELECT * FROM team_events WHERE team_id = ? ORDER BY id DESC LIMIT ?', [teamId, opts.limit ?? 100])
      : await this.db.query<EventRow>('SELECT * FROM team_events WHERE team_id = ? AND task_id = ? ORDER BY id DESC LIMIT ?', [teamId, opts.taskId, opts.limit ?? 100]);
    return rows.map(eventFromRow).reverse();
  }

  async send(teamId: string, sender: string, recipients: readonly string[], text: string, at: number): Promise<void> {
    await this.db.transaction(recipients.map((r) => ({ sql: 'INSERT INTO team_messages(team_id, sender, recipient, text, at) VALUES (?, ?, ?, ?, ?)', params: [teamId, sender, r, text, at] })));
  }

  async messages(teamId: string, limit = 100): Promise<TeamMessage[]> {
    const rows = await this.db.query<MessageRow>('SELECT * FROM team_messages WHERE team_id = ? ORDER BY id DESC LIMIT ?', [teamId, limit]);
    return rows.map(messageFromRow).reverse();
  }

  async unreadCount(teamId: string, recipient: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>('SELECT count(*) AS n FROM team_messages WHERE team_id = ? AND recipient = ? AND read_at IS NULL', [teamId, recipient]);
    return rows[0]?.n ?? 0;
  }

  async readUnread(teamId: string, recipient: string, at: number): Promise<TeamMessage[]> {
    // Marked with a token first, then read by it: two readers at once never both get a message.
    const token = randomBytes(8).toString('hex');
    await this.db.run('UPDATE team_messages SET read_at = ?, read_token = ? WHERE team_id = ? AND recipient = ? AND read_at IS NULL', [at, token, teamId, recipient]);
    const rows = await this.db.query<MessageRow>('SELECT * FROM team_messages WHERE read_token = ? ORDER BY id', [token]);
    return rows.map(messageFromRow);
  }

  /** The task is in progress and `by` holds its claim. */
  private ownerGuard(teamId: string, id: number, by: Actor, verb: string): StatementSpec[] {
    return taskGuard(teamId, id, { sql: `t.status = 'in_progress' AND t.owner = ?`, params: [by.name], reason: refusal.notOwner(id, verb) });
  }

  /** The task as it is now, with its dependents that are claimable now (released) or left waiting on a closed blocker (stranded). */
  private async outcome(teamId: string, id: number): Promise<TaskOutcome> {
    const task = (await this.get(teamId, id))!;
    return outcomeOf(task, await this.many(`${TASK_SELECT} WHERE t.id IN (SELECT task_id FROM team_task_deps WHERE blocker_id = ?) AND t.status IN ${OPEN} ORDER BY t.id`, [id]));
  }

  private async one(sql: string, params: SqlValue[]): Promise<BoardTask | undefined> {
    return (await this.many(sql, params))[0];
  }

  private async many(sql: string, params: SqlValue[]): Promise<BoardTask[]> {
    return (await this.db.query<TaskRow>(sql, params)).map(taskFromRow);
  }
}
