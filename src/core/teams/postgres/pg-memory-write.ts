// Writing team memory on the server: a document and its chunks in one transaction. The document's
// row is locked first (a new one by its insert), so two editors writing the same document take
// turns, and the second sees the chunks the first committed. Chunks are kept by the hash of their
// heading and text: a rewrite deletes the chunks whose text is gone, inserts the new ones, and only
// renumbers the rest, which keep their ids (what memory_expand takes) and their vectors.
import type { PoolClient } from 'pg';
import type { PreparedDocument } from '../../memory/memory-store-prepare';
import type { StoredChunk, WriteResult } from '../../memory/memory-store-types';
import type { Scope } from '../../memory/types';
import { tsvectorOf } from './pg-memory-sql';

export interface WrittenDocument {
  result: WriteResult;
  /** The document's content changed (or was new): the change is announced and its new chunks embedded. */
  changed: boolean;
}

/** Writes `d` at exactly the scope's level of team `teamId`; `force` re-chunks an unchanged document too (reindex). */
export async function writeDocument(c: PoolClient, teamId: string, scope: Scope, d: PreparedDocument, now: number, force = false): Promise<WrittenDocument> {
  const key = [teamId, scope.agentId, scope.userId, d.path];
  const before = (await c.query<{ id: number; hash: string; updated_at: number }>(
    'SELECT id, hash, updated_at FROM memory_documents WHERE team_id = $1 AND agent_id = $2 AND user_id = $3 AND path = $4 FOR UPDATE', key)).rows[0];
  const changed = before?.hash !== d.hash;
  let docId: number;
  let updatedAt: number;
  if (changed) {
    docId = (await c.query<{ id: number }>(
      `INSERT INTO memory_documents(team_id, agent_id, user_id, path, content, hash, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (team_id, agent_id, user_id, path) DO UPDATE SET content = excluded.content, hash = excluded.hash, updated_at = excluded.updated_at
       RETURNING id`, [...key, d.content, d.hash, now])).rows[0]!.id;
    updatedAt = now;
  } else {
    docId = before.id;
    updatedAt = before.updated_at;
  }
  let ids: Map<string, { id: number; inserted: boolean }>;
  if (changed || force) {
    await c.query('DELETE FROM memory_chunks WHERE doc_id = $1 AND NOT (hash = ANY($2::text[]))', [docId, d.hashes]);
    const rows = (await c.query<{ id: number; hash: string; inserted: boolean }>(
      `INSERT INTO memory_chunks(doc_id, seq, hash, heading, text, start_line, end_line, search)
       SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::tsvector[])
       ON CONFLICT (doc_id, hash) DO UPDATE SET seq = excluded.seq, start_line = excluded.start_line, end_line = excluded.end_line
       RETURNING id, hash, (xmax::text = '0') AS inserted`,
      [docId, d.chunks.map((x) => x.seq), d.hashes, d.chunks.map((x) => x.heading), d.chunks.map((x) => x.text),
        d.chunks.map((x) => x.startLine), d.chunks.map((x) => x.endLine), d.chunks.map((x) => tsvectorOf(x.heading, x.text))])).rows;
    ids = new Map(rows.map((r) => [r.hash, { id: r.id, inserted: r.inserted }]));
  } else {
    const rows = (await c.query<{ id: number; hash: string }>('SELECT id, hash FROM memory_chunks WHERE doc_id = $1', [docId])).rows;
    ids = new Map(rows.map((r) => [r.hash, { id: r.id, inserted: false }]));
  }
  const chunks: StoredChunk[] = d.chunks.map((x, i) => ({ ...x, id: ids.get(d.hashes[i]!)?.id ?? -1 }));
  return {
    changed,
    result: {
      document: { id: docId, agentId: scope.agentId, userId: scope.userId, path: d.path, content: d.content, updatedAt },
      chunks,
      changedChunks: chunks.filter((x, i) => ids.get(d.hashes[i]!)?.inserted),
    },
  };
}
