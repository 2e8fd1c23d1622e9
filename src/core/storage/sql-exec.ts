// Running statements against the in-memory sql.js database, with the guards that keep the
// journal the single source of truth: no transaction control inside a journaled write, and
// reads that cannot change anything.
import type { Database as SqlDb, Statement } from 'sql.js';
import { registerBm25Functions } from '../memory/bm25';
import type { RunResult, SqlValue, StatementSpec } from './types';

/** Statements that would break the one-record-per-transaction contract or touch other files. */
const FORBIDDEN = /^(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|ATTACH|DETACH|VACUUM)\b/i;

function firstKeyword(sql: string): string {
  let s = sql;
  for (;;) {
    const t = s.replace(/^\s+/, '');
    if (t.startsWith('--')) s = t.slice(t.indexOf('\n') < 0 ? t.length : t.indexOf('\n'));
    else if (t.startsWith('/*')) s = t.slice(t.indexOf('*/') < 0 ? t.length : t.indexOf('*/') + 2);
    else return t;
  }
}

function guard(stmt: Statement): void {
  const m = FORBIDDEN.exec(firstKeyword(stmt.getSQL()));
  if (m) throw new Error(`${m[1].toUpperCase()} is not allowed here: the storage layer manages transactions`);
}

export function checkParams(params: unknown): SqlValue[] | undefined {
  if (params === undefined) return undefined;
  if (!Array.isArray(params)) throw new TypeError('params must be an array');
  for (const p of params) {
    const ok = p === null || typeof p === 'string' || typeof p === 'number' || p instanceof Uint8Array;
    if (!ok) throw new TypeError(`unsupported parameter type: ${typeof p}`);
  }
  return params as SqlValue[];
}

function execOne(db: SqlDb, spec: StatementSpec): void {
  let count = 0;
  for (const stmt of db.iterateStatements(spec.sql)) {
    guard(stmt);
    if (spec.params && count > 0) throw new Error('params were given for SQL holding several statements');
    if (spec.params) stmt.bind(spec.params);
    while (stmt.step()) {
      // Rows of a write statement (RETURNING) are not reported.
    }
    count++;
  }
}

/** Runs the statements inside the caller's open transaction. */
export function runStatements(db: SqlDb, specs: readonly StatementSpec[]): RunResult {
  for (const spec of specs) execOne(db, spec);
  const changes = db.getRowsModified();
  const rowid = db.exec('SELECT last_insert_rowid()')[0].values[0][0];
  return { changes, lastInsertRowid: Number(rowid) };
}

/** One read statement; wrapped in a transaction that is always rolled back, so it cannot write. */
export function runQuery(db: SqlDb, sql: string, params?: SqlValue[]): Record<string, SqlValue>[] {
  const rows: Record<string, SqlValue>[] = [];
  db.exec('BEGIN');
  try {
    let count = 0;
    for (const stmt of db.iterateStatements(sql)) {
      guard(stmt);
      if (++count > 1) throw new Error('query takes one statement');
      if (params) stmt.bind(params);
      while (stmt.step()) rows.push(stmt.getAsObject() as Record<string, SqlValue>);
    }
  } finally {
    db.exec('ROLLBACK');
  }
  return rows;
}

// The meta table travels inside every snapshot, so a snapshot says which journal record it holds.
const META = '_pincer_meta';
export const MIGRATIONS_TABLE = '_pincer_migrations';

export function createMeta(db: SqlDb, epoch: string): void {
  db.exec(`CREATE TABLE ${META}(key TEXT PRIMARY KEY, value NOT NULL);
    CREATE TABLE ${MIGRATIONS_TABLE}(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);`);
  db.run(`INSERT INTO ${META}(key, value) VALUES ('epoch', ?), ('seq', 0)`, [epoch]);
}

export function readMeta(db: SqlDb): { epoch: string; seq: number } | null {
  try {
    const rows = db.exec(`SELECT key, value FROM ${META} WHERE key IN ('epoch', 'seq')`);
    const map = new Map((rows[0]?.values ?? []).map((r) => [r[0], r[1]]));
    const epoch = map.get('epoch');
    const seq = map.get('seq');
    if (typeof epoch !== 'string' || !/^[0-9a-f]{16}$/.test(epoch) || typeof seq !== 'number' || !Number.isSafeInteger(seq)) return null;
    return { epoch, seq };
  } catch {
    return null;
  }
}

export function setMeta(db: SqlDb, key: 'epoch' | 'seq', value: string | number): void {
  db.run(`UPDATE ${META} SET value = ? WHERE key = ?`, [value, key]);
}

/** Per-connection settings, applied identically wherever the history is replayed. */
export function configureConnection(db: SqlDb): void {
  db.exec('PRAGMA foreign_keys = ON');
  // Ranking for memory search: pure functions, so replaying a journal anywhere gives the same result.
  registerBm25Functions(db);
}
