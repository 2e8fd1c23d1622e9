// Tables of the memory store (versions 201 and up; the tool log owns 1…, checkpoints 101…).
//
// - memory_documents: one row per (agent, user, path); user_id '' is the agent's global memory.
// - memory_chunks: the indexed pieces of each document. AUTOINCREMENT so a chunk id is never
//   reused: a stale id from an old search must not silently name some other text. (doc_id, hash)
//   is unique (the hash covers heading, text and which occurrence of that text it is), which is what
//   lets a rewrite keep the rows, ids and embeddings of the chunks it did not change.
// - memory_fts: FTS4 over (heading, text) with memory_chunks as its external content table (docid =
//   chunk id), so chunk text is stored once; since version 202 through a view that shows only the
//   chunks indexed so far (see that migration). It is kept in step by the store's own statements, not
//   by triggers: FTS4 flushes its pending terms at every statement that may write to it (a
//   savepoint), so a trigger firing for each chunk statement wrote a tiny segment per document and
//   halved the index rate. Instead the chunks above memory_fts_state.indexed_to (ids only grow:
//   AUTOINCREMENT) are indexed in one statement per batch, off the write path and before any search
//   (memory-fts-index.ts), and chunks are removed by first collecting their ids in memory_fts_drop,
//   so the index entries of the indexed ones go in one statement, before the rows FTS4 reads the
//   old text from (memory-store-write.ts).
// - memory_cas: always empty. Inserting NULL into it fails, which is how a write aborts its own
//   transaction when the document changed since the write read it (compare-and-swap in plain SQL).
//
// Tokenizer: sql.js 1.16 (SQLite 3.54) is built with FTS3/4 and the unicode61 tokenizer, which
// supports remove_diacritics=2 (checked in test/unit/memory/memory-schema.test.ts). unicode61 folds
// case beyond ASCII and splits every script on its Unicode word boundaries, and with diacritics
// removed 'resume' finds 'résumé'. The porter stemmer was the alternative, but it is ASCII-only
// and would break non-English notes; FTS5 (with its trigram tokenizer) is not in this build.
import type { Migration } from '../storage/types';

export const MEMORY_MIGRATIONS: Migration[] = [
  {
    version: 201,
    name: 'memory documents, chunks and their full-text index',
    sql: `CREATE TABLE memory_documents (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            agent_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            path TEXT NOT NULL,
            content TEXT NOT NULL,
            hash TEXT NOT NULL,
            updated_at INTEGER NOT NULL,
            UNIQUE(agent_id, user_id, path)
          );
          CREATE TABLE memory_chunks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            doc_id INTEGER NOT NULL REFERENCES memory_documents(id),
            seq INTEGER NOT NULL,
            heading TEXT NOT NULL,
            text TEXT NOT NULL,
            start_line INTEGER NOT NULL,
            end_line INTEGER NOT NULL,
            hash TEXT NOT NULL,
            embedding BLOB,
            embedding_model TEXT,
            UNIQUE(doc_id, hash)
          );
          CREATE INDEX memory_chunks_model ON memory_chunks(embedding_model) WHERE embedding_model IS NOT NULL;
          CREATE VIRTUAL TABLE memory_fts USING fts4(content="memory_chunks", heading, text, tokenize=unicode61 "remove_diacritics=2");
          CREATE TABLE memory_fts_state (id INTEGER PRIMARY KEY CHECK (id = 1), indexed_to INTEGER NOT NULL);
          INSERT INTO memory_fts_state(id, indexed_to) VALUES (1, 0);
          CREATE TABLE memory_fts_drop (id INTEGER PRIMARY KEY);
          CREATE TABLE memory_cas (ok INTEGER NOT NULL);`,
  },
  {
    // The index follows the writes later (memory-fts-index.ts), so its content table is a view of
    // the indexed chunks only: FTS4's integrity check (which the snapshot check runs) compares the
    // index with its content, and must not count chunks still waiting to be indexed. The rowid
    // column is what FTS4 reads a row by. Everything is indexed again from scratch, by the indexer,
    // off the write path (indexed_to back to 0).
    version: 202,
    name: 'memory full-text index over the indexed chunks only',
    sql: `DROP TABLE memory_fts;
          CREATE VIEW memory_fts_content AS
            SELECT id AS rowid, heading, text FROM memory_chunks WHERE id <= (SELECT indexed_to FROM memory_fts_state);
          CREATE VIRTUAL TABLE memory_fts USING fts4(content="memory_fts_content", heading, text, tokenize=unicode61 "remove_diacritics=2");
          UPDATE memory_fts_state SET indexed_to = 0;
          DELETE FROM memory_fts_drop;`,
  },
];
