// The storage engine inside the worker: every write takes the cross-process lock, catches up,
// runs in one SQL transaction, and is acknowledged only once its journal record is on disk.
import * as fs from 'node:fs';
import type { SqlJsStatic } from 'sql.js';
import { catchUp } from './catch-up';
import { removeLeftoverTemps } from './durable-fs';
import { FileLock } from './file-lock';
import { appendDurably, truncateDurably } from './journal-file';
import { encodeRecord, HEADER_LEN } from './journal-format';
import { migrationStatements, pendingMigrations, validateMigrations } from './migrations';
import { checkParams, runQuery, runStatements, setMeta } from './sql-exec';
import { IDLE_FOLD_MS, snapshotDue } from './snapshot-policy';
import { emptyState, storeFiles, writeSnapshot, type StoreContext } from './store-context';
import type { Migration, RunResult, SqlValue, StatementSpec } from './types';

export interface EngineOptions {
  dir: string;
  migrations: readonly Migration[];
  snapshotThresholdBytes: number;
  lockStaleMs: number;
  lockTimeoutMs: number;
  warn: (message: string) => void;
}

export class StorageEngine {
  private readonly ctx: StoreContext;
  private readonly threshold: number;
  /** When this window last read or wrote (performance.now()): the idle fold waits for a pause. */
  private lastActivity = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private idleFoldFailing = false;

  constructor(SQL: SqlJsStatic, opts: EngineOptions) {
    const files = storeFiles(opts.dir);
    const lock = new FileLock(files.lock, { staleMs: opts.lockStaleMs, timeoutMs: opts.lockTimeoutMs, warn: opts.warn });
    this.ctx = { SQL, files, state: emptyState(), migrations: validateMigrations(opts.migrations), lock, warn: opts.warn };
    this.threshold = opts.snapshotThresholdBytes;
  }

  open(): void {
    fs.mkdirSync(this.ctx.files.dir, { recursive: true });
    this.withLock(() => {
      // Under the lock no one else is mid-write, so any temp file is a dead writer's.
      removeLeftoverTemps(this.ctx.files.dir, ['pincer.db', 'pincer.journal']);
      FileLock.removeOrphans(this.ctx.files.lock);
      catchUp(this.ctx, true);
      const db = this.ctx.state.db!;
      const appliedAt = new Date().toISOString();
      for (const m of pendingMigrations(db, this.ctx.migrations, this.ctx.warn)) {
        try {
          this.writeOneLocked(migrationStatements(m, appliedAt));
        } catch (err) {
          throw new Error(`migration ${m.version} (${m.name}) failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    });
  }

  write(specs: readonly StatementSpec[]): RunResult {
    const [result] = this.writeGroup([specs]);
    if (result instanceof Error) throw result;
    return result;
  }

  /**
   * Group commit: the writes of several callers (each a list of statements that lands whole or not
   * at all) under one lock, one catch-up, one SQL transaction and one journal record, so they share
   * one fsync. Each write succeeds or fails on its own; the results are in the order given.
   */
  writeGroup(writes: readonly (readonly StatementSpec[])[]): (RunResult | Error)[] {
    const cleaned = writes.map((specs) => {
      try {
        return specs.map((s) => {
          if (!s || typeof s.sql !== 'string') throw new TypeError('each statement needs sql');
          const params = checkParams(s.params);
          return params ? { sql: s.sql, params } : { sql: s.sql };
        });
      } catch (err) {
        return asError(err);
      }
    });
    if (!cleaned.some((c) => !(c instanceof Error) && c.length > 0)) return cleaned.map((c) => (c instanceof Error ? c : { changes: 0, lastInsertRowid: 0 }));
    this.lastActivity = performance.now();
    const results = this.withLock(() => {
      catchUp(this.ctx, true);
      return this.writeLocked(cleaned);
    });
    this.armIdleFold();
    return results;
  }

  query(sql: string, params?: SqlValue[]): Record<string, SqlValue>[] {
    const clean = checkParams(params);
    this.lastActivity = performance.now();
    if (catchUp(this.ctx, false) === 'needs-lock') this.withLock(() => catchUp(this.ctx, true));
    return runQuery(this.ctx.state.db!, sql, clean);
  }

  snapshot(): void {
    this.withLock(() => {
      catchUp(this.ctx, true);
      writeSnapshot(this.ctx);
    });
  }

  /**
   * True when the journal, as far as this window last saw it, should be folded right away, even
   * with writes still coming (snapshot-policy.ts); a journal merely past the threshold is folded
   * by the idle fold instead, once this window pauses.
   */
  wantsSnapshot(): boolean {
    return this.due() === 'now';
  }

  /** Snapshots unless another window already did since this one last looked. */
  snapshotIfDue(): void {
    this.foldIf((due) => due === 'now');
  }

  private due(): ReturnType<typeof snapshotDue> {
    const journal = this.ctx.state.journalOffset;
    // The database's size is read only once the journal is long enough for it to matter.
    return journal > this.threshold ? snapshotDue(journal, this.databaseBytes(), this.threshold) : 'no';
  }

  private databaseBytes(): number {
    const db = this.ctx.state.db;
    if (!db) return 0;
    const [pages] = db.exec('PRAGMA page_count')[0]?.values[0] ?? [];
    const [size] = db.exec('PRAGMA page_size')[0]?.values[0] ?? [];
    return Number(pages) * Number(size);
  }

  private foldIf(wanted: (due: ReturnType<typeof snapshotDue>) => boolean): void {
    if (!wanted(this.due())) return;
    this.withLock(() => {
      catchUp(this.ctx, true);
      if (wanted(this.due())) writeSnapshot(this.ctx);
    });
  }

  /**
   * After a write that left the journal past the threshold: folds it once this window has neither
   * read nor written for IDLE_FOLD_MS. A timer callback runs between the worker's requests, never
   * inside one. A failure is said once per failing streak and retried after the next write.
   */
  private armIdleFold(): void {
    if (this.idleTimer || this.due() === 'no') return;
    const check = (): void => {
      const quiet = performance.now() - this.lastActivity;
      if (!this.ctx.state.db) {
        this.idleTimer = undefined;
        return;
      }
      if (quiet < IDLE_FOLD_MS) {
        this.idleTimer = setTimeout(check, IDLE_FOLD_MS - quiet);
        return;
      }
      this.idleTimer = undefined;
      try {
        this.foldIf((due) => due !== 'no');
        this.idleFoldFailing = false;
      } catch (err) {
        if (!this.idleFoldFailing) {
          this.ctx.warn(`Pincer storage: a snapshot failed and will be retried; writes stay durable in the journal: ${err instanceof Error ? err.message : String(err)}`);
        }
        this.idleFoldFailing = true;
      }
    };
    this.idleTimer = setTimeout(check, IDLE_FOLD_MS);
  }

  /**
   * Folds the journal at close only when it is worth it (replaying a short one at open is
   * cheaper); a failure here loses nothing, since the journal holds every write.
   */
  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    try {
      if (this.ctx.state.db && this.ctx.state.journalOffset - HEADER_LEN > this.threshold / 8) this.snapshot();
    } catch (err) {
      this.ctx.warn(`Pincer storage: the closing snapshot failed (${err instanceof Error ? err.message : String(err)}); the journal still holds every write.`);
    } finally {
      this.ctx.state.db?.close();
      this.ctx.state.db = null;
    }
  }

  private withLock<T>(fn: () => T): T {
    this.ctx.lock.acquire();
    try {
      return fn();
    } finally {
      this.ctx.lock.release();
    }
  }

  /** One write by itself (the migrations): throws its error. */
  private writeOneLocked(specs: readonly StatementSpec[]): RunResult {
    const [result] = this.writeLocked([[...specs]]);
    if (result instanceof Error) throw result;
    return result;
  }

  /**
   * Caller holds the lock and has caught up; the record is durable before the commit is. Each write
   * runs in a savepoint of its own, so a failing one is undone alone and left out of the record.
   */
  private writeLocked(writes: readonly (StatementSpec[] | Error)[]): (RunResult | Error)[] {
    const s = this.ctx.state;
    const db = s.db!;
    const seq = s.seq + 1;
    const results: (RunResult | Error)[] = [];
    const landed: StatementSpec[] = [];
    db.exec('BEGIN');
    try {
      for (const w of writes) {
        if (w instanceof Error || w.length === 0) {
          results.push(w instanceof Error ? w : { changes: 0, lastInsertRowid: 0 });
          continue;
        }
        db.exec('SAVEPOINT pincer_write');
        try {
          results.push(runStatements(db, w));
          db.exec('RELEASE pincer_write');
          landed.push(...w);
        } catch (err) {
          db.exec('ROLLBACK TO pincer_write');
          db.exec('RELEASE pincer_write');
          results.push(asError(err));
        }
      }
      if (landed.length) setMeta(db, 'seq', seq);
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
    if (!landed.length) {
      db.exec('ROLLBACK');
      return results;
    }
    const bytes = encodeRecord({ seq, statements: landed });
    try {
      appendDurably(this.ctx.files.journal, s.journalOffset, bytes);
    } catch (err) {
      db.exec('ROLLBACK');
      try {
        truncateDurably(this.ctx.files.journal, s.journalOffset);
      } catch {
        // The next writer treats the partial record as a torn tail.
      }
      // Every write that would have landed fails with the disk's error; the others keep their own.
      return results.map((r) => (r instanceof Error ? r : asError(err)));
    }
    db.exec('COMMIT');
    s.seq = seq;
    s.journalOffset += bytes.length;
    s.journalNextSeq = seq + 1;
    return results;
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
