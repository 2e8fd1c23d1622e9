// The context-file store: one row per (agent, name) at the agent level and per (agent, user, name)
// at the user level, in the workspace database. It stores and returns exactly what it is given;
// which level a read or write goes to, fallbacks and permissions are routed-files.ts's business.
//
// A Scope with userId '' addresses the agent level (as everywhere in memory/). Times come from the
// injected clock and are passed as parameters, so journal replay writes the same rows.
import { systemClock, type Clock } from '../clock';
import type { Database } from '../storage/database';
import { MemoryError, type Scope } from './types';

export interface ContextFileRow {
  agentId: string;
  /** '' for the agent level. */
  userId: string;
  name: string;
  content: string;
  /** Epoch ms of the last write. */
  updatedAt: number;
}

interface RawRow {
  name: string;
  content: string;
  updated_at: number;
}

const MAX_KEY = 256;

function checkKey(what: string, value: string, allowEmpty = false): void {
  if (typeof value !== 'string' || (!allowEmpty && value === '') || value.length > MAX_KEY || value.includes('\0')) {
    throw new MemoryError(`Invalid ${what} ${JSON.stringify(String(value).slice(0, 80))}: it must be 1-${MAX_KEY} characters without NUL.`, 'invalid');
  }
}

/** Checks a context file's keys (the name too, unless listing): every store refuses the same keys. */
export function checkContextKey(scope: Scope, name?: string): void {
  checkKey('agent id', scope.agentId);
  checkKey('user id', scope.userId, true);
  if (name !== undefined) checkKey('context file name', name);
}

/** What routing needs of a context-file store (the workspace's, or a team's on the shared server). */
export type ContextFiles = Pick<ContextStore, 'get' | 'put' | 'delete' | 'list'>;

export class ContextStore {
  constructor(private readonly db: Database, private readonly clock: Clock = systemClock) {}

  async get(scope: Scope, name: string): Promise<ContextFileRow | undefined> {
    this.check(scope, name);
    const rows = scope.userId
      ? await this.db.query<RawRow>('SELECT name, content, updated_at FROM user_context_files WHERE agent_id = ? AND user_id = ? AND name = ?', [scope.agentId, scope.userId, name])
      : await this.db.query<RawRow>('SELECT name, content, updated_at FROM agent_context_files WHERE agent_id = ? AND name = ?', [scope.agentId, name]);
    return rows[0] ? this.row(scope, rows[0]) : undefined;
  }

  /** Creates or replaces the file at the scope's level. */
  async put(scope: Scope, name: string, content: string): Promise<ContextFileRow> {
    this.check(scope, name);
    const now = this.clock.now();
    if (scope.userId) {
      await this.db.run(
        `INSERT INTO user_context_files (agent_id, user_id, name, content, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (agent_id, user_id, name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`,
        [scope.agentId, scope.userId, name, content, now]);
    } else {
      await this.db.run(
        `INSERT INTO agent_context_files (agent_id, name, content, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (agent_id, name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`,
        [scope.agentId, name, content, now]);
    }
    return { agentId: scope.agentId, userId: scope.userId, name, content, updatedAt: now };
  }

  /** Removes the file at the scope's level; false when there was none. */
  async delete(scope: Scope, name: string): Promise<boolean> {
    this.check(scope, name);
    const r = scope.userId
      ? await this.db.run('DELETE FROM user_context_files WHERE agent_id = ? AND user_id = ? AND name = ?', [scope.agentId, scope.userId, name])
      : await this.db.run('DELETE FROM agent_context_files WHERE agent_id = ? AND name = ?', [scope.agentId, name]);
    return r.changes > 0;
  }

  /** Every file at the scope's level, by name. */
  async list(scope: Scope): Promise<ContextFileRow[]> {
    checkContextKey(scope);
    const rows = scope.userId
      ? await this.db.query<RawRow>('SELECT name, content, updated_at FROM user_context_files WHERE agent_id = ? AND user_id = ? ORDER BY name', [scope.agentId, scope.userId])
      : await this.db.query<RawRow>('SELECT name, content, updated_at FROM agent_context_files WHERE agent_id = ? ORDER BY name', [scope.agentId]);
    return rows.map((r) => this.row(scope, r));
  }

  private check(scope: Scope, name: string): void {
    checkContextKey(scope, name);
  }

  private row(scope: Scope, r: RawRow): ContextFileRow {
    return { agentId: scope.agentId, userId: scope.userId, name: r.name, content: r.content, updatedAt: Number(r.updated_at) };
  }
}
