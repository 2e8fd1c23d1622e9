// The memory store: MEMORY.md, memory.md and memory/** documents in the workspace database, per
// user and per agent ('' = the agent's global memory), chunked as they are written. A write is one
// transaction (document and chunks); the full-text index follows off the write path, in the
// background and at the latest when a search begins, so a search right after a write finds the new
// text (memory-fts-index.ts); vectors, when an embeddings provider is configured, follow in the background.
import { Emitter, type Listener } from '../events';
import type { Database } from '../storage/database';
import { buildFtsQuery } from './fts-query';
import { FtsIndexer } from './memory-fts-index';
import { checkMemoryContent, checkMemoryPath } from './memory-paths';
import { and, levelCondition, pathCondition } from './memory-scope-sql';
import { prepareDocument, readChunkIds, type ChunkIds, type PreparedDocument } from './memory-store-prepare';
import { reindexDocuments } from './memory-store-reindex';
import { hybridSearch } from './memory-store-hybrid';
import { searchBm25, toHit } from './memory-store-search';
import type {
  ListOptions, MemoryChange, MemoryChunkRecord, MemoryStoreOptions, ReindexOptions, ReindexResult, SearchOptions, SearchResult,
  StoredChunk, WriteResult,
} from './memory-store-types';
import { MemoryVectors } from './memory-store-vectors';
import { CAS_FAILED, ChunkTransaction } from './memory-store-write';
import { MemoryError, type MemoryDocument, type MemoryDocumentInfo, type Scope } from './types';

export * from './memory-store-types';

/** Content (in characters) per transaction of writeMany: bounds how long one holds the worker. */
const BATCH_CHARS = 1024 * 1024;
/** Chunking a large import yields to the event loop this often. */
const YIELD_AFTER_MS = 8;
export const DEFAULT_SEARCH_LIMIT = 8;
export const MAX_SEARCH_LIMIT = 200;
/** A write whose documents keep changing under it (another window) gives up after this many plans. */
const MAX_WRITE_ATTEMPTS = 20;

const DOC_COLUMNS = 'id, agent_id AS agentId, user_id AS userId, path, content, updated_at AS updatedAt';

export function checkScope(scope: Scope): void {
  if (!scope || typeof scope.agentId !== 'string' || !scope.agentId || typeof scope.userId !== 'string') {
    throw new MemoryError('A memory scope needs an agent id and a user id (\'\' for the agent\'s global memory).', 'invalid');
  }
}

/** What callers use of a memory store: the workspace's (below) and a team's on the shared server have it alike. */
export type MemoryApi = Pick<MemoryStore, 'read' | 'readExact' | 'write' | 'writeMany' | 'delete' | 'list' | 'chunk' | 'search' | 'onDidChange'
  | 'embeddingsEnabled' | 'ftsSettled' | 'reindex' | 'embeddingsSettled' | 'lastEmbeddingError'>;

export class MemoryStore {
  private readonly changes = new Emitter<MemoryChange>();
  private readonly vectors: MemoryVectors;
  private readonly fts: FtsIndexer;
  private readonly now: () => number;
  /** The tail of this store's queue of writes. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(private readonly db: Database, private readonly options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.vectors = new MemoryVectors(db);
    this.fts = new FtsIndexer(db);
    if (options.onDidChange) this.changes.on(options.onDidChange);
  }

  /** Fires after every write that changed a document, and after every deletion. */
  onDidChange(listener: Listener<MemoryChange>): { dispose(): void } {
    return this.changes.on(listener);
  }

  /** Whether searches can use vectors right now (an embeddings provider is configured). */
  get embeddingsEnabled(): boolean {
    return !!this.options.embeddings?.();
  }

  /** The document as this user sees it: their own, else the agent's global one. */
  async read(scope: Scope, path: string): Promise<MemoryDocument | undefined> {
    checkScope(scope);
    checkMemoryPath(path);
    const [row] = await this.db.query<MemoryDocument>(
      `SELECT ${DOC_COLUMNS} FROM memory_documents WHERE agent_id = ? AND path = ? AND user_id IN (?, '') ORDER BY user_id = '' LIMIT 1`,
      [scope.agentId, path, scope.userId]);
    return row;
  }

  /** The document at exactly this level (scope.userId '' = the global one), without fallback. */
  async readExact(scope: Scope, path: string): Promise<MemoryDocument | undefined> {
    checkScope(scope);
    checkMemoryPath(path);
    const [row] = await this.db.query<MemoryDocument>(
      `SELECT ${DOC_COLUMNS} FROM memory_documents WHERE agent_id = ? AND user_id = ? AND path = ?`, [scope.agentId, scope.userId, path]);
    return row;
  }

  async write(scope: Scope, path: string, content: string): Promise<WriteResult> {
    const [result] = await this.writeMany(scope, [{ path, content }]);
    return result;
  }

  /**
   * Writes several documents at one level. Each document is atomic (document, chunks and index rows
   * together); documents are grouped into transactions of about 1 MB. Every path and size is checked
   * before anything is written. A path given twice keeps its last content.
   */
  async writeMany(scope: Scope, docs: readonly { path: string; content: string }[]): Promise<WriteResult[]> {
    checkScope(scope);
    for (const d of docs) {
      checkMemoryPath(d.path);
      checkMemoryContent(d.path, d.content);
    }
    return this.fts.duringWrite(() => this.writeChecked(scope, docs));
  }

  private async writeChecked(scope: Scope, docs: readonly { path: string; content: string }[]): Promise<WriteResult[]> {
    const last = new Map(docs.map((d, i) => [d.path, i]));
    const results = new Map<string, WriteResult>();
    // One batch is written while the next is chunked here: the two threads work side by side.
    let inFlight: Promise<void> = Promise.resolve();
    const flush = async (batch: PreparedDocument[]): Promise<void> => {
      await inFlight;
      const p = this.writeBatch(scope, batch).then((rs) => {
        for (const r of rs) results.set(r.document.path, r);
      });
      p.catch(() => undefined); // awaited below; this only keeps a failure from counting as unhandled meanwhile
      inFlight = p;
    };
    let batch: PreparedDocument[] = [];
    let chars = 0;
    let since = performance.now();
    for (const [i, d] of docs.entries()) {
      if (last.get(d.path) !== i) continue;
      batch.push(prepareDocument(d.path, d.content));
      chars += d.content.length;
      // Chunking is the one thing here that runs on this thread: let the event loop breathe.
      if (performance.now() - since > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
      if (chars >= BATCH_CHARS) {
        await flush(batch);
        batch = [];
        chars = 0;
      }
    }
    if (batch.length) await flush(batch);
    await inFlight;
    return docs.map((d) => results.get(d.path)!);
  }

  /** Removes a document (its chunks and index rows with it); false when there was none. */
  async delete(scope: Scope, path: string): Promise<boolean> {
    checkScope(scope);
    checkMemoryPath(path);
    const doc = await this.fts.duringWrite(() => this.exclusive(async () => {
      const found = (await readChunkIds(this.db, scope, [path])).get(path);
      if (!found) return undefined;
      const tx = new ChunkTransaction();
      tx.deleteDocument(scope, path);
      await this.db.transaction(tx.statements());
      return found;
    }));
    if (!doc) return false;
    this.vectors.forget(doc.ids.values());
    this.changes.fire({ agentId: scope.agentId, userId: scope.userId, path, kind: 'delete' });
    return true;
  }

  /** Documents at a level, sorted by path; for 'all' a user's document hides the global one. */
  async list(scope: Scope, opts: ListOptions = {}): Promise<MemoryDocumentInfo[]> {
    checkScope(scope);
    const level = levelCondition(scope, opts.level ?? 'all');
    const prefix = opts.prefix ? { sql: 'substr(d.path, 1, ?) = ?', params: [opts.prefix.length, opts.prefix] } : undefined;
    const where = and(level, prefix);
    return this.db.query<MemoryDocumentInfo>(
      `SELECT d.path, d.user_id AS userId, length(CAST(d.content AS BLOB)) AS size, d.updated_at AS updatedAt,
              (SELECT count(*) FROM memory_chunks AS c WHERE c.doc_id = d.id) AS chunks
       FROM memory_documents AS d WHERE ${where.sql} ORDER BY d.path, d.user_id`, where.params);
  }

  /** One chunk by id; with a scope, only if that agent and user (or its global level) may see it. */
  async chunk(id: number, scope?: Scope): Promise<MemoryChunkRecord | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const visible = scope ? " AND d.agent_id = ? AND d.user_id IN (?, '')" : '';
    const [row] = await this.db.query<MemoryChunkRecord>(
      `SELECT c.id, c.seq, c.heading, c.text, c.start_line AS startLine, c.end_line AS endLine,
              d.agent_id AS agentId, d.user_id AS userId, d.path
       FROM memory_chunks AS c JOIN memory_documents AS d ON d.id = c.doc_id WHERE c.id = ?${visible}`,
      scope ? [id, scope.agentId, scope.userId] : [id]);
    return row;
  }

  /**
   * Searches the documents the scope sees: BM25 over the full-text index (all terms, then any
   * term), fused with vector similarity by reciprocal rank when an embeddings provider is set.
   */
  async search(scope: Scope, query: string, opts: SearchOptions = {}): Promise<SearchResult> {
    checkScope(scope);
    // Asked first, answered beside the search: only a search that began with chunks still to index
    // indexes them and runs again.
    const current = this.fts.isCurrent();
    current.catch(() => undefined); // awaited below; the search's own failure comes first
    const result = await this.searchIndexed(scope, query, opts);
    if (await current) return result;
    await this.fts.catchUp();
    return this.searchIndexed(scope, query, opts);
  }

  /** Resolves once every chunk written so far is in the full-text index (a search does this itself). */
  ftsSettled(): Promise<void> {
    return this.fts.settled();
  }

  private async searchIndexed(scope: Scope, query: string, opts: SearchOptions): Promise<SearchResult> {
    const limit = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(opts.limit ?? DEFAULT_SEARCH_LIMIT)));
    const q = buildFtsQuery(query);
    const level = levelCondition(scope, opts.scope ?? 'all');
    const where = and(level, await pathCondition(this.db, level, opts.path));
    const dropped = q.dropped ? `Only the first ${q.terms.length} words were searched for (${q.dropped} more were left out).` : undefined;
    const provider = this.options.embeddings?.();
    if (provider) {
      const r = await hybridSearch({ db: this.db, vectors: this.vectors, provider, query, q, where, limit, signal: opts.signal, fallback: opts.fallback });
      const note = [r.note, dropped].filter(Boolean).join(' ') || undefined;
      return { hits: r.hits, mode: r.mode, terms: q.terms, ...(note ? { note } : {}) };
    }
    const { rows } = await searchBm25(this.db, q, where, limit, opts.signal, opts.fallback ?? true);
    return { hits: rows.map((r, i) => toHit(r, q.terms, { bm25: { rank: i + 1, score: r.score } })), mode: 'bm25', terms: q.terms, ...(dropped ? { note: dropped } : {}) };
  }

  /**
   * Re-chunks every document of the target (a scope: that agent's user and global levels; 'all':
   * everything) and, with a provider, embeds what has no vector. Stops between documents when the
   * signal fires and says how far it got.
   */
  reindex(target: Scope | 'all', opts: ReindexOptions = {}): Promise<ReindexResult> {
    if (target !== 'all') checkScope(target);
    return this.fts.duringWrite(() => reindexDocuments({ db: this.db, vectors: this.vectors, provider: this.options.embeddings?.() }, target, opts));
  }

  /** Resolves once the vectors of everything written so far are stored (or failed; see the next search's note). */
  embeddingsSettled(): Promise<void> {
    return this.vectors.settled();
  }

  /** Why the last background embedding failed, if it did. */
  get lastEmbeddingError(): string | undefined {
    return this.vectors.lastError;
  }

  /**
   * Writes a batch, planning again when another window changed one of its documents meanwhile.
   * This store's own writes take turns (they would only collide with each other).
   */
  private writeBatch(scope: Scope, batch: PreparedDocument[]): Promise<WriteResult[]> {
    return this.exclusive(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.tryWriteBatch(scope, batch);
        } catch (e) {
          if (!CAS_FAILED.test(e instanceof Error ? e.message : '')) throw e;
          if (attempt >= MAX_WRITE_ATTEMPTS) {
            throw new MemoryError(`${batch.map((d) => d.path).join(', ')} kept changing in another VS Code window while this write was made; nothing was written. Try again.`, 'unavailable');
          }
          // Two windows that collided would collide again in lockstep: a random pause, growing, breaks the tie.
          await new Promise((r) => setTimeout(r, Math.random() * 4 * attempt));
        }
      }
    });
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.writes.then(fn, fn);
    this.writes = run.catch(() => undefined);
    return run;
  }

  private async tryWriteBatch(scope: Scope, batch: PreparedDocument[]): Promise<WriteResult[]> {
    const paths = batch.map((d) => d.path);
    const before = await readChunkIds(this.db, scope, paths);
    const changed = batch.filter((d) => before.get(d.path)?.docHash !== d.hash);
    if (changed.length) {
      const now = this.now();
      const tx = new ChunkTransaction();
      for (const d of changed) {
        const was = before.get(d.path);
        tx.writeDocument(scope, d.path, d.content, d.hash, now, was?.docHash ?? null, { chunks: d.chunks, hashes: d.hashes, stored: new Set(was?.ids.keys() ?? []) });
      }
      await this.db.transaction(tx.statements());
    }
    const after = changed.length ? await readChunkIds(this.db, scope, changed.map((d) => d.path)) : new Map<string, ChunkIds>();
    const results: WriteResult[] = [];
    const gone: number[] = [];
    for (const d of batch) {
      const was = before.get(d.path);
      const now = after.get(d.path) ?? was;
      if (!now) throw new MemoryError(`${d.path} was not stored; try again.`, 'unavailable');
      const chunks: StoredChunk[] = d.chunks.map((c, i) => ({ ...c, id: now.ids.get(d.hashes[i]) ?? -1 }));
      const changedChunks = chunks.filter((c) => !was?.ids.has(d.hashes[c.seq]));
      if (was && now !== was) for (const [h, id] of was.ids) if (now.ids.get(h) !== id) gone.push(id);
      results.push({
        document: { id: now.docId, agentId: scope.agentId, userId: scope.userId, path: d.path, content: d.content, updatedAt: now.updatedAt },
        chunks,
        changedChunks: now === was ? [] : changedChunks,
      });
    }
    this.vectors.forget(gone);
    for (const d of changed) this.changes.fire({ agentId: scope.agentId, userId: scope.userId, path: d.path, kind: 'write' });
    const provider = this.options.embeddings?.();
    if (provider) this.vectors.schedule(provider, changed.filter((d) => d.chunks.length).map((d) => after.get(d.path)!.docId));
    return results;
  }
}
