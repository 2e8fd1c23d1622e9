// Child records in the workspace database, so the tree outlives a window reload: a child that was
// running when the window closed is loaded as `interrupted` (it is never re-run on its own), and a
// finished background child whose result its parent had not yet seen is announced again.
import type { Database, Migration } from '../storage/database';
import type { SqlValue } from '../storage/types';
import type { SubagentRecord, SubagentStatus } from './types';

export const SUBAGENT_MIGRATIONS: Migration[] = [
  {
    version: 701,
    name: 'subagents: child records linked to their parent session',
    sql: `CREATE TABLE subagents (
            id TEXT PRIMARY KEY,
            parent_id TEXT,
            parent_session_key TEXT NOT NULL,
            session_key TEXT NOT NULL,
            label TEXT,
            agent_id TEXT NOT NULL,
            task TEXT NOT NULL,
            mode TEXT NOT NULL,
            status TEXT NOT NULL,
            depth INTEGER NOT NULL,
            input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            cached_tokens INTEGER NOT NULL DEFAULT 0,
            cost_usd REAL,
            duration_ms INTEGER NOT NULL DEFAULT 0,
            result TEXT,
            created_at INTEGER NOT NULL,
            finished_at INTEGER,
            delivered INTEGER NOT NULL DEFAULT 0,
            archived INTEGER NOT NULL DEFAULT 0
          );
          CREATE INDEX subagents_parent ON subagents(parent_session_key, created_at);`,
  },
  {
    version: 702,
    name: 'subagents: the window that owns each child',
    sql: 'ALTER TABLE subagents ADD COLUMN window_id TEXT;',
  },
];

interface Row {
  id: string; parent_id: string | null; parent_session_key: string; session_key: string; label: string | null;
  agent_id: string; task: string; mode: string; status: string; depth: number; input_tokens: number;
  output_tokens: number; cached_tokens: number; cost_usd: number | null; duration_ms: number; result: string | null;
  created_at: number; finished_at: number | null; delivered: number; archived: number; window_id: string | null;
}

/** What was live when the window closed did not finish: say so, and let a person resume it. */
const LIVE: readonly SubagentStatus[] = ['queued', 'running'];
export const INTERRUPTED_RESULT = 'Interrupted: the window closed (or reloaded) while this child ran. Resume it to continue from its transcript.';

export class SubagentStore {
  constructor(private readonly db: Database) {}

  /**
   * The records of one window (and those stored before records named their window), oldest first;
   * children that were live are returned (and stored) as interrupted. Another window's children stay
   * its own: it may still be running them.
   */
  async load(now: number, windowId?: string): Promise<SubagentRecord[]> {
    const rows = windowId === undefined
      ? await this.db.query<Row>('SELECT * FROM subagents ORDER BY created_at, id')
      : await this.db.query<Row>('SELECT * FROM subagents WHERE window_id IS NULL OR window_id = ? ORDER BY created_at, id', [windowId]);
    const records = rows.map(fromRow);
    const stale = records.filter((r) => LIVE.includes(r.status));
    for (const r of stale) Object.assign(r, { status: 'interrupted', result: INTERRUPTED_RESULT, finishedAt: now });
    if (stale.length) await this.db.transaction(stale.map((r) => upsert(r)));
    return records;
  }

  /** Stores these records in one transaction (one journal write, however many children changed). */
  async save(records: readonly SubagentRecord[]): Promise<void> {
    if (records.length === 1) {
      const s = upsert(records[0]!);
      await this.db.run(s.sql, s.params);
    } else if (records.length) {
      await this.db.transaction(records.map(upsert));
    }
  }
}

/**
 * Record changes written behind the manager: each changed record's latest state, all of them in one
 * transaction once the write before has landed. Children that change together (eight starting,
 * eight settling) cost one database write, not eight queued one after another.
 */
export class SubagentWriter {
  private readonly dirty = new Map<string, SubagentRecord>();
  private chain: Promise<void> = Promise.resolve();
  private scheduled = false;

  constructor(private readonly store: () => Promise<SubagentStore | undefined>, private readonly warn: (message: string) => void) {}

  save(record: SubagentRecord): void {
    this.dirty.set(record.id, { ...record, usage: { ...record.usage } });
    if (this.scheduled) return;
    this.scheduled = true;
    this.chain = this.chain.then(() => this.drain());
  }

  /** Resolves once every change saved so far is in the database. */
  flush(): Promise<void> {
    return this.chain;
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    const batch = [...this.dirty.values()];
    this.dirty.clear();
    try {
      await (await this.store())?.save(batch);
    } catch (e) {
      this.warn(`Pincer could not store subagent${batch.length === 1 ? '' : 's'} ${batch.map((r) => r.id).join(', ')}: ${(e as Error).message}`);
    }
  }
}

function upsert(r: SubagentRecord): { sql: string; params: SqlValue[] } {
  return {
    sql: `INSERT OR REPLACE INTO subagents(id, parent_id, parent_session_key, session_key, label, agent_id, task, mode, status, depth,
            input_tokens, output_tokens, cached_tokens, cost_usd, duration_ms, result, created_at, finished_at, delivered, archived, window_id)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    params: [r.id, r.parentId ?? null, r.parentSessionKey, r.sessionKey, r.label ?? null, r.agentId, r.task, r.mode, r.status, r.depth,
      r.usage.input, r.usage.output, r.usage.cached, r.usage.costUsd ?? null, r.durationMs, r.result ?? null, r.createdAt,
      r.finishedAt ?? null, r.delivered ? 1 : 0, r.archived ? 1 : 0, r.windowId ?? null],
  };
}

function fromRow(r: Row): SubagentRecord {
  return {
    id: r.id, ...(r.parent_id ? { parentId: r.parent_id } : {}), parentSessionKey: r.parent_session_key, sessionKey: r.session_key,
    ...(r.label ? { label: r.label } : {}), agentId: r.agent_id, task: r.task, mode: r.mode === 'run' ? 'run' : 'spawn',
    status: r.status as SubagentStatus, depth: r.depth,
    usage: { input: r.input_tokens, output: r.output_tokens, cached: r.cached_tokens, ...(r.cost_usd !== null ? { costUsd: r.cost_usd } : {}) },
    durationMs: r.duration_ms, ...(r.result !== null ? { result: r.result } : {}), createdAt: r.created_at,
    ...(r.finished_at !== null ? { finishedAt: r.finished_at } : {}), delivered: r.delivered === 1, archived: r.archived === 1,
    ...(r.window_id !== null ? { windowId: r.window_id } : {}),
  };
}
