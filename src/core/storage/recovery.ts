// Repair under the lock when the snapshot or the journal is damaged or they disagree: keep
// copies aside, rebuild what can be rebuilt, write it as a new snapshot in a new epoch (so every
// other window reloads instead of mixing histories), and tell the user.
import * as fs from 'node:fs';
import type { Database as SqlDb } from 'sql.js';
import { keepAside, randomHex } from './durable-fs';
import { decodeHeader, HEADER_LEN, salvageRecords, scanRecords, type JournalHeader, type JournalRecord } from './journal-format';
import { migrationStatements } from './migrations';
import { createEmptyDb, loadSnapshot } from './snapshot-file';
import { runStatements, setMeta } from './sql-exec';
import { adopt, writeSnapshot, type StoreContext } from './store-context';

interface Salvaged {
  header: JournalHeader | null;
  /** Records that follow the header without a gap. */
  prefix: JournalRecord[];
  /** Intact records found after damage; they may not follow the prefix exactly. */
  rest: JournalRecord[];
}

function readJournalForRecovery(file: string): Salvaged | null {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const header = decodeHeader(buf.subarray(0, HEADER_LEN));
  if (!header) return { header, prefix: [], rest: salvageRecords(buf, 0, 0, 0) };
  const scan = scanRecords(buf, 0, HEADER_LEN, header.base + 1);
  const last = scan.records.length ? scan.records[scan.records.length - 1].seq : header.base;
  const rest = scan.tail === 'clean' ? [] : salvageRecords(buf, 0, scan.validEnd, last);
  return { header, prefix: scan.records, rest };
}

interface ReplayCount {
  seq: number;
  applied: number;
  failed: number;
}

/** Each record on its own: one that fails is rolled back and skipped, the others still land. */
function replayBestEffort(db: SqlDb, records: readonly JournalRecord[], count: ReplayCount): void {
  for (const rec of records) {
    if (rec.seq <= count.seq) continue;
    db.exec('BEGIN');
    try {
      runStatements(db, rec.statements);
      db.exec('COMMIT');
      count.applied++;
    } catch {
      db.exec('ROLLBACK');
      count.failed++;
    }
    count.seq = rec.seq;
  }
}

function applyMigrationsInMemory(ctx: StoreContext, db: SqlDb): void {
  const appliedAt = new Date().toISOString();
  for (const m of [...ctx.migrations].sort((a, b) => a.version - b.version)) {
    db.exec('BEGIN');
    try {
      runStatements(db, migrationStatements(m, appliedAt));
      db.exec('COMMIT');
    } catch {
      db.exec('ROLLBACK');
    }
  }
}

export function recover(ctx: StoreContext, reason: string): void {
  const kept: string[] = [];
  const journal = readJournalForRecovery(ctx.files.journal);
  const snap = loadSnapshot(ctx.SQL, ctx.files.snapshot);
  const h = journal?.header ?? null;
  const all = journal ? [...journal.prefix, ...journal.rest] : [];
  let db: SqlDb;
  let basis: string;
  const count: ReplayCount = { seq: 0, applied: 0, failed: 0 };

  if (snap.kind === 'ok' && h && h.epoch !== snap.epoch) {
    // A different history: the snapshot is the newer one (a repair writes it before its journal).
    db = snap.db;
    count.seq = snap.seq;
    basis = 'the last snapshot (the journal belonged to an older history)';
  } else if (snap.kind === 'ok') {
    db = snap.db;
    count.seq = snap.seq;
    basis = 'the last snapshot';
    if (h && snap.seq < h.base) kept.push(keepAside(ctx.files.snapshot, 'stale'));
    replayBestEffort(db, all, count);
  } else {
    if (snap.kind === 'corrupt') kept.push(keepAside(ctx.files.snapshot, 'corrupt'));
    db = createEmptyDb(ctx.SQL, randomHex(8));
    if (h && h.base === 0) {
      basis = 'the journal alone';
    } else {
      // The journal continues a snapshot that is lost: recreate the schema, then add what it holds.
      applyMigrationsInMemory(ctx, db);
      basis = 'an empty database with the current schema';
    }
    replayBestEffort(db, all, count);
  }
  if (journal) kept.push(keepAside(ctx.files.journal, 'corrupt'));

  const epoch = randomHex(8);
  setMeta(db, 'epoch', epoch);
  setMeta(db, 'seq', count.seq);
  adopt(ctx, db, epoch, count.seq);
  writeSnapshot(ctx);

  const failed = count.failed ? `, ${count.failed} could not be replayed` : '';
  const copies = kept.length ? ` Copies of the damaged files: ${kept.join(', ')}.` : '';
  ctx.warn(`Pincer storage: ${reason}. The database was rebuilt from ${basis} plus ${count.applied} journal record(s)${failed}.${copies}`);
}
