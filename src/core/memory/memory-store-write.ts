// The statements that store documents and their chunks, gathered per transaction.
//
// A write reads what is stored first (each document's hash and its chunks' hashes), then sends one
// transaction that (1) checks every document is still as it read it, aborting otherwise so the
// store plans again, (2) removes the chunks whose hash is gone, their full-text entries first,
// (3) upserts the documents, renumbers the chunks that stayed and inserts only the new ones. The
// new chunks are indexed for full-text search afterwards, off the write path (memory-fts-index.ts).
// Chunks whose heading and text did not change keep their rows, so their ids and embeddings, and
// only new chunk text goes into the journal.
import * as crypto from 'node:crypto';
import type { SqlValue, StatementSpec } from '../storage/types';
import type { Chunk, Scope } from './types';

/**
 * The one-shot crypto.hash (Node 20.12 and later) is twice as fast as a Hash object for strings of
 * a chunk's size, and an import hashes every chunk; the digest is the same either way.
 */
const oneShot = (crypto as unknown as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string }).hash;
const sha256 = (text: string): string => (oneShot ? oneShot('sha256', text, 'base64url') : crypto.createHash('sha256').update(text).digest('base64url'));

export function contentHash(content: string): string {
  return sha256(content).slice(0, 32);
}

/**
 * One hash per chunk: of its heading and text, plus which occurrence of that pair it is, so two
 * identical chunks in one document (repeated boilerplate) are two rows, not a conflict.
 */
export function chunkHashes(chunks: readonly Chunk[]): string[] {
  const seen = new Map<string, number>();
  return chunks.map((c) => {
    const h = sha256(`${c.heading}\u0000${c.text}`).slice(0, 24);
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    return n === 1 ? h : `${h}~${n}`;
  });
}

/** The message SQLite gives when the compare-and-swap statement fires. */
export const CAS_FAILED = /NOT NULL constraint failed: memory_cas\.ok/;

/** Rows per INSERT: 6 parameters each, well under SQLite's 32,766. */
const INSERT_ROWS = 1000;

const DOC = '(SELECT id FROM memory_documents WHERE agent_id = ?1 AND user_id = ?2 AND path = ?3)';

/**
 * Aborts the transaction unless the document is as the write read it: its hash and its number of
 * chunks (expected null: the document must not exist).
 */
export function casStatement(scope: Scope, path: string, expected: { hash: string; chunks: number } | null): StatementSpec {
  return {
    sql: `INSERT INTO memory_cas(ok) SELECT NULL
          WHERE (SELECT hash FROM memory_documents WHERE agent_id = ?1 AND user_id = ?2 AND path = ?3) IS NOT ?4
             OR (SELECT count(*) FROM memory_chunks WHERE doc_id = ${DOC}) IS NOT ?5`,
    params: [scope.agentId, scope.userId, path, expected?.hash ?? null, expected?.chunks ?? 0],
  };
}

export interface ChunkPlan {
  chunks: readonly Chunk[];
  hashes: readonly string[];
  /** Hashes of the chunks stored now (as read before the transaction, which the CAS guarantees). */
  stored: ReadonlySet<string>;
}

/**
 * One transaction's worth of document and chunk changes. Statements come out in the order FTS4
 * needs: checks, then removals (index entries before the rows their text is read from, and only
 * for chunks already indexed), then upserts and inserts.
 */
export class ChunkTransaction {
  private readonly checks: StatementSpec[] = [];
  private readonly drops: StatementSpec[] = [];
  private readonly writes: StatementSpec[] = [];

  get empty(): boolean {
    return !this.checks.length && !this.drops.length && !this.writes.length;
  }

  /** Creates or replaces a document that had hash `expected` (null: it did not exist). */
  writeDocument(scope: Scope, path: string, content: string, hash: string, now: number, expected: string | null, plan: ChunkPlan): void {
    this.checks.push(casStatement(scope, path, expected === null ? null : { hash: expected, chunks: plan.stored.size }));
    this.writes.push({
      // The content goes in as UTF-8 bytes cast back to text where that is exact: sql.js encodes a
      // string parameter one character at a time in JavaScript, about ten times slower than binding
      // the bytes, and a document is most of what a write sends.
      sql: `INSERT INTO memory_documents(agent_id, user_id, path, content, hash, updated_at) VALUES (?1, ?2, ?3, CAST(?4 AS TEXT), ?5, ?6)
            ON CONFLICT(agent_id, user_id, path) DO UPDATE SET content = excluded.content, hash = excluded.hash, updated_at = excluded.updated_at`,
      params: [scope.agentId, scope.userId, path, isPlainText(content) ? utf8.encode(content) : content, hash, now],
    });
    this.planChunks(scope, path, plan, content);
  }

  /** Re-chunks a document whose content is unchanged (its hash must still be `expected`). */
  rechunk(scope: Scope, path: string, expected: string, plan: ChunkPlan): void {
    this.checks.push(casStatement(scope, path, { hash: expected, chunks: plan.stored.size }));
    this.planChunks(scope, path, plan);
  }

  deleteDocument(scope: Scope, path: string): void {
    const params = [scope.agentId, scope.userId, path];
    this.drops.push({ sql: `INSERT OR IGNORE INTO memory_fts_drop(id) SELECT id FROM memory_chunks WHERE doc_id = ${DOC}`, params });
    this.writes.push({ sql: 'DELETE FROM memory_documents WHERE agent_id = ?1 AND user_id = ?2 AND path = ?3', params });
  }

  statements(): StatementSpec[] {
    const out = [...this.checks];
    if (this.drops.length) {
      out.push(
        ...this.drops,
        // A chunk above indexed_to has no index entries: deleting them would corrupt the index.
        { sql: 'DELETE FROM memory_fts WHERE docid IN (SELECT id FROM memory_fts_drop WHERE id <= (SELECT indexed_to FROM memory_fts_state))' },
        { sql: 'DELETE FROM memory_chunks WHERE id IN (SELECT id FROM memory_fts_drop)' },
        { sql: 'DELETE FROM memory_fts_drop' },
      );
    }
    out.push(...this.writes);
    return out;
  }

  private planChunks(scope: Scope, path: string, plan: ChunkPlan, content?: string): void {
    const base = [scope.agentId, scope.userId, path];
    const wanted = new Set(plan.hashes);
    if ([...plan.stored].some((h) => !wanted.has(h))) {
      this.drops.push({
        sql: `INSERT OR IGNORE INTO memory_fts_drop(id) SELECT id FROM memory_chunks WHERE doc_id = ${DOC} AND hash NOT IN (SELECT value FROM json_each(?4))`,
        params: [...base, JSON.stringify(plan.hashes)],
      });
    }
    const kept: unknown[] = [];
    const added: number[] = [];
    plan.chunks.forEach((c, i) => {
      if (plan.stored.has(plan.hashes[i])) kept.push([plan.hashes[i], c.seq, c.startLine, c.endLine]);
      else added.push(i);
    });
    if (kept.length) {
      this.writes.push({
        sql: `UPDATE memory_chunks SET seq = j.value ->> 1, start_line = j.value ->> 2, end_line = j.value ->> 3
              FROM json_each(?4) AS j
              WHERE memory_chunks.doc_id = ${DOC} AND memory_chunks.hash = j.value ->> 0
                AND (memory_chunks.seq, memory_chunks.start_line, memory_chunks.end_line) IS NOT (j.value ->> 1, j.value ->> 2, j.value ->> 3)`,
        params: [...base, JSON.stringify(kept)],
      });
    }
    // New chunks as bound VALUES rows: twice as fast as reading them out of a JSON parameter. A
    // chunk that is a slice of the document written in the same statement list is sent as where it
    // sits (start, length, in UTF-8 bytes) rather than as text: the document's content is stored
    // anyway, so its text would otherwise cross into SQLite and into the journal twice. The slice
    // is cut from the content as a blob: substr of text counts characters from the start of the
    // document for every chunk, which cost more than inserting the chunks.
    const spans = content === undefined ? undefined : textSpans(content, plan.chunks);
    for (let at = 0; at < added.length; at += INSERT_ROWS) {
      const params: SqlValue[] = [...base];
      const rows: string[] = [];
      for (const i of added.slice(at, at + INSERT_ROWS)) {
        const c = plan.chunks[i];
        const span = spans?.[i];
        const n = params.length;
        rows.push(`(?${n + 1},?${n + 2},?${n + 3},?${n + 4},?${n + 5},?${n + 6},?${n + 7},?${n + 8})`);
        params.push(c.seq, c.heading, span ? null : c.text, span ? span[0] : null, span ? span[1] : null, c.startLine, c.endLine, plan.hashes[i]);
      }
      this.writes.push({
        sql: `INSERT INTO memory_chunks(doc_id, seq, heading, text, start_line, end_line, hash)
              SELECT ${DOC}, column1, column2, coalesce(column3, CAST(substr(CAST((SELECT content FROM memory_documents WHERE id = ${DOC}) AS BLOB), column4, column5) AS TEXT)),
                     column6, column7, column8 FROM (VALUES ${rows.join(',')})`,
        params,
      });
    }
  }
}

const utf8 = new TextEncoder();

/**
 * Text without surrogates or NULs: its UTF-8 bytes are the same whoever encodes them (sql.js, Node,
 * SQLite), so bytes of it cast to text in SQLite are exactly the string.
 */
export function isPlainText(text: string): boolean {
  return !/[\ud800-\udfff\u0000]/.test(text);
}

/**
 * Where each chunk's text sits in `content` as SQLite's substr counts it in a blob (1-based, in UTF-8
 * bytes), undefined for a chunk that is not a slice of it (a CR document's chunks are joined lines).
 * Only for plain text (isPlainText): then the slice cast back to text is the chunk's text exactly.
 */
export function textSpans(content: string, chunks: readonly Chunk[]): ([start: number, length: number] | undefined)[] {
  if (!isPlainText(content)) return chunks.map(() => undefined);
  const ascii = Buffer.byteLength(content) === content.length;
  const bytes = (s: string): number => (ascii ? s.length : Buffer.byteLength(s));
  let from = 0;
  let fromByte = 0;
  return chunks.map((c) => {
    const at = content.indexOf(c.text, from);
    if (at < 0 || !c.text) return undefined;
    fromByte += bytes(content.slice(from, at));
    from = at;
    return [fromByte + 1, bytes(c.text)];
  });
}

/** Stores vectors for chunks, unless the chunk changed meanwhile (then its id is gone anyway). */
export function embeddingStatements(model: string, rows: { id: number; hash: string; vector: Float32Array }[]): StatementSpec[] {
  return rows.map((r) => ({
    sql: 'UPDATE memory_chunks SET embedding = ?, embedding_model = ? WHERE id = ? AND hash = ?',
    params: [new Uint8Array(r.vector.buffer.slice(r.vector.byteOffset, r.vector.byteOffset + r.vector.byteLength)), model, r.id, r.hash],
  }));
}

/** A stored Float32 vector, whatever the alignment of the bytes that came back. */
export function vectorFromBlob(blob: Uint8Array): Float32Array {
  const copy = new Uint8Array(blob.byteLength - (blob.byteLength % 4));
  copy.set(blob.subarray(0, copy.byteLength));
  return new Float32Array(copy.buffer);
}
