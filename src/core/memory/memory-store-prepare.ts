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

/**
 * The stored documents among `paths` at exactly this level, with their chunk ids by hash. One row
 * per document, its chunks as one "id:hash,id:hash" string: after an import the rows for every
 * chunk would cross from the worker one object each (a third of a second for 50,000 chunks).
 * A chunk hash is base64url with an optional "~n" (chunkHashes), so it holds neither ':' nor ','.
 */
export async function readChunkIds(db: Database, scope: Scope, paths: readonly string[]): Promise<Map<string, ChunkIds>> {
  const rows = await db.query<{ docId: number; path: string; docHash: string; updatedAt: number; chunks: string | null }>(
    `SELECT d.id AS docId, d.path, d.hash AS docHash, d.updated_at AS updatedAt,
            (SELECT group_concat(c.id || ':' || c.hash) FROM memory_chunks AS c WHERE c.doc_id = d.id) AS chunks
     FROM memory_documents AS d
     WHERE d.agent_id = ? AND d.user_id = ? AND d.path IN (SELECT value FROM json_each(?))`,
    [scope.agentId, scope.userId, JSON.stringify(paths)]);
  const out = new Map<string, ChunkIds>();
  for (const r of rows) {
    const ids = new Map<string, number>();
    if (r.chunks) {
      for (const pair of r.chunks.split(',')) {
        const at = pair.indexOf(':');
        ids.set(pair.slice(at + 1), Number(pair.slice(0, at)));
      }
    }
    out.set(r.path, { docId: r.docId, docHash: r.docHash, updatedAt: r.updatedAt, ids });
  }
  return out;
}
