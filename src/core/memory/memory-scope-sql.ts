// SQL conditions that pick the documents a search or listing may see: one agent, its user's level,
// its global level, or both with the user's document shadowing the global one at the same path.
// Done in SQL so that LIMIT applies after the filtering, never before it.
import { minimatch } from 'minimatch';
import type { Database, SqlValue } from '../storage/database';
import type { Scope } from './types';

export type Level = 'user' | 'agent' | 'all';

export interface Condition {
  sql: string;
  params: SqlValue[];
}

/** Documents of `scope` at `level` (table alias `d`). With userId '' every level is the global one. */
export function levelCondition(scope: Scope, level: Level): Condition {
  if (scope.userId === '' || level === 'agent') return { sql: "d.agent_id = ? AND d.user_id = ''", params: [scope.agentId] };
  if (level === 'user') return { sql: 'd.agent_id = ? AND d.user_id = ?', params: [scope.agentId, scope.userId] };
  return {
    sql: `d.agent_id = ? AND (d.user_id = ? OR (d.user_id = '' AND NOT EXISTS (
            SELECT 1 FROM memory_documents AS u WHERE u.agent_id = d.agent_id AND u.user_id = ? AND u.path = d.path)))`,
    params: [scope.agentId, scope.userId, scope.userId],
  };
}

const GLOB_CHARS = /[*?[\]{}!]/;

/** 'memory/notes', './memory/notes/', 'memory\notes' → 'memory/notes'. */
export function normalizeFolder(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
}

/** A search's path filter: a folder (or file) path, or a test of each document's path against a glob. */
export type PathFilter = { folder: string } | { matches(path: string): boolean };

/**
 * What `filter` asks for: a glob (minimatch; a pattern or name without '/' matches file names
 * anywhere) or a file or folder path. Every store applies it the same way: a folder in SQL, a
 * glob in JS against the paths at the level searched (there are few documents).
 */
export function pathFilter(filter: string | undefined): PathFilter | undefined {
  if (filter === undefined || filter.trim() === '') return undefined;
  const f = normalizeFolder(filter.trim());
  // A bare file name ('x.md') is a pattern for that name in any folder; 'memory' is the folder.
  if (!GLOB_CHARS.test(f) && (f.includes('/') || f === 'memory')) return { folder: f };
  return { matches: (path) => minimatch(path, f, { dot: true, matchBase: !f.includes('/') }) };
}

/** Documents whose path matches `filter` (see pathFilter); chunks never leave the worker for this. */
export async function pathCondition(db: Database, level: Condition, filter: string | undefined): Promise<Condition | undefined> {
  const f = pathFilter(filter);
  if (!f) return undefined;
  if ('folder' in f) return { sql: '(d.path = ? OR substr(d.path, 1, ?) = ?)', params: [f.folder, f.folder.length + 1, `${f.folder}/`] };
  const rows = await db.query<{ id: number; path: string }>(`SELECT d.id, d.path FROM memory_documents AS d WHERE ${level.sql}`, level.params);
  const ids = rows.filter((r) => f.matches(r.path)).map((r) => r.id);
  return { sql: 'd.id IN (SELECT value FROM json_each(?))', params: [JSON.stringify(ids)] };
}

/** Both conditions joined with AND (the second may be absent). */
export function and(a: Condition, b?: Condition): Condition {
  return b ? { sql: `${a.sql} AND ${b.sql}`, params: [...a.params, ...b.params] } : a;
}
