// What a write needs before it reaches the database: the document chunked and hashed, and which
// chunk ids (by hash) the stored documents have, to tell kept chunks from new ones.
import type { Database } from '../storage/database';
import { chunkMarkdown } from './chunker';
import { isIndexed } from './memory-paths';
import { chunkHashes, contentHash } from './memory-store-write';
import type { Chunk, Scope } from './types';

export interface PreparedDocument {
  path: string;
  content: string;
  hash: string;
  chunks: Chunk[];
  hashes: string[];
}

/** Chunks markdown documents; other files under memory/ are stored without chunks. */
export function prepareDocument(path: string, content: string): PreparedDocument {
  const chunks = isIndexed(path) ? chunkMarkdown(content) : [];
  return { path, content, hash: contentHash(content), chunks, hashes: chunkHashes(chunks) };
}

export interface ChunkIds {
  docId: number;
  docHash: string;
  updatedAt: number;
  /** chunk hash → chunk id */
  ids: Map<string, number>;
}

/** The stored documents among `paths` at exactly this level, with their chunk ids by hash. */
export async function readChunkIds(db: Database, scope: Scope, paths: readonly string[]): Promise<Map<string, ChunkIds>> {
  const rows = await db.query<{ docId: number; path: string; docHash: string; updatedAt: number; id: number | null; hash: string | null }>(
    `SELECT d.id AS docId, d.path, d.hash AS docHash, d.updated_at AS updatedAt, c.id, c.hash
     FROM memory_documents AS d LEFT JOIN memory_chunks AS c ON c.doc_id = d.id
     WHERE d.agent_id = ? AND d.user_id = ? AND d.path IN (SELECT value FROM json_each(?))`,
    [scope.agentId, scope.userId, JSON.stringify(paths)]);
  const out = new Map<string, ChunkIds>();
  for (const r of rows) {
    let doc = out.get(r.path);
    if (!doc) out.set(r.path, (doc = { docId: r.docId, docHash: r.docHash, updatedAt: r.updatedAt, ids: new Map() }));
    if (r.id !== null && r.hash !== null) doc.ids.set(r.hash, r.id);
  }
  return out;
}
