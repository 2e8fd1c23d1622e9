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
const MAX_QUERY_EMBED_CHARS = 2000;

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

async function rowsByIds(db: Database, ids: number[], where: Condition): Promise<Map<number, Bm25Row>> {
  if (!ids.length) return new Map();
  const rows = await db.query<Bm25Row>(
    `SELECT c.id, c.heading, c.text, c.start_line AS startLine, c.end_line AS endLine, d.path, d.user_id AS userId, 0 AS score
     FROM memory_chunks AS c JOIN memory_documents AS d ON d.id = c.doc_id
     WHERE c.id IN (SELECT value FROM json_each(?)) AND ${where.sql}`,
    [JSON.stringify(ids), ...where.params] as SqlValue[]);
  return new Map(rows.map((r) => [r.id, r]));
}

export async function hybridSearch(i: HybridInput): Promise<{ hits: SearchHit[]; mode: 'bm25' | 'hybrid'; note?: string }> {
  const pool = Math.max(i.limit * 3, 30);
  const bm = (await searchBm25(i.db, i.q, i.where, pool, i.signal, i.fallback ?? true)).rows;
  const keywordOnly = (note: string) => ({
    hits: bm.slice(0, i.limit).map((r, n) => toHit(r, i.q.terms, { bm25: { rank: n + 1, score: r.score } })),
    mode: 'bm25' as const,
    note,
  });
  let vec: { id: number; score: number }[];
  try {
    const text = i.query.trim().slice(0, MAX_QUERY_EMBED_CHARS);
    if (!text) return keywordOnly('The query is empty.');
    if (!(await i.vectors.size(i.provider.id))) {
      return keywordOnly(`Vector search was skipped: no memory has vectors from ${i.provider.id} yet (they are computed after each write; reindexing memory computes them for older documents). These are keyword (BM25) results.`);
    }
    const qv = await i.vectors.queryVector(i.provider, text, i.signal);
    const allowed = await i.db.query<{ id: number }>(`SELECT d.id FROM memory_documents AS d WHERE ${i.where.sql}`, i.where.params);
    vec = await i.vectors.search(i.provider, qv, pool, new Set(allowed.map((r) => r.id)));
  } catch (e) {
    if (i.signal?.aborted) throw e;
    return keywordOnly(`Vector search was skipped (${message(e)}); these are keyword (BM25) results only.`);
  }
  const fused = reciprocalRankFusion([
    { source: 'bm25', hits: bm.map((r) => ({ id: r.id, score: r.score })) },
    { source: 'vector', hits: vec },
  ]).slice(0, i.limit);
  const known = new Map(bm.map((r) => [r.id, r]));
  const fetched = await rowsByIds(i.db, fused.filter((f) => !known.has(f.id)).map((f) => f.id), i.where);
  const hits: SearchHit[] = [];
  for (const f of fused) {
    const row = known.get(f.id) ?? fetched.get(f.id);
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
