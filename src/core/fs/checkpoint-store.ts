// Checkpoints: the original bytes of each file an agent turn touches, kept in the workspace
// database before the turn's first change to that file lands, so "Restore Checkpoint" can put the
// turn's files back. Only touched files are kept (no shadow copy of the workspace), one row per
// (turn, path), and only the newest checkpoints survive pruning.
//
// Decisions:
// - One checkpoint per turn. The first capture of a turn creates it (with its label and time), in
//   the same transaction as its first file, so a checkpoint is never empty.
// - Later captures of a path the turn already kept store nothing: the checkpoint means "before the
//   turn", not "before the last change". Concurrent captures of one path (two calls of one turn)
//   are settled by INSERT OR IGNORE: the first row written wins, and it was written before its
//   change landed, so it holds the original.
// - Files over MAX_CHECKPOINT_FILE_BYTES (10 MB) are not kept: capture reports 'too-large' and
//   stores no row, so restore leaves such a file as it is rather than writing something wrong.
// - Creating a checkpoint prunes to the newest `keep` (default 50) in the same write, so the
//   database cannot grow without bound even when nobody calls prune().
// - The `session` column is reserved for the host (a turn key does not say which session it is
//   from); this store writes NULL there.
import type { Clock } from '../clock';
import { systemClock } from '../clock';
import type { Database, Migration, StatementSpec } from '../storage/database';
import type { WorkspaceFs } from './types';

/** Version 101 and up: the tool log owns the low numbers, and both share one database. */
export const CHECKPOINT_MIGRATIONS: Migration[] = [
  {
    version: 101,
    name: 'checkpoints of the files each turn touched',
    sql: `CREATE TABLE checkpoints (
            id INTEGER PRIMARY KEY,
            turn TEXT NOT NULL UNIQUE,
            session TEXT,
            created_at INTEGER NOT NULL,
            label TEXT NOT NULL
          );
          CREATE TABLE checkpoint_files (
            checkpoint_id INTEGER NOT NULL,
            path TEXT NOT NULL,
            existed INTEGER NOT NULL,
            content BLOB,
            UNIQUE(checkpoint_id, path)
          );`,
  },
];

/** Bigger files are not kept (a generated bundle, a database, a video): restore leaves them alone. */
export const MAX_CHECKPOINT_FILE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_CHECKPOINT_KEEP = 50;

export interface CheckpointSummary {
  id: number;
  turn: string;
  /** Epoch milliseconds of the turn's first capture. */
  createdAt: number;
  label: string;
  /** Absolute paths, in the order the turn first touched them. */
  files: string[];
}

export interface CheckpointFile {
  path: string;
  /** false: the turn created the file, so restoring deletes it. */
  existed: boolean;
  /** The original bytes; present whenever existed is true (empty for an empty file). */
  content?: Uint8Array;
}

/** 'already-kept': the turn kept this path before; 'too-large': over the limit, nothing stored. */
export type CaptureOutcome = 'kept' | 'already-kept' | 'too-large';

export interface CheckpointStoreOptions {
  /** How many checkpoints creating a new one leaves (default 50). */
  keep?: number;
}

function pruneStatements(keep: number): StatementSpec[] {
  const newest = 'SELECT id FROM checkpoints ORDER BY id DESC LIMIT ?';
  return [
    { sql: `DELETE FROM checkpoint_files WHERE checkpoint_id NOT IN (${newest})`, params: [keep] },
    { sql: `DELETE FROM checkpoints WHERE id NOT IN (${newest})`, params: [keep] },
  ];
}

function keepCount(keep: number): number {
  if (!Number.isSafeInteger(keep) || keep < 0) throw new RangeError(`keep must be a whole number of checkpoints ≥ 0, not ${keep}`);
  return keep;
}

export class CheckpointStore {
  private readonly keep: number;

  constructor(private readonly db: Database, private readonly clock: Clock = systemClock, options: CheckpointStoreOptions = {}) {
    this.keep = keepCount(options.keep ?? DEFAULT_CHECKPOINT_KEEP);
  }

  /**
   * Before a change lands: the first time a turn touches a path, keep its current bytes (or that it
   * did not exist: `read` returns undefined). Later changes in the same turn keep nothing more, and
   * `read` is not called for them. Errors (storage, read) are thrown to the caller.
   */
  async capture(turn: string, label: string, abs: string, read: () => Promise<Uint8Array | undefined>): Promise<CaptureOutcome> {
    const rows = await this.db.query<{ id: number; kept: number }>(
      'SELECT c.id AS id, EXISTS (SELECT 1 FROM checkpoint_files f WHERE f.checkpoint_id = c.id AND f.path = ?) AS kept FROM checkpoints c WHERE c.turn = ?',
      [abs, turn],
    );
    if (rows[0]?.kept) return 'already-kept';
    const bytes = await read();
    if (bytes && bytes.byteLength > MAX_CHECKPOINT_FILE_BYTES) return 'too-large';
    // Always (re)creates the checkpoint if missing: another window may have pruned it since the query.
    const statements: StatementSpec[] = [
      { sql: 'INSERT OR IGNORE INTO checkpoints(turn, session, created_at, label) VALUES (?, NULL, ?, ?)', params: [turn, this.clock.now(), label] },
    ];
    statements.push({
      sql: 'INSERT OR IGNORE INTO checkpoint_files(checkpoint_id, path, existed, content) SELECT id, ?, ?, ? FROM checkpoints WHERE turn = ?',
      params: [abs, bytes ? 1 : 0, bytes ?? null, turn],
    });
    if (!rows.length) statements.push(...pruneStatements(this.keep));
    await this.db.transaction(statements);
    return 'kept';
  }

  /** The newest checkpoints first, each with its files. */
  async list(limit = DEFAULT_CHECKPOINT_KEEP): Promise<CheckpointSummary[]> {
    const rows = await this.db.query<{ id: number; turn: string; created_at: number; label: string; path: string | null }>(
      `SELECT c.id AS id, c.turn AS turn, c.created_at AS created_at, c.label AS label, f.path AS path
         FROM (SELECT * FROM checkpoints ORDER BY id DESC LIMIT ?) c
         LEFT JOIN checkpoint_files f ON f.checkpoint_id = c.id
        ORDER BY c.id DESC, f.rowid`,
      [Math.max(0, Math.floor(limit))],
    );
    const out: CheckpointSummary[] = [];
    for (const r of rows) {
      let cur = out[out.length - 1];
      if (cur?.id !== r.id) {
        cur = { id: r.id, turn: r.turn, createdAt: r.created_at, label: r.label, files: [] };
        out.push(cur);
      }
      if (r.path !== null) cur.files.push(r.path);
    }
    return out;
  }

  /** The kept originals of one checkpoint, in the order the turn touched them; [] for an unknown id. */
  async files(id: number): Promise<CheckpointFile[]> {
    const rows = await this.db.query<{ path: string; existed: number; content: Uint8Array | null }>(
      'SELECT path, existed, content FROM checkpoint_files WHERE checkpoint_id = ? ORDER BY rowid',
      [id],
    );
    return rows.map((r) => (r.existed
      ? { path: r.path, existed: true, content: r.content ?? new Uint8Array(0) }
      : { path: r.path, existed: false }));
  }

  /** Keeps the newest `keep` checkpoints and deletes older ones with their files. */
  async prune(keep = DEFAULT_CHECKPOINT_KEEP): Promise<void> {
    await this.db.transaction(pruneStatements(keepCount(keep)));
  }
}

export interface RestoreReport {
  /** Files written back with their original bytes. */
  restored: string[];
  /** Files the turn had created, removed. */
  deleted: string[];
  /** Files that already held their original content (or, for created ones, were already gone). */
  unchanged: string[];
  /** Files that could not be restored, with why; the others were restored regardless. */
  skipped: { path: string; reason: string }[];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/**
 * Puts a checkpoint's files back through `fs` (the CLI and tests; the extension restores through
 * its own command). A created file is deleted only while it is still a file: a folder that now
 * stands at its path is left alone. One file failing does not stop the others. The paths are the
 * canonical ones the path guard returned at capture time; they are not checked again here.
 */
export async function restoreCheckpoint(store: CheckpointStore, id: number, fs: WorkspaceFs): Promise<RestoreReport> {
  const report: RestoreReport = { restored: [], deleted: [], unchanged: [], skipped: [] };
  for (const f of await store.files(id)) {
    try {
      const st = await fs.stat(f.path);
      if (!f.existed) {
        if (!st) report.unchanged.push(f.path);
        else if (st.type !== 'file') report.skipped.push({ path: f.path, reason: `a ${st.type} now stands where the turn created a file` });
        else {
          await fs.delete(f.path);
          report.deleted.push(f.path);
        }
        continue;
      }
      const content = f.content ?? new Uint8Array(0);
      if (st?.type === 'file' && sameBytes(await fs.readFile(f.path), content)) {
        report.unchanged.push(f.path);
        continue;
      }
      if (st && st.type !== 'file') {
        report.skipped.push({ path: f.path, reason: `a ${st.type} now stands where the file was` });
        continue;
      }
      await fs.writeFile(f.path, content);
      report.restored.push(f.path);
    } catch (e) {
      report.skipped.push({ path: f.path, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  return report;
}
