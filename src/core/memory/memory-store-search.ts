// Keyword search over the memory index: an all-terms (AND) FTS4 query ranked by BM25 inside the
// storage worker, an any-term (OR) fallback when AND finds too little, and the hit's excerpt and
// matched terms computed here for the few rows that come back.
import type { Database, SqlValue } from '../storage/database';
import { MATCHED_STEP } from './bm25';
import { type FtsQuery, wordsOf } from './fts-query';
import type { Condition } from './memory-scope-sql';
import type { SearchHit } from './types';

/** A heading match counts twice a body match: headings say what a section is about. */
export const HEADING_WEIGHT = 2;
export const TEXT_WEIGHT = 1;
export const ABSTRACT_CHARS = 240;

export interface Bm25Row {
  id: number;
  heading: string;
  text: string;
  startLine: number;
  endLine: number;
  path: string;
  userId: string;
  score: number;
}

const COLUMNS = `c.id, c.heading, c.text, c.start_line AS startLine, c.end_line AS endLine, d.path, d.user_id AS userId`;

/**
 * CROSS JOIN fixes the join order: the full-text match drives, chunks and documents are looked up
 * by rowid. Left to itself the planner started from the (few) documents and ran the MATCH once per
 * chunk: 25 s instead of 1 ms on 50k chunks.
 */
async function runMatch(db: Database, match: string, where: Condition, limit: number, orderByMatched: boolean): Promise<Bm25Row[]> {
  const rank = orderByMatched ? 'bm25_matched' : 'bm25';
  const sql = `SELECT ${COLUMNS}, m.score
    FROM (SELECT docid, ${rank}(matchinfo(memory_fts, 'pcnalx'), ?, ?) AS score FROM memory_fts WHERE memory_fts MATCH ?) AS m
    CROSS JOIN memory_chunks AS c ON c.id = m.docid
    CROSS JOIN memory_documents AS d ON d.id = c.doc_id
    WHERE ${where.sql}
    ORDER BY m.score DESC, c.id
    LIMIT ?`;
  const params: SqlValue[] = [HEADING_WEIGHT, TEXT_WEIGHT, match, ...where.params, limit];
  const rows = await db.query<Bm25Row>(sql, params);
  // bm25_matched puts the number of matched terms in front of the score: take it off again.
  if (orderByMatched) for (const r of rows) r.score %= MATCHED_STEP;
  return rows;
}

/**
 * The best `limit` chunks holding every term; when fewer than `fallbackBelow` (default `limit`) do,
 * the best holding any term, rows holding more of the terms first (so the all-terms rows stay on
 * top). The OR query is the expensive one (every posting of every term).
 */
export async function searchBm25(db: Database, q: FtsQuery, where: Condition, limit: number, signal?: AbortSignal, fallback = true, fallbackBelow = limit): Promise<{ rows: Bm25Row[]; usedOr: boolean }> {
  if (!q.terms.length || limit <= 0) return { rows: [], usedOr: false };
  signal?.throwIfAborted();
  const rows = await runMatch(db, q.and, where, limit, false);
  if (rows.length >= fallbackBelow || q.terms.length < 2 || !fallback) return { rows, usedOr: false };
  signal?.throwIfAborted();
  return { rows: await runMatch(db, q.or, where, limit, true), usedOr: true };
}

/** The query terms found in the chunk (heading or text), in the query's order. */
export function matchedTerms(heading: string, text: string, terms: readonly string[]): string[] {
  const wanted = new Set(terms);
  const found = new Set<string>();
  for (const s of [heading, text]) {
    for (const w of wordsOf(s)) {
      if (wanted.has(w.word)) found.add(w.word);
      if (found.size === wanted.size) break;
    }
  }
  return terms.filter((t) => found.has(t));
}

/** One line of at most `max` characters around the first place a term occurs in the text. */
export function abstractOf(chunkText: string, terms: readonly string[], max = ABSTRACT_CHARS): string {
  // Heading lines are shown beside the hit already (its heading path): the excerpt is the body.
  const body = chunkText.replace(/^ {0,3}#{1,6}(?:[ \t].*)?$/gm, '').trim();
  const text = body || chunkText;
  const wanted = new Set(terms);
  let at = 0;
  for (const w of wordsOf(text)) {
    if (wanted.has(w.word)) {
      at = w.index;
      break;
    }
  }
  // Some context before the term, starting on a word boundary.
  let start = Math.max(0, at - Math.floor(max / 4));
  if (start > 0) {
    const space = text.slice(start, at).search(/\s/);
    start = space >= 0 ? start + space + 1 : at;
  }
  const window = text.slice(start, start + max * 2).replace(/\s+/g, ' ').trim();
  const head = start > 0 ? '…' : '';
  if (window.length + head.length <= max && start + max * 2 >= text.length) return head + window;
  let cut = window.lastIndexOf(' ', max - head.length - 1);
  if (cut < (max - head.length) / 2) cut = max - head.length - 1;
  return `${head}${window.slice(0, cut).trimEnd()}…`;
}

/** A search hit from a row: excerpt and matched terms are computed for the rows returned only. */
export function toHit(r: Bm25Row, terms: readonly string[], why: Omit<SearchHit['why'], 'terms'>, score = r.score): SearchHit {
  return {
    id: r.id, path: r.path, userId: r.userId, heading: r.heading, startLine: r.startLine, endLine: r.endLine,
    abstract: abstractOf(r.text, terms), score, why: { terms: matchedTerms(r.heading, r.text, terms), ...why },
  };
}
