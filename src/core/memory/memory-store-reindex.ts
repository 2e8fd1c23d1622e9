// Reindexing: every document of a target chunked again (a new chunker, a repaired index) and, with
// an embeddings provider, the chunks without a vector from it embedded. Documents whose chunks are
// already as the chunker would make them are left alone, so a reindex of an up-to-date store writes
// nothing to the journal. 'all' first rebuilds the full-text index from the chunk table.
import type { Database } from '../storage/database';
import type { EmbeddingProvider } from './embeddings';
import { prepareDocument } from './memory-store-prepare';
import type { ReindexOptions, ReindexResult } from './memory-store-types';
import type { MemoryVectors } from './memory-store-vectors';
import { CAS_FAILED, ChunkTransaction } from './memory-store-write';
import type { Scope } from './types';

/** Content read and re-chunked per round trip. */
const BATCH_CHARS = 1024 * 1024;

export interface ReindexDeps {
  db: Database;
  vectors: MemoryVectors;
  provider: EmbeddingProvider | undefined;
}

interface DocRef {
  id: number;
  agentId: string;
  userId: string;
  path: string;
  size: number;
}

interface Stored {
  id: number;
  content: string;
  hash: string;
  /** "hash,start,end" per chunk in order; '' for none. */
  layout: string;
}

/** The documents' content and hash, and what is stored for their chunks. */
async function stored(db: Database, docIds: number[]): Promise<Stored[]> {
  return db.query<Stored>(
    `SELECT d.id, d.content, d.hash,
            coalesce((SELECT group_concat(c.hash || ',' || c.start_line || ',' || c.end_line, ';' ORDER BY c.seq)
                      FROM memory_chunks AS c WHERE c.doc_id = d.id), '') AS layout
     FROM memory_documents AS d WHERE d.id IN (SELECT value FROM json_each(?))`, [JSON.stringify(docIds)]);
}

/** Re-chunks one batch of documents in one transaction; counts what it found. */
async function rechunkBatch(db: Database, batch: DocRef[], result: ReindexResult): Promise<void> {
  const rows = await stored(db, batch.map((d) => d.id));
  const tx = new ChunkTransaction();
  let chunks = 0;
  let changed = 0;
  for (const row of rows) {
    const doc = batch.find((d) => d.id === row.id)!;
    const p = prepareDocument(doc.path, row.content);
    chunks += p.chunks.length;
    const want = p.chunks.map((c, i) => `${p.hashes[i]},${c.startLine},${c.endLine}`).join(';');
    if (row.layout === want) continue;
    const had = row.layout ? row.layout.split(';').map((x) => x.split(',')[0]) : [];
    const stored = new Set(had);
    changed += p.hashes.filter((h) => !stored.has(h)).length;
    const scope = { agentId: doc.agentId, userId: doc.userId };
    tx.rechunk(scope, doc.path, row.hash, { chunks: p.chunks, hashes: p.hashes, stored });
  }
  if (!tx.empty) await db.transaction(tx.statements());
  result.chunks += chunks;
  result.changedChunks += changed;
}

export async function reindexDocuments(deps: ReindexDeps, target: Scope | 'all', opts: ReindexOptions): Promise<ReindexResult> {
  const { db, vectors, provider } = deps;
  const result: ReindexResult = { documents: 0, chunks: 0, changedChunks: 0, embedded: 0, cancelled: false };
  const where = target === 'all' ? { sql: '1', params: [] } : { sql: "agent_id = ? AND user_id IN (?, '')", params: [target.agentId, target.userId] };
  const docs = await db.query<DocRef>(
    `SELECT id, agent_id AS agentId, user_id AS userId, path, length(content) AS size FROM memory_documents WHERE ${where.sql} ORDER BY id`, where.params);
  if (target === 'all') {
    // indexed_to first: the index's content view shows the chunks up to it, and rebuild reads them all.
    await db.transaction([
      { sql: 'UPDATE memory_fts_state SET indexed_to = coalesce((SELECT max(id) FROM memory_chunks), indexed_to)' },
      { sql: "INSERT INTO memory_fts(memory_fts) VALUES ('rebuild')" },
    ]);
  }
  opts.onProgress?.(0, docs.length);
  for (let at = 0; at < docs.length;) {
    if (opts.signal?.aborted) return { ...result, cancelled: true };
    const batch: DocRef[] = [];
    for (let chars = 0; at < docs.length && (batch.length === 0 || chars + docs[at].size <= BATCH_CHARS); at++) {
      batch.push(docs[at]);
      chars += docs[at].size;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await rechunkBatch(db, batch, result);
        break;
      } catch (e) {
        // Another window rewrote one of these documents meanwhile: read them again.
        if (attempt >= 4 || !CAS_FAILED.test(e instanceof Error ? e.message : '')) throw e;
      }
    }
    if (provider) {
      try {
        result.embedded += await vectors.embedMissing(provider, batch.map((d) => d.id), opts.signal);
      } catch (e) {
        if (opts.signal?.aborted) return { ...result, documents: result.documents + batch.length, cancelled: true };
        throw e;
      }
    }
    result.documents += batch.length;
    opts.onProgress?.(result.documents, docs.length);
  }
  return result;
}
