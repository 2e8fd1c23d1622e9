// Versioned schema migrations: each runs once, in version order, as one journaled transaction
// that also records it in the migrations table.
import type { Database as SqlDb } from 'sql.js';
import { MIGRATIONS_TABLE } from './sql-exec';
import type { Migration, StatementSpec } from './types';

export function validateMigrations(migrations: readonly Migration[]): Migration[] {
  const seen = new Set<number>();
  for (const m of migrations) {
    if (!Number.isSafeInteger(m.version) || m.version < 1) throw new Error(`migration version must be a positive integer: ${m.version}`);
    if (seen.has(m.version)) throw new Error(`duplicate migration version ${m.version}`);
    if (typeof m.name !== 'string' || typeof m.sql !== 'string') throw new Error(`migration ${m.version} needs a name and sql`);
    seen.add(m.version);
  }
  return [...migrations].sort((a, b) => a.version - b.version).map((m) => ({ version: m.version, name: m.name, sql: m.sql }));
}

export function migrationStatements(m: Migration, appliedAt: string): StatementSpec[] {
  return [
    { sql: m.sql },
    { sql: `INSERT INTO ${MIGRATIONS_TABLE}(version, name, applied_at) VALUES (?, ?, ?)`, params: [m.version, m.name, appliedAt] },
  ];
}

/** Migrations not yet in the database; warns about versions only a newer Pincer knows. */
export function pendingMigrations(db: SqlDb, migrations: readonly Migration[], warn: (m: string) => void): Migration[] {
  const rows = db.exec(`SELECT version, name FROM ${MIGRATIONS_TABLE}`)[0]?.values ?? [];
  const applied = new Map(rows.map((r) => [Number(r[0]), String(r[1])]));
  const known = new Set(migrations.map((m) => m.version));
  const unknown = [...applied.keys()].filter((v) => !known.has(v));
  if (unknown.length) {
    warn(`Pincer storage: the database has schema version(s) ${unknown.join(', ')} from a newer Pincer; continuing with the versions this one knows.`);
  }
  return migrations.filter((m) => !applied.has(m.version));
}
