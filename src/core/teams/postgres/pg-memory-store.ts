// A team's memory on the shared server, with the memory store's API (memory-store.ts): the
// documents of the team's agents, per user and global, chunked as they are written, searched by
// ranked full-text and (with pgvector and an embeddings provider) by vectors, fused as in the
// workspace. Every editor connected to the server sees every other's writes at its next read; the
// full-text vector is written with its chunk, so a search right after a write finds it. Rows carry
// the team's id: several teams (and, by schema, several projects) share one server.
import { Emitter, type Listener } from '../../events';
import type { EmbeddingProvider } from '../../memory/embeddings';
import { checkMemoryContent, checkMemoryPath } from '../../memory/memory-paths';
import { checkScope, type MemoryApi } from '../../memory/memory-store';
import { prepareDocument } from '../../memory/memory-store-prepare';
import type {
  ListOptions, MemoryChange, MemoryChunkRecord, ReindexOptions, ReindexResult, SearchOptions, SearchResult, WriteResult,
} from '../../memory/memory-store-types';
import type { MemoryDocument, MemoryDocumentInfo, Scope } from '../../memory/types';
import { PgConnection } from './pg-connection';
import { PG_BOARD_MIGRATIONS } from './pg-board-schema';
import { vectorSchema } from './pg-memory-schema';
import { searchTeamMemory } from './pg-memory-search';
import { levelSql, Params } from './pg-memory-sql';
import { PgMemoryVectors } from './pg-memory-vectors';
import { writeDocument } from './pg-memory-write';
import { migrate } from './pg-migrate';
import type { TeamStoreConnection } from './team-store-settings';

/** Content (in characters) per transaction of writeMany, as in the workspace store. */
const BATCH_CHARS = 1024 * 1024;

const DOC_COLUMNS = 'id, agent_id AS "agentId", user_id AS "userId", path, content, updated_at AS "updatedAt"';

export interface PgMemoryOptions {
  teamId: string;
  /** Epoch ms for updated_at (tests pass a clock). */
  now?: () => number;
  /** The current embeddings provider, asked at every use; undefined = keyword search only. */
  embeddings?: () => EmbeddingProvider | undefined;
  onDidChange?: (change: MemoryChange) => void;
}

export class PgMemoryStore implements MemoryApi {
  private readonly changes = new Emitter<MemoryChange>();
  private readonly now: () => number;
  private readonly teamId: string;

  private constructor(
    private readonly db: PgConnection,
    private readonly options: PgMemoryOptions,
    /** undefined: the server has no pgvector; no vectors are stored. */
    private readonly vectors: PgMemoryVectors | undefined,
    private readonly owned: boolean,
  ) {
    this.teamId = options.teamId;
    this.now = options.now ?? Date.now;
    if (options.onDidChange) this.changes.on(options.onDidChange);
  }

  /** Connects to the server, migrates the schema (once, under its advisory lock) and opens the team's memory. */
  static async open(connection: TeamStoreConnection, opts: PgMemoryOptions): Promise<PgMemoryStore> {
    const db = new PgConnection(connection);
    try {
      return await PgMemoryStore.on(db, opts, true);
    } catch (e) {
      await db.close();
      throw e;
    }
  }

  /** The team's memory over a connection someone else owns (closing the store leaves it open). */
  static async on(db: PgConnection, opts: PgMemoryOptions, owned = false): Promise<PgMemoryStore> {
    if (!opts.teamId) throw new Error('A team memory store needs a team id.');
    const ext = await db.session(async (c) => {
      await migrate(c, db.schema, PG_BOARD_MIGRATIONS);
      return vectorSchema(c);
    });
    return new PgMemoryStore(db, opts, ext ? new PgMemoryVectors(db, opts.teamId, ext) : undefined, owned);
  }

  /** Whether the server stores vectors (it has pgvector). */
  get vectorsAvailable(): boolean {
    return !!this.vectors;
  }

  onDidChange(listener: Listener<MemoryChange>): { dispose(): void } {
    return this.changes.on(listener);
  }

  /** Whether searches can use vectors right now: an embeddings provider is configured and the server has pgvector. */
  get embeddingsEnabled(): boolean {
    return !!this.vectors && !!this.options.embeddings?.();
  }

  /** The document as this user sees it: their own, else the agent's global one. */
  async read(scope: Scope, path: string): Promise<MemoryDocument | undefined> {
    checkScope(scope);
    checkMemoryPath(path);
    const [row] = await this.db.query<MemoryDocument>(
      `SELECT ${DOC_COLUMNS} FROM memory_documents WHERE team_id = $1 AND agent_id = $2 AND path = $3 AND user_id IN ($4, '') ORDER BY user_id = '' LIMIT 1`,
      [this.teamId, scope.agentId, path, scope.userId]);
    return row;
  }

  /** The document at exactly this level (scope.userId '' = the global one), without fallback. */
  async readExact(scope: Scope, path: string): Promise<MemoryDocument | undefined> {
    checkScope(scope);
    checkMemoryPath(path);
    const [row] = await this.db.query<MemoryDocument>(
      `SELECT ${DOC_COLUMNS} FROM memory_documents WHERE team_id = $1 AND agent_id = $2 AND user_id = $3 AND path = $4`, [this.teamId, scope.agentId, scope.userId, path]);
    return row;
  }

  async write(scope: Scope, path: string, content: string): Promise<WriteResult> {
    const [result] = await this.writeMany(scope, [{ path, content }]);
    return result!;
  }

  /** Writes several documents at one level; each is atomic, and they are grouped into transactions of about 1 MB. */
  async writeMany(scope: Scope, docs: readonly { path: string; content: string }[]): Promise<WriteResult[]> {
    checkScope(scope);
    for (const d of docs) {
      checkMemoryPath(d.path);
      checkMemoryContent(d.path, d.content);
    }
    const last = new Map(docs.map((d, i) => [d.path, i]));
    const unique = docs.filter((d, i) => last.get(d.path) === i);
    const results = new Map<string, WriteResult>();
    for (let i = 0; i < unique.length;) {
      const batch: typeof unique = [];
      for (let chars = 0; i < unique.length && (chars < BATCH_CHARS || !batch.length); i++) {
        batch.push(unique[i]!);
        chars += unique[i]!.content.length;
      }
      const prepared = batch.map((d) => prepareDocument(d.path, d.content));
      const now = this.now();
      const written = await this.db.tx(async (c) => {
        const out = [];
        for (const d of prepared) out.push(await writeDocument(c, this.teamId, scope, d, now));
        return out;
      });
      for (const w of written) results.set(w.result.document.path, w.result);
      for (const w of written.filter((x) => x.changed)) this.changes.fire({ agentId: scope.agentId, userId: scope.userId, path: w.result.document.path, kind: 'write' });
      const provider = this.options.embeddings?.();
      if (provider && this.vectors) this.vectors.schedule(provider, written.filter((w) => w.changed && w.result.changedChunks.length).map((w) => w.result.document.id));
    }
    return docs.map((d) => results.get(d.path)!);
  }

  /** Removes a document (its chunks with it); false when there was none. */
  async delete(scope: Scope, path: string): Promise<boolean> {
    checkScope(scope);
    checkMemoryPath(path);
    const rows = await this.db.write<{ id: number }>({ text: 'DELETE FROM memory_documents WHERE team_id = $1 AND agent_id = $2 AND user_id = $3 AND path = $4 RETURNING id' },
      [this.teamId, scope.agentId, scope.userId, path]);
    if (!rows.length) return false;
    this.changes.fire({ agentId: scope.agentId, userId: scope.userId, path, kind: 'delete' });
    return true;
  }

  /** Documents at a level, sorted by path; for 'all' a user's document hides the global one. */
  async list(scope: Scope, opts: ListOptions = {}): Promise<MemoryDocumentInfo[]> {
    checkScope(scope);
    const s = new Params();
    const where = levelSql(s, this.teamId, scope, opts.level ?? 'all') + (opts.prefix ? ` AND starts_with(d.path, ${s.p(opts.prefix)})` : '');
    // Byte order, as in the workspace database, whatever the server's collation.
    return this.db.query<MemoryDocumentInfo>(
      `SELECT d.path, d.user_id AS "userId", octet_length(d.content) AS size, d.updated_at AS "updatedAt",
              (SELECT count(*) FROM memory_chunks AS c WHERE c.doc_id = d.id) AS chunks
       FROM memory_documents AS d WHERE ${where} ORDER BY d.path COLLATE "C", d.user_id COLLATE "C"`, s.values);
  }

  /** One chunk by id, of this team; with a scope, only if that agent and user (or its global level) may see it. */
  async chunk(id: number, scope?: Scope): Promise<MemoryChunkRecord | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const visible = scope ? " AND d.agent_id = $3 AND d.user_id IN ($4, '')" : '';
    const [row] = await this.db.query<MemoryChunkRecord>(
      `SELECT c.id, c.seq, c.heading, c.text, c.start_line AS "startLine", c.end_line AS "endLine", d.agent_id AS "agentId", d.user_id AS "userId", d.path
       FROM memory_chunks AS c JOIN memory_documents AS d ON d.id = c.doc_id WHERE c.id = $1 AND d.team_id = $2${visible}`,
      scope ? [id, this.teamId, scope.agentId, scope.userId] : [id, this.teamId]);
    return row;
  }

  /** Ranked full-text search over what the scope sees, fused with vector similarity when it can be (see pg-memory-search.ts). */
  search(scope: Scope, query: string, opts: SearchOptions = {}): Promise<SearchResult> {
    checkScope(scope);
    return searchTeamMemory({ db: this.db, teamId: this.teamId, scope, query, opts, provider: this.options.embeddings?.(), vectors: this.vectors });
  }

  /** The full-text vector is written with its chunk: nothing is ever pending. */
  ftsSettled(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Re-chunks every document of the target (a scope: that agent's user and global levels; 'all':
   * the team's every document) and, with a provider and pgvector, embeds what has no vector.
   */
  async reindex(target: Scope | 'all', opts: ReindexOptions = {}): Promise<ReindexResult> {
    if (target !== 'all') checkScope(target);
    const s = new Params();
    const which = target === 'all' ? `team_id = ${s.p(this.teamId)}`
      : `team_id = ${s.p(this.teamId)} AND agent_id = ${s.p(target.agentId)} AND user_id IN (${s.p(target.userId)}, '')`;
    const docs = await this.db.query<{ id: number; agentId: string; userId: string; path: string; content: string }>(
      `SELECT id, agent_id AS "agentId", user_id AS "userId", path, content FROM memory_documents WHERE ${which} ORDER BY id`, s.values);
    const out: ReindexResult = { documents: 0, chunks: 0, changedChunks: 0, embedded: 0, cancelled: false };
    const provider = this.options.embeddings?.();
    for (const d of docs) {
      if (opts.signal?.aborted) return { ...out, cancelled: true };
      const prepared = prepareDocument(d.path, d.content);
      const w = await this.db.tx((c) => writeDocument(c, this.teamId, { agentId: d.agentId, userId: d.userId }, prepared, this.now(), true));
      out.documents++;
      out.chunks += w.result.chunks.length;
      out.changedChunks += w.result.changedChunks.length;
      if (provider && this.vectors) out.embedded += await this.vectors.embedMissing(provider, [d.id], opts.signal);
      opts.onProgress?.(out.documents, docs.length);
    }
    return out;
  }

  /** Resolves once the vectors of everything written so far are stored (or failed). */
  embeddingsSettled(): Promise<void> {
    return this.vectors?.settled() ?? Promise.resolve();
  }

  get lastEmbeddingError(): string | undefined {
    return this.vectors?.lastError;
  }

  /** Closes the connection when this store opened it. */
  async close(): Promise<void> {
    await this.vectors?.settled();
    if (this.owned) await this.db.close();
  }
}
