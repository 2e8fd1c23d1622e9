// What the worker knows about its database: the in-memory copy, where it stands in the durable
// history (epoch + sequence), and its read position in the current journal file.
import * as path from 'node:path';
import type { Database as SqlDb, SqlJsStatic } from 'sql.js';
import { randomHex, writeFileAtomic } from './durable-fs';
import type { FileLock } from './file-lock';
import { encodeHeader, HEADER_LEN, type JournalRecord } from './journal-format';
import { runStatements, setMeta } from './sql-exec';
import type { Migration } from './types';

export interface StoreFiles {
  dir: string;
  snapshot: string;
  journal: string;
  lock: string;
}

export function storeFiles(dir: string): StoreFiles {
  return {
    dir,
    snapshot: path.join(dir, 'pincer.db'),
    journal: path.join(dir, 'pincer.journal'),
    lock: path.join(dir, 'pincer.lock'),
  };
}

export interface StoreState {
  db: SqlDb | null;
  epoch: string;
  seq: number;
  /** The journal file the position below refers to. */
  journalId: string | null;
  journalOffset: number;
  /** Sequence number of the record expected at journalOffset. */
  journalNextSeq: number;
}

export interface StoreContext {
  SQL: SqlJsStatic;
  files: StoreFiles;
  state: StoreState;
  migrations: readonly Migration[];
  lock: FileLock;
  warn: (message: string) => void;
}

export function emptyState(): StoreState {
  return { db: null, epoch: '', seq: 0, journalId: null, journalOffset: 0, journalNextSeq: 0 };
}

export function adopt(ctx: StoreContext, db: SqlDb, epoch: string, seq: number): void {
  if (ctx.state.db && ctx.state.db !== db) ctx.state.db.close();
  Object.assign(ctx.state, { db, epoch, seq, journalId: null, journalOffset: 0, journalNextSeq: 0 });
}

/** Replays one journaled transaction; on failure nothing of it stays and the error is rethrown. */
export function applyRecord(db: SqlDb, rec: JournalRecord): void {
  db.exec('BEGIN');
  try {
    runStatements(db, rec.statements);
    setMeta(db, 'seq', rec.seq);
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
  db.exec('COMMIT');
}

/** A fresh, empty journal continuing from the current state; replaces the old one atomically. */
export function startJournal(ctx: StoreContext): void {
  const journalId = randomHex(8);
  writeFileAtomic(ctx.files.journal, [encodeHeader({ epoch: ctx.state.epoch, journalId, base: ctx.state.seq })]);
  Object.assign(ctx.state, { journalId, journalOffset: HEADER_LEN, journalNextSeq: ctx.state.seq + 1 });
}

/**
 * Folds the journal into a new snapshot (caller holds the lock and has caught up). The snapshot
 * is renamed into place before the new journal: a crash between the two leaves an old journal
 * whose records the snapshot already holds, which a reader skips by sequence number.
 */
export function writeSnapshot(ctx: StoreContext): void {
  const db = ctx.state.db;
  if (!db) throw new Error('no database to snapshot');
  const data = db.export();
  ctx.lock.refresh();
  writeFileAtomic(ctx.files.snapshot, [data], () => ctx.lock.refresh());
  startJournal(ctx);
}
