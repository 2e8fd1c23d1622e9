// pincer.db: the whole database as of one journal sequence number, replaced atomically.
import * as fs from 'node:fs';
import type { Database as SqlDb, SqlJsStatic } from 'sql.js';
import { configureConnection, createMeta, readMeta } from './sql-exec';

export type LoadedSnapshot =
  | { kind: 'missing' }
  | { kind: 'corrupt'; problem: string }
  | { kind: 'ok'; db: SqlDb; epoch: string; seq: number };

export function loadSnapshot(SQL: SqlJsStatic, file: string): LoadedSnapshot {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  if (bytes.length === 0) return { kind: 'corrupt', problem: 'the snapshot is damaged: the file is empty' };
  let db: SqlDb | undefined;
  try {
    db = new SQL.Database(bytes);
    const check = db.exec('PRAGMA quick_check');
    const verdict = check[0]?.values.map((r) => String(r[0])) ?? [];
    if (verdict.length !== 1 || verdict[0] !== 'ok') throw new Error(verdict.slice(0, 3).join('; ') || 'integrity check failed');
    const meta = readMeta(db);
    if (!meta) throw new Error('it is not a Pincer database (no meta table)');
    configureConnection(db);
    return { kind: 'ok', db, epoch: meta.epoch, seq: meta.seq };
  } catch (err) {
    db?.close();
    return { kind: 'corrupt', problem: `the snapshot is damaged: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function createEmptyDb(SQL: SqlJsStatic, epoch: string): SqlDb {
  const db = new SQL.Database();
  createMeta(db, epoch);
  configureConnection(db);
  return db;
}
