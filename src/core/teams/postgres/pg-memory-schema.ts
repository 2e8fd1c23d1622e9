// Team memory on the shared server: the memory documents and context files of a team's agents, in
// the same schema (and under the same versioned migrations) as the board. Documents are chunked as
// in the workspace database; each chunk carries its words as a tsvector (built by Pincer from the
// same folded words the workspace index uses, so a word matches exactly where it would there), with
// a GIN index for ranked full-text search. Vectors need pgvector: the migration creates the
// extension when the server has it and the role may, and adds the `vector` column; otherwise the
// store runs without vectors (keyword-only search, said in each search's note) and nothing fails.
import type { ClientBase } from 'pg';
import type { PgMigration } from './pg-migrate';

/**
 * Creates pgvector (in public, shared by every project's schema on the server, else in this schema)
 * and the chunks' vector column, in a block that swallows its own failure: a server without the
 * extension, or a role that may not create it, leaves the table without vectors. Safe to run again.
 */
export const VECTOR_DDL = `
DO $vec$
DECLARE ext TEXT;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;
  EXCEPTION WHEN OTHERS THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS vector;
    EXCEPTION WHEN OTHERS THEN
      RETURN;
    END;
  END;
  SELECT n.nspname INTO ext FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector';
  IF ext IS NOT NULL AND NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'memory_chunks'::regclass AND attname = 'embedding' AND NOT attisdropped) THEN
    EXECUTE format('ALTER TABLE memory_chunks ADD COLUMN embedding %I.vector', ext);
  END IF;
EXCEPTION WHEN OTHERS THEN
  RETURN;
END $vec$;
`;

export const PG_MEMORY_MIGRATIONS: PgMigration[] = [
  {
    version: 5,
    name: 'team memory: documents, chunks with a full-text vector (and a pgvector column when the server has it), context files',
    sql: `
CREATE TABLE memory_documents (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  team_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  -- '' = the agent's global memory.
  user_id TEXT NOT NULL DEFAULT '',
  path TEXT NOT NULL,
  content TEXT NOT NULL,
  hash TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (team_id, agent_id, user_id, path)
);
CREATE TABLE memory_chunks (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  doc_id BIGINT NOT NULL REFERENCES memory_documents(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  -- Heading and text: a rewrite keeps the row (and its vector) of a chunk it did not change.
  hash TEXT NOT NULL,
  heading TEXT NOT NULL,
  text TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  search TSVECTOR NOT NULL,
  embedding_model TEXT,
  UNIQUE (doc_id, hash)
);
CREATE INDEX memory_chunks_search ON memory_chunks USING gin(search);
CREATE TABLE agent_context_files (
  team_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  name TEXT NOT NULL,
  content TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (team_id, agent_id, name)
);
CREATE TABLE user_context_files (
  team_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  name TEXT NOT NULL,
  content TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (team_id, agent_id, user_id, name)
);
${VECTOR_DDL}`,
  },
];

/**
 * Where pgvector's type and operators live when the chunks have a vector column (undefined: no
 * vectors here). A server that got pgvector after the migration ran gets the column now.
 */
export async function vectorSchema(c: ClientBase): Promise<string | undefined> {
  const look = async () => (await c.query<{ ext: string | null; col: boolean }>(
    `SELECT (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector') AS ext,
            EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'memory_chunks'::regclass AND attname = 'embedding' AND NOT attisdropped) AS col`)).rows[0]!;
  let found = await look();
  if (!found.col && (found.ext || (await c.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)).rowCount)) {
    await c.query(VECTOR_DDL);
    found = await look();
  }
  return found.col && found.ext ? found.ext : undefined;
}
