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
import type { Actor, BoardEvent, BoardStore, BoardTask, ListFilter, ListOrder, NewTask, TaskChange, TaskOutcome, TeamMessage } from './board-types';

const OPEN = `('pending', 'in_progress', 'in_review')`;

/** Words of a search, each quoted, so nothing a person types is read as FTS syntax. */
function ftsQuery(text: string, anyWord: boolean): string | undefined {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []).slice(0, 32);
  return words.length ? words.map((w) => `"${w}"`).join(anyWord ? ' OR ' : ' ') : undefined;
}

export class SqlBoardStore implements BoardStore {
  private readonly claims: ClaimBatcher;

  constructor(private readonly db: Database) {
    this.claims = new ClaimBatcher(db);
  }

  async create(teamId: string, input: NewTask, by: Actor): Promise<BoardTask> {
    const key = randomBytes(8).toString('hex');
    const ofKey = 'SELECT id FROM team_tasks WHERE create_key = ?';
    const blockers = [...new Set(input.blockedBy ?? [])];
    await this.db.transaction([
      {
        sql: `INSERT INTO team_tasks(team_id, create_key, subject, description, priority, assignee, require_review, created_by, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        params: [teamId, key, input.subject, input.description ?? '', input.priority ?? 0, input.assignee ?? null, input.requireReview ? 1 : 0, by.name, by.at, by.at],
      },
      ...blockers.map((b) => ({ sql: `INSERT INTO team_task_deps(task_id, blocker_id) SELECT (${ofKey}), ?`, params: [key, b] })),
      {
        sql: `INSERT INTO team_events(team_id, task_id, actor, action, detail, at) SELECT ?, (${ofKey}), ?, 'create', ?, ?`,
        params: [teamId, key, by.name, `created "${input.subject}"${blockers.length ? `, blocked by ${blockers.map((b) => `#${b}`).join(', ')}` : ''}${input.assignee ? `, assigned to ${input.assignee}` : ''}`, by.at],
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
    const sets: string[] = [];
    const params: SqlValue[] = [];
    const said: string[] = [];
    for (const [col, key] of [['subject', 'subject'], ['description', 'description'], ['priority', 'priority']] as const) {
      if (change[key] === undefined) continue;
      sets.push(`${col} = ?`);
      params.push(change[key]!);
      said.push(col);
    }
    if (change.requireReview !== undefined) {
      sets.push('require_review = ?');
      params.push(change.requireReview ? 1 : 0);
      said.push(`review ${change.requireReview ? 'required' : 'not required'}`);
    }
    const blockers = change.blockedBy && [...new Set(change.blockedBy)];
    if (blockers) said.push(`blockers now ${blockers.length ? blockers.map((b) => `#${b}`).join(', ') : 'none'}`);
    await this.db.transaction([
      ...taskGuard(teamId, id, { sql: 't.status <> \'completed\'', params: [], reason: `Refused: task #${id} is completed; completed tasks are final.` }),
      { sql: `UPDATE team_tasks SET ${[...sets, 'updated_at = ?'].join(', ')} WHERE id = ?`, params: [...params, by.at, id] },
      ...(blockers ? [{ sql: 'DELETE FROM team_task_deps WHERE task_id = ?', params: [id] }, ...blockers.map((b) => ({ sql: 'INSERT INTO team_task_deps(task_id, blocker_id) VALUES (?, ?)', params: [id, b] }))] : []),
      event(teamId, id, by.name, 'update', said.join('; ') || 'no change', by.at),
    ]);
    return (await this.get(teamId, id))!;
  }

  async claim(teamId: string, id: number, runId: string | undefined, by: Actor): Promise<BoardTask> {
    const t = await this.claims.submit({ teamId, id, owner: by.name, runId: runId ?? null, at: by.at });
    if (!t) throw new Error(`Refused: there is no task #${id} on team ${teamId}.`);
    if (t.status === 'in_progress' && t.owner === by.name && t.runId === runId) return t;
    throw new Error(await this.whyNotClaimed(t, by.name));
  }

  /** Why a claim did not take the task, as it stands now. */
  private async whyNotClaimed(t: BoardTask, claimer: string): Promise<string> {
    if (t.status === 'in_progress') return `Refused: task #${t.id} is already claimed by ${t.owner ?? '?'}.`;
    if (t.status !== 'pending') return `Refused: task #${t.id} is ${t.status}, so it cannot be claimed${t.status === 'completed' ? ' (completed tasks are final)' : ''}.`;
    if (t.assignee && t.assignee !== claimer) return `Refused: task #${t.id} is assigned to ${t.assignee}, not ${claimer}.`;
    const blockers = await Promise.all(t.openBlockers.map((b) => this.get(t.teamId, b)));
    return `Refused: task #${t.id} is blocked by ${blockers.map((b, i) => `#${t.openBlockers[i]} (${b?.status ?? '?'})`).join(', ')}: it can be claimed once they are completed.`;
  }

  async assign(teamId: string, id: number, assignee: string, by: Actor): Promise<BoardTask> {
    await this.db.transaction([
      ...taskGuard(teamId, id, { sql: `t.status IN ('pending', 'in_progress')`, params: [], reason: `Refused: task #${id} is not pending or in progress, so it cannot be reassigned (retry it first).` }),
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
      ...taskGuard(teamId, id, { sql: 't.require_review = 0', params: [], reason: `Refused: task #${id} requires review: hand in your result with action "review"; the lead approves it.` }),
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
      ...taskGuard(teamId, id, { sql: `t.status = 'in_review'`, params: [], reason: `Refused: task #${id} is not in review.` }),
      { sql: `UPDATE team_tasks SET status = 'completed', updated_at = ? WHERE id = ?`, params: [by.at, id] },
      event(teamId, id, by.name, 'approve', note || 'approved', by.at),
    ]);
    return this.outcome(teamId, id);
  }

  async reject(teamId: string, id: number, feedback: string, by: Actor): Promise<BoardTask> {
    await this.db.transaction([
      ...taskGuard(teamId, id, { sql: `t.status = 'in_review'`, params: [], reason: `Refused: task #${id} is not in review.` }),
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
      ...taskGuard(teamId, id, { sql: `t.status IN ('failed', 'cancelled')`, params: [], reason: `Refused: only a failed or cancelled task can be retried; #${id} is not.` }),
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

  async releaseOrphans(liveRuns: ReadonlySet<string>, lead: (teamId: string) => string | undefined, maxReturns: number, at: number): Promise<BoardTask[]> {
    const held = await this.many(`${TASK_SELECT} WHERE t.status = 'in_progress' AND t.run_id IS NOT NULL`, []);
    const moved: BoardTask[] = [];
    for (const t of held.filter((x) => !liveRuns.has(x.runId!))) {
      const toLead = t.returns + 1 >= maxReturns ? lead(t.teamId) : undefined;
      const why = `its member run ${t.runId} (${t.owner ?? '?'}) ended without completing it or reporting a blocker`;
      // Conditional on the same run still holding it: a claim or completion that landed meanwhile wins.
      await this.db.transaction([
        { sql: `UPDATE team_tasks SET status = 'pending', owner = NULL, run_id = NULL, returns = returns + 1, assignee = COALESCE(?, assignee), updated_at = ? WHERE id = ? AND run_id = ? AND status = 'in_progress'`, params: [toLead ?? null, at, t.id, t.runId!] },
        {
          sql: `INSERT INTO team_events(team_id, task_id, actor, action, detail, at) SELECT ?, ?, 'watchdog', 'return', ?, ? WHERE changes() = 1`,
          params: [t.teamId, t.id, toLead ? `returned to the lead ${toLead} after ${t.returns + 1} returns: ${why}` : `back to pending: ${why}`, at],
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
    return taskGuard(teamId, id, { sql: `t.status = 'in_progress' AND t.owner = ?`, params: [by.name], reason: `Refused: only the holder of task #${id}'s claim may ${verb} it, while it is in progress (claim it first).` });
  }

  /** The task as it is now, with its dependents that are claimable now (released) or left waiting on a closed blocker (stranded). */
  private async outcome(teamId: string, id: number): Promise<TaskOutcome> {
    const task = (await this.get(teamId, id))!;
    const dependents = await this.many(`${TASK_SELECT} WHERE t.id IN (SELECT task_id FROM team_task_deps WHERE blocker_id = ?) AND t.status IN ${OPEN} ORDER BY t.id`, [id]);
    const released = task.status === 'completed' ? dependents.filter((d) => d.status === 'pending' && d.openBlockers.length === 0) : [];
    const stranded = task.status === 'cancelled' || task.status === 'failed' ? dependents : [];
    return { task, released, stranded };
  }

  private async one(sql: string, params: SqlValue[]): Promise<BoardTask | undefined> {
    return (await this.many(sql, params))[0];
  }

  private async many(sql: string, params: SqlValue[]): Promise<BoardTask[]> {
    return (await this.db.query<TaskRow>(sql, params)).map(taskFromRow);
  }
}
