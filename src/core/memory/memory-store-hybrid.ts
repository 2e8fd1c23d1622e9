// Hybrid search: BM25's top N and the vector index's top N fused by reciprocal rank. Vectors are
// an addition, never a condition: when the provider fails (or nothing has a vector yet) the result
// is the BM25 one with a single note saying why vectors were left out.
import type { Database, SqlValue } from '../storage/database';
import type { EmbeddingProvider } from './embeddings';
import type { FtsQuery } from './fts-query';
import type { Condition } from './memory-scope-sql';
import { searchBm25, toHit, type Bm25Row } from './memory-store-search';
import type { MemoryVectors } from './memory-store-vectors';
import { reciprocalRankFusion } from './rank-fusion';
import type { SearchHit } from './types';

/** The longest query text embedded (a model's query is a sentence, not a document). */
export const MAX_QUERY_EMBED_CHARS = 2000;

export interface HybridInput {
  db: Database;
  vectors: MemoryVectors;
  provider: EmbeddingProvider;
  query: string;
  q: FtsQuery;
  where: Condition;
  limit: number;
  signal?: AbortSignal;
  fallback?: boolean;
}

function message(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').slice(0, 300);
}

const ROW_COLUMNS = 'c.id, c.heading, c.text, c.start_line AS startLine, c.end_line AS endLine, d.path, d.user_id AS userId, 0 AS score';
// CROSS JOIN keeps the ids as the outer loop: each is one rowid lookup, never a scan of the chunks.
const BY_IDS = 'FROM json_each(?) AS j CROSS JOIN memory_chunks AS c ON c.id = j.value CROSS JOIN memory_documents AS d ON d.id = c.doc_id';

async function rowsByIds(db: Database, ids: number[], where: Condition): Promise<Map<number, Bm25Row>> {
  if (!ids.length) return new Map();
  const rows = await db.query<Bm25Row>(`SELECT ${ROW_COLUMNS} ${BY_IDS} WHERE ${where.sql}`, [JSON.stringify(ids), ...where.params] as SqlValue[]);
  return new Map(rows.map((r) => [r.id, r]));
}

interface Candidates {
  /** The candidates the filter allows. */
  allowed: Set<number>;
  /** Rows of the allowed ones among the first `withRows` candidates. */
  rows: Map<number, Bm25Row>;
}

/**
 * Which vector candidates the filter allows, with rows only for the first `withRows` of them. A
 * chunk that only the vector side found, below the first `limit` it ranks, can never make the fused
 * top `limit` (the `limit` chunks ranked above it all score more), and reading the text of all the
 * candidates costs about three times what reading their ids does. Rows the fusion still lacks (when
 * the filter dropped some of the first candidates) are read afterwards.
 */
async function filterCandidates(db: Database, ids: number[], where: Condition, withRows: number): Promise<Candidates> {
  if (!ids.length) return { allowed: new Set(), rows: new Map() };
  const found = await db.query<Bm25Row & { withRow: number }>(
    `SELECT c.id, j.key < ? AS withRow, iif(j.key < ?, c.heading, NULL) AS heading, iif(j.key < ?, c.text, NULL) AS text,
            c.start_line AS startLine, c.end_line AS endLine, d.path, d.user_id AS userId, 0 AS score
     ${BY_IDS} WHERE ${where.sql}`,
    [withRows, withRows, withRows, JSON.stringify(ids), ...where.params] as SqlValue[]);
  return { allowed: new Set(found.map((r) => r.id)), rows: new Map(found.filter((r) => r.withRow).map((r) => [r.id, r])) };
}

/**
 * The `pool` nearest chunks the filter allows, from `candidates` (the index's `wide` nearest,
 * unfiltered) and the ids among them the filter allows: usually nearly every chunk is allowed (one
 * agent, one user), so asking the index for a few times more than needed is enough. Only when too
 * few pass is the filter's whole document list loaded and applied inside the scan.
 */
async function nearestAllowed(i: HybridInput, qv: Float32Array, pool: number, wide: number, candidates: { id: number; score: number }[], allowed: ReadonlySet<number>): Promise<{ id: number; score: number }[]> {
  const passed = candidates.filter((c) => allowed.has(c.id));
  if (passed.length >= pool || candidates.length < wide) return passed.slice(0, pool);
  const docs = await i.db.query<{ id: number }>(`SELECT d.id FROM memory_documents AS d WHERE ${i.where.sql}`, i.where.params);
  return i.vectors.search(i.provider, qv, pool, new Set(docs.map((r) => r.id)));
}

export async function hybridSearch(i: HybridInput): Promise<{ hits: SearchHit[]; mode: 'bm25' | 'hybrid'; note?: string }> {
  const pool = Math.max(i.limit * 3, 30);
  const wide = pool * 4;
  // Chunks holding every term only: the vectors bring the looser matches that the any-term
  // fallback would (which costs several times the AND query). Keyword-only answers still fall back.
  // The query goes to the storage worker first, so it runs while this thread embeds the query and
  // scans the vectors; the candidates' rows are asked for right behind it, in the same queue.
  const bmRows = searchBm25(i.db, i.q, i.where, pool, i.signal, false).then((r) => r.rows);
  bmRows.catch(() => undefined); // awaited on every path below; this only keeps an early return from leaving it unhandled
  const keywordOnly = async (note: string) => {
    await bmRows; // its failure is the search's failure, as when it ran first
    const rows = (await searchBm25(i.db, i.q, i.where, i.limit, i.signal, i.fallback ?? true)).rows;
    return { hits: rows.map((r, n) => toHit(r, i.q.terms, { bm25: { rank: n + 1, score: r.score } })), mode: 'bm25' as const, note };
  };
  let qv: Float32Array;
  let candidates: { id: number; score: number }[];
  let candidateRows: Promise<Candidates>;
  try {
    const text = i.query.trim().slice(0, MAX_QUERY_EMBED_CHARS);
    if (!text) return await keywordOnly('The query is empty.');
    if (!(await i.vectors.size(i.provider.id))) {
      return await keywordOnly(`Vector search was skipped: no memory has vectors from ${i.provider.id} yet (they are computed after each write; reindexing memory computes them for older documents). These are keyword (BM25) results.`);
    }
    qv = await i.vectors.queryVector(i.provider, text, i.signal);
    candidates = await i.vectors.search(i.provider, qv, wide);
    candidateRows = filterCandidates(i.db, candidates.map((c) => c.id), i.where, i.limit);
    candidateRows.catch(() => undefined); // awaited below
  } catch (e) {
    if (i.signal?.aborted) throw e;
    return keywordOnly(`Vector search was skipped (${message(e)}); these are keyword (BM25) results only.`);
  }
  const bm = await bmRows;
  const known = new Map(bm.map((r) => [r.id, r]));
  let vec: { id: number; score: number }[];
  let filtered: Candidates;
  try {
    filtered = await candidateRows;
    vec = await nearestAllowed(i, qv, pool, wide, candidates, filtered.allowed);
  } catch (e) {
    if (i.signal?.aborted) throw e;
    return keywordOnly(`Vector search was skipped (${message(e)}); these are keyword (BM25) results only.`);
  }
  const fused = reciprocalRankFusion([
    { source: 'bm25', hits: bm.map((r) => ({ id: r.id, score: r.score })) },
    { source: 'vector', hits: vec },
  ]).slice(0, i.limit);
  const fetched = await rowsByIds(i.db, fused.filter((f) => !known.has(f.id) && !filtered.rows.has(f.id)).map((f) => f.id), i.where);
  const hits: SearchHit[] = [];
  for (const f of fused) {
    const row = known.get(f.id) ?? filtered.rows.get(f.id) ?? fetched.get(f.id);
    // A chunk deleted since the vector index last looked is simply left out.
    if (!row) continue;
    const v = f.ranks.vector;
    hits.push(toHit(row, i.q.terms, {
      ...(f.ranks.bm25 ? { bm25: f.ranks.bm25 } : {}),
      ...(v ? { vector: { rank: v.rank, similarity: v.score } } : {}),
    }, f.score));
  }
  return { hits, mode: 'hybrid' };
}
