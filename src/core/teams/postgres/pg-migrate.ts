// Versioned migrations of a schema on a shared server. Several editors may connect at the same moment,
// so the one that migrates holds an advisory lock meanwhile and the others wait for it, then find the
// work done. A schema newer than this Pincer knows (a colleague runs a later version) is refused
// rather than used: the old code could break rules the new schema relies on.
import type { ClientBase } from 'pg';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

const quote = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

/** Brings `schema` to the newest of `migrations`, each in its own transaction. Returns the versions applied. */
export async function migrate(client: ClientBase, schema: string, migrations: readonly PgMigration[]): Promise<number[]> {
  const newest = Math.max(0, ...migrations.map((m) => m.version));
  const lock = `pincer-migrate:${schema}`;
  await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [lock]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quote(schema)}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${quote(schema)}.pincer_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${quote(schema)}.pincer_migrations`);
    const have = new Set(rows.map((r) => r.version));
    const latest = Math.max(0, ...have);
    if (latest > newest) {
      throw new Error(`Refused: the team store's schema "${schema}" is at version ${latest}, newer than this Pincer knows (${newest}). Update Pincer to use it; nothing was changed.`);
    }
    const applied: number[] = [];
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (have.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL search_path TO ${quote(schema)}`);
        await client.query(m.sql);
        await client.query(`INSERT INTO ${quote(schema)}.pincer_migrations(version, name) VALUES ($1, $2)`, [m.version, m.name]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new Error(`Team store migration ${m.version} (${m.name}) failed: ${(e as Error).message}`);
      }
      applied.push(m.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lock]).catch(() => undefined);
  }
}
