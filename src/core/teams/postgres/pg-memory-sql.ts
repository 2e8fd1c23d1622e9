// SQL pieces of the team memory on the server: numbered parameters, the conditions that pick the
// documents a scope sees (one team, one agent, the user's level shadowing the global one, as in the
// workspace database), and the full-text vectors and queries. Words are cut and folded by Pincer
// (fts-query.ts's wordsOf and foldWord, as the workspace index folds them) and handed to the server
// as lexemes, never parsed by it: a word matches exactly where it would in the workspace.
import { wordsOf, type FtsQuery } from '../../memory/fts-query';
import { pathFilter, type Level } from '../../memory/memory-scope-sql';
import type { Scope } from '../../memory/types';

/** Parameters gathered while a statement is written: `p(v)` adds one and returns its $n. */
export class Params {
  readonly values: unknown[] = [];
  p(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** Documents of `scope` at `level` in team `teamId` (table alias `d`). With userId '' every level is the global one. */
export function levelSql(s: Params, teamId: string, scope: Scope, level: Level): string {
  const own = `d.team_id = ${s.p(teamId)} AND d.agent_id = ${s.p(scope.agentId)}`;
  if (scope.userId === '' || level === 'agent') return `${own} AND d.user_id = ''`;
  const user = s.p(scope.userId);
  if (level === 'user') return `${own} AND d.user_id = ${user}`;
  return `${own} AND (d.user_id = ${user} OR (d.user_id = '' AND NOT EXISTS (
    SELECT 1 FROM memory_documents AS mine WHERE mine.team_id = d.team_id AND mine.agent_id = d.agent_id AND mine.user_id = ${user} AND mine.path = d.path)))`;
}

/** A condition on `d` whose parameters are numbered in the statement it goes into. */
export type Where = (s: Params) => string;

/**
 * The documents a search may see: the scope's level, and the path filter (a glob is matched here
 * against the paths at that level, once, before the statements that use it are written).
 */
export async function whereSql(
  teamId: string, scope: Scope, level: Level, filter: string | undefined, query: (sql: string, params: unknown[]) => Promise<{ id: number; path: string }[]>,
): Promise<Where> {
  const at: Where = (s) => levelSql(s, teamId, scope, level);
  const f = pathFilter(filter);
  if (!f) return at;
  if ('folder' in f) return (s) => `${at(s)} AND (d.path = ${s.p(f.folder)} OR starts_with(d.path, ${s.p(`${f.folder}/`)}))`;
  const s0 = new Params();
  const ids = (await query(`SELECT d.id, d.path FROM memory_documents AS d WHERE ${at(s0)}`, s0.values)).filter((r) => f.matches(r.path)).map((r) => r.id);
  return (s) => `${at(s)} AND d.id = ANY(${s.p(ids)}::bigint[])`;
}

/** PostgreSQL keeps at most this many positions per word, and none above this one. */
const MAX_POSITIONS = 256;
const MAX_POSITION = 16383;
/** Longer "words" are never searched for (fts-query.ts drops them from queries too). */
const MAX_WORD_CHARS = 128;

/**
 * A chunk's tsvector literal: heading words weighted A, text words B (ranked twice a text word, as
 * the workspace's BM25 weighs headings), each with its positions for cover-density ranking. Words
 * hold only letters, digits and marks, so they need no escaping inside the quotes.
 */
export function tsvectorOf(heading: string, text: string): string {
  const words = new Map<string, string[]>();
  let at = 0;
  const add = (s: string, weight: 'A' | 'B') => {
    for (const w of wordsOf(s)) {
      at = Math.min(at + 1, MAX_POSITION);
      if (w.word.length > MAX_WORD_CHARS) continue;
      let list = words.get(w.word);
      if (!list) words.set(w.word, (list = []));
      if (list.length < MAX_POSITIONS) list.push(`${at}${weight}`);
    }
  };
  add(heading, 'A');
  add(text, 'B');
  return [...words].map(([w, pos]) => `'${w}':${pos.join(',')}`).join(' ');
}

/** The query's words (already folded) as tsquery literals: all of them, and any of them. */
export function tsqueries(q: FtsQuery): { and: string; or: string } {
  const quoted = q.terms.map((t) => `'${t}'`);
  return { and: quoted.join(' & '), or: quoted.join(' | ') };
}

/** Ranking weights for D, C, B, A: a heading word (A) counts twice a text word (B). */
export const RANK_WEIGHTS = '{0.1, 0.2, 0.5, 1.0}';
