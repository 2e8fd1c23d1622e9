// Search over a team's memory on the server: ranked full-text (ts_rank_cd, cover density, heading
// words weighted twice) with all the words first and any of them as the fallback, as in the
// workspace; with an embeddings provider and pgvector, the nearest chunks by cosine too, the two
// lists fused by the SAME reciprocal-rank code as the workspace's hybrid search (rank-fusion.ts),
// so the results of both stores are comparable. Vectors are an addition, never a condition: a
// provider that fails, no vectors yet, or a server without pgvector give the keyword results with
// one note saying why.
import type { EmbeddingProvider } from '../../memory/embeddings';
import { buildFtsQuery, type FtsQuery } from '../../memory/fts-query';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../memory/memory-store';
import { MAX_QUERY_EMBED_CHARS } from '../../memory/memory-store-hybrid';
import { toHit, type Bm25Row } from '../../memory/memory-store-search';
import type { SearchOptions, SearchResult } from '../../memory/memory-store-types';
import { reciprocalRankFusion } from '../../memory/rank-fusion';
import type { Scope, SearchHit } from '../../memory/types';
import type { PgConnection } from './pg-connection';
import { Params, RANK_WEIGHTS, tsqueries, whereSql, type Where } from './pg-memory-sql';
import { vectorLiteral, type PgMemoryVectors } from './pg-memory-vectors';

export interface PgSearchInput {
  db: PgConnection;
  teamId: string;
  scope: Scope;
  query: string;
  opts: SearchOptions;
  provider?: EmbeddingProvider;
  /** undefined: the server has no pgvector (no vectors are stored). */
  vectors?: PgMemoryVectors;
}

const COLUMNS = 'c.id, c.heading, c.text, c.start_line AS "startLine", c.end_line AS "endLine", d.path, d.user_id AS "userId"';
const FROM = 'memory_chunks AS c JOIN memory_documents AS d ON d.id = c.doc_id';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').slice(0, 300);

/** The best `limit` chunks matching `tsquery`; with `terms`, chunks holding more of them first. */
async function match(db: PgConnection, tsquery: string, where: Where, limit: number, terms?: string[]): Promise<Bm25Row[]> {
  const s = new Params();
  const q = s.p(tsquery);
  const score = `ts_rank_cd('${RANK_WEIGHTS}', c.search, ${q}::tsquery, 1)`;
  const matched = terms ? `(SELECT count(*) FROM unnest(${s.p(terms)}::text[]) AS t WHERE t = ANY(tsvector_to_array(c.search))) DESC, ` : '';
  return db.query<Bm25Row>(
    `SELECT ${COLUMNS}, ${score} AS score FROM ${FROM}
     WHERE c.search @@ ${q}::tsquery AND ${where(s)} ORDER BY ${matched}score DESC, c.id LIMIT ${s.p(limit)}`, s.values);
}

/** All the words; when they find fewer than `limit` chunks (and fallback is on), any of them. */
async function keyword(db: PgConnection, q: FtsQuery, where: Where, limit: number, fallback: boolean, signal?: AbortSignal): Promise<Bm25Row[]> {
  if (!q.terms.length || limit <= 0) return [];
  signal?.throwIfAborted();
  const { and, or } = tsqueries(q);
  const rows = await match(db, and, where, limit);
  if (rows.length >= limit || q.terms.length < 2 || !fallback) return rows;
  signal?.throwIfAborted();
  return match(db, or, where, limit, q.terms);
}

/** The `k` chunks nearest `qv` (cosine) among those the scope sees with a vector from this model. */
async function nearest(i: PgSearchInput, v: PgMemoryVectors, model: string, qv: Float32Array, where: Where, k: number): Promise<Bm25Row[]> {
  const s = new Params();
  const q = `${s.p(vectorLiteral(qv))}::${v.type}`;
  return i.db.query<Bm25Row>(
    `SELECT ${COLUMNS}, 1 - (c.embedding ${v.distance} ${q}) AS score FROM ${FROM}
     WHERE c.embedding_model = ${s.p(model)} AND ${v.dims}(c.embedding) = ${s.p(qv.length)} AND ${where(s)}
     ORDER BY c.embedding ${v.distance} ${q}, c.id LIMIT ${s.p(k)}`, s.values);
}

export async function searchTeamMemory(i: PgSearchInput): Promise<SearchResult> {
  const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(i.opts.limit ?? DEFAULT_SEARCH_LIMIT)));
  const q = buildFtsQuery(i.query);
  const where = await whereSql(i.teamId, i.scope, i.opts.scope ?? 'all', i.opts.path, (sql, params) => i.db.query(sql, params));
  const dropped = q.dropped ? `Only the first ${q.terms.length} words were searched for (${q.dropped} more were left out).` : undefined;
  const result = (hits: SearchHit[], mode: 'bm25' | 'hybrid', note?: string): SearchResult => {
    const said = [note, dropped].filter(Boolean).join(' ');
    return { hits, mode, terms: q.terms, ...(said ? { note: said } : {}) };
  };
  const keywordOnly = async (note?: string) => {
    const rows = await keyword(i.db, q, where, limit, i.opts.fallback ?? true, i.opts.signal);
    return result(rows.map((r, n) => toHit(r, q.terms, { bm25: { rank: n + 1, score: r.score } })), 'bm25', note);
  };
  const provider = i.provider;
  if (!provider) return keywordOnly();
  const v = i.vectors;
  if (!v) return keywordOnly('Vector search is not available: the team store\'s server has no pgvector extension, so no vectors are stored there. These are keyword (full-text) results only.');
  const text = i.query.trim().slice(0, MAX_QUERY_EMBED_CHARS);
  if (!text) return keywordOnly('The query is empty.');
  const pool = Math.max(limit * 3, 30);
  let bm: Bm25Row[];
  let vec: Bm25Row[];
  try {
    if (!(await v.any(provider.id))) {
      return await keywordOnly(`Vector search was skipped: no memory has vectors from ${provider.id} yet (they are computed after each write; reindexing memory computes them for older documents). These are keyword (full-text) results.`);
    }
    const qv = await v.queryVector(provider, text, i.opts.signal);
    // Chunks holding every word only: the vectors bring the looser matches the any-word fallback would.
    [bm, vec] = await Promise.all([keyword(i.db, q, where, pool, false, i.opts.signal), nearest(i, v, provider.id, qv, where, pool)]);
  } catch (e) {
    if (i.opts.signal?.aborted) throw e;
    return keywordOnly(`Vector search was skipped (${message(e)}); these are keyword (full-text) results only.`);
  }
  const rows = new Map([...vec, ...bm].map((r) => [r.id, r]));
  const fused = reciprocalRankFusion([
    { source: 'bm25', hits: bm.map((r) => ({ id: r.id, score: r.score })) },
    { source: 'vector', hits: vec.map((r) => ({ id: r.id, score: r.score })) },
  ]).slice(0, limit);
  return result(fused.map((f) => {
    const v = f.ranks.vector;
    return toHit(rows.get(f.id)!, q.terms, {
      ...(f.ranks.bm25 ? { bm25: f.ranks.bm25 } : {}),
      ...(v ? { vector: { rank: v.rank, similarity: v.score } } : {}),
    }, f.score);
  }), 'hybrid');
}
