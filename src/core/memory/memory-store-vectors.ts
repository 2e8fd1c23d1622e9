// The vector side of memory search: chunk embeddings stored in the database (Float32 blobs tagged
// with the provider's id), one in-memory VectorIndex per embedding model loaded on first use, a
// small cache of query vectors, and a queue that embeds what a write changed in the background.
//
// Decisions:
// - Only chunks without a vector from the current model are embedded (a rewrite keeps the vectors
//   of unchanged chunks, since it keeps their rows).
// - A vector is stored only if the chunk still has the hash it was embedded from.
// - The loaded index follows this window's writes; another window's are noticed by comparing the
//   count and highest id of the model's vectors with the loaded ones, and reloading.
// - Background failures never surface as errors of the write that caused them: they are kept in
//   lastError, and the next search says vectors were skipped if the provider fails then too.
import type { Database } from '../storage/database';
import type { EmbeddingProvider } from './embeddings';
import { embeddingStatements, vectorFromBlob } from './memory-store-write';
import { VectorIndex } from './vector-index';

/** Texts per embed call and per transaction. */
const EMBED_BATCH = 64;
const LOAD_PAGE = 2000;
const QUERY_CACHE = 64;
/** What an embedding is computed from: the heading path tells the model what the text is about. */
export const embeddingText = (heading: string, text: string): string => (heading ? `${heading}\n\n${text}` : text);

interface Loaded {
  index: VectorIndex | undefined;
  docOf: Map<number, number>;
  /** Sum of the ids held: with the count, tells whether the stored vectors changed under us. */
  idSum: number;
  /** When another window's changes were last looked for (performance.now()). */
  checkedAt: number;
}

/**
 * How often a search looks for vectors another window stored (a count over every vector of the
 * model: milliseconds at 50,000 chunks). This window's own writes update the index at once.
 */
const RECHECK_MS = 2000;

/**
 * What every store's vectors share: background embedding jobs, run in order, whose failure is kept
 * for whoever asks (never thrown at the write that caused them), and a small cache of query vectors
 * (a repeated query is embedded once). Where vectors are kept and searched is the subclass's.
 */
export abstract class EmbeddingJobs {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly queryCache = new Map<string, Float32Array>();
  lastError: string | undefined;

  /** Embeds the chunks (of `docIds`, or all) with no vector from this provider; returns how many. */
  abstract embedMissing(provider: EmbeddingProvider, docIds?: number[], signal?: AbortSignal): Promise<number>;

  /** Embeds, in the background and in order, what the given documents lack. */
  schedule(provider: EmbeddingProvider, docIds: number[]): void {
    if (!docIds.length) return;
    this.queue = this.queue.then(() => this.embedMissing(provider, docIds)).then(
      () => (this.lastError = undefined),
      (e: unknown) => (this.lastError = e instanceof Error ? e.message : String(e)),
    );
  }

  /** Resolves when every scheduled embedding job has finished (or failed). */
  async settled(): Promise<void> {
    for (;;) {
      const q = this.queue;
      await q;
      if (q === this.queue) return;
    }
  }

  /** The query's vector, from the cache when the same text was embedded recently. */
  async queryVector(provider: EmbeddingProvider, query: string, signal?: AbortSignal): Promise<Float32Array> {
    const key = `${provider.id}\u0000${query}`;
    const hit = this.queryCache.get(key);
    if (hit) {
      this.queryCache.delete(key);
      this.queryCache.set(key, hit);
      return hit;
    }
    const [v] = await provider.embed([query], signal);
    if (!v) throw new Error('the embeddings provider returned no vector for the query');
    this.queryCache.set(key, v);
    if (this.queryCache.size > QUERY_CACHE) this.queryCache.delete(this.queryCache.keys().next().value!);
    return v;
  }
}

export class MemoryVectors extends EmbeddingJobs {
  private readonly loaded = new Map<string, Promise<Loaded>>();

  constructor(private readonly db: Database) {
    super();
  }

  /** Embeds the chunks (of `docIds`, or all) with no vector from this provider; returns how many. */
  async embedMissing(provider: EmbeddingProvider, docIds?: number[], signal?: AbortSignal): Promise<number> {
    let after = 0;
    let done = 0;
    // With documents named, their chunks are found through the doc_id index, not a scan of all chunks.
    const which = docIds ? 'doc_id IN (SELECT value FROM json_each(?)) AND' : '';
    const docParams = docIds ? [JSON.stringify(docIds)] : [];
    for (;;) {
      signal?.throwIfAborted();
      const rows = await this.db.query<{ id: number; docId: number; hash: string; heading: string; text: string }>(
        `SELECT id, doc_id AS docId, hash, heading, text FROM memory_chunks
         WHERE ${which} id > ? AND embedding_model IS NOT ? ORDER BY id LIMIT ${EMBED_BATCH}`,
        [...docParams, after, provider.id],
      );
      if (!rows.length) return done;
      after = rows[rows.length - 1].id;
      const vectors = await provider.embed(rows.map((r) => embeddingText(r.heading, r.text)), signal);
      if (vectors.length !== rows.length) throw new Error(`the embeddings provider returned ${vectors.length} vectors for ${rows.length} texts`);
      await this.db.transaction(embeddingStatements(provider.id, rows.map((r, i) => ({ id: r.id, hash: r.hash, vector: vectors[i] }))));
      const idx = await this.loaded.get(provider.id);
      if (idx) rows.forEach((r, i) => this.put(idx, r.id, r.docId, vectors[i]));
      done += rows.length;
    }
  }

  /** Drops chunks that no longer exist from every loaded index. */
  forget(chunkIds: Iterable<number>): void {
    const ids = [...chunkIds];
    if (!ids.length) return;
    for (const p of this.loaded.values()) {
      void p.then((l) => {
        for (const id of ids) {
          if (!l.docOf.delete(id)) continue;
          l.index?.remove(id);
          l.idSum -= id;
        }
      }, () => undefined);
    }
  }

  /**
   * The k nearest chunks, of the allowed documents when a set is given (else of every document: the
   * caller filters); [] when no chunk has a vector from this model yet.
   */
  async search(provider: EmbeddingProvider, q: Float32Array, k: number, allowedDocs?: ReadonlySet<number>): Promise<{ id: number; score: number }[]> {
    const l = await this.index(provider.id);
    if (!l.index || l.index.dims !== q.length) {
      if (l.index) throw new Error(`the query vector has ${q.length} dimensions but the stored ones have ${l.index.dims}; reindex memory`);
      return [];
    }
    return allowedDocs ? l.index.search(q, k, (id) => allowedDocs.has(l.docOf.get(id) ?? -1)) : l.index.search(q, k);
  }

  /** How many chunks have a vector from this model (loads the index). */
  async size(model: string): Promise<number> {
    return (await this.index(model)).index?.size ?? 0;
  }

  private async index(model: string): Promise<Loaded> {
    let p = this.loaded.get(model);
    if (p) {
      const l = await p;
      if (performance.now() - l.checkedAt < RECHECK_MS) return l;
      l.checkedAt = performance.now();
      const [now] = await this.db.query<{ n: number; s: number }>(
        'SELECT count(*) AS n, total(id) AS s FROM memory_chunks WHERE embedding_model = ?', [model]);
      if (now.n === l.docOf.size && now.s === l.idSum) return l;
      // Another window changed the vectors of this model: start over.
      if (this.loaded.get(model) === p) this.loaded.delete(model);
    }
    p = this.loaded.get(model) ?? this.load(model);
    this.loaded.set(model, p);
    p.catch(() => this.loaded.get(model) === p && this.loaded.delete(model));
    return p;
  }

  private async load(model: string): Promise<Loaded> {
    const l: Loaded = { index: undefined, docOf: new Map(), idSum: 0, checkedAt: performance.now() };
    for (let after = 0; ;) {
      // Pages keep each message from the worker (and each block of this thread) small.
      const rows = await this.db.query<{ id: number; docId: number; embedding: Uint8Array }>(
        `SELECT id, doc_id AS docId, embedding FROM memory_chunks WHERE embedding_model = ? AND id > ? ORDER BY id LIMIT ${LOAD_PAGE}`, [model, after]);
      for (const r of rows) this.put(l, r.id, r.docId, vectorFromBlob(r.embedding));
      if (rows.length < LOAD_PAGE) return l;
      after = rows[rows.length - 1].id;
    }
  }

  private put(l: Loaded, id: number, docId: number, v: Float32Array): void {
    l.index ??= new VectorIndex(v.length);
    if (v.length !== l.index.dims) return;
    l.index.upsert(id, v);
    if (!l.docOf.has(id)) l.idSum += id;
    l.docOf.set(id, docId);
  }
}
