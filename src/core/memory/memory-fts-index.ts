// The full-text index kept off the write path. A write stores documents and chunks only; the chunks
// above memory_fts_state.indexed_to (ids only grow: AUTOINCREMENT) are indexed later, by this
// module: in the background once this store's writes go quiet, in transactions of INDEX_BATCH chunks
// so a search or a write never waits long behind one, and by every search for whatever is still
// pending, so a search always sees every document written before it began.
//
// Why: FTS4 in this sql.js build indexes about 7,000 chunks a second, a third of what the write
// itself costs, and an import of thousands of documents paid it inside every transaction.
//
// The statements are plain SQL over the database's own state, so they replay the same in every
// window (they are journaled like any write), and indexing twice is harmless: the second finds
// nothing above indexed_to. Removing chunks takes the index entries of indexed chunks only
// (memory-store-write.ts); a chunk removed before it was indexed never had any.
import type { Database, StatementSpec } from '../storage/database';

/** Chunks per background transaction: about a tenth of a second of FTS4 work. */
export const INDEX_BATCH = 1000;

const PENDING = 'SELECT id, heading, text FROM memory_chunks WHERE id > (SELECT indexed_to FROM memory_fts_state) ORDER BY id';

/** Indexes the next `limit` unindexed chunks (all of them without a limit) and moves indexed_to past them. */
export function indexStatements(limit?: number): StatementSpec[] {
  const pending = limit === undefined ? PENDING : `${PENDING} LIMIT ${Math.floor(limit)}`;
  return [
    { sql: `INSERT INTO memory_fts(docid, heading, text) SELECT id, heading, text FROM (${pending})` },
    // indexed_to is still the old value here, so this is the same set of chunks.
    { sql: `UPDATE memory_fts_state SET indexed_to = coalesce((SELECT max(id) FROM (${pending})), indexed_to)` },
  ];
}

/** Whether every chunk is indexed (one indexed lookup: max of the primary key). */
const CURRENT_SQL = 'SELECT coalesce((SELECT max(id) FROM memory_chunks), 0) <= indexed_to AS current FROM memory_fts_state';

export class FtsIndexer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  /** Writes of this store under way: the background pass waits for them to end. */
  private writing = 0;
  private closed = false;

  constructor(private readonly db: Database) {}

  /** Brackets a write: the background pass never competes with a write in progress. */
  async duringWrite<T>(fn: () => Promise<T>): Promise<T> {
    this.writing++;
    try {
      return await fn();
    } finally {
      if (--this.writing === 0) this.schedule();
    }
  }

  /**
   * Asks whether the index is current; the question goes to the storage worker now, ahead of
   * whatever the caller sends next (the worker answers in order), so a search can run beside it
   * and is only repeated when the answer is no.
   */
  isCurrent(): Promise<boolean> {
    return this.db.query<{ current: number }>(CURRENT_SQL).then(([r]) => !!r?.current);
  }

  /** Indexes everything still pending, at once (a search is waiting for it). */
  async catchUp(): Promise<void> {
    await this.db.transaction(indexStatements());
  }

  /** Resolves when nothing is pending: the background pass finished, or the rest indexed now. */
  async settled(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    if (!(await this.isCurrent())) await this.catchUp();
  }

  /** Stops scheduling background passes (the database is closing). */
  dispose(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.running || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.backgroundPass().finally(() => (this.running = undefined));
    }, 0);
    // A pending pass never holds a process open: the next search indexes what it left.
    this.timer.unref?.();
  }

  private async backgroundPass(): Promise<void> {
    try {
      while (!this.writing && !this.closed && !(await this.isCurrent())) await this.db.transaction(indexStatements(INDEX_BATCH));
    } catch {
      // A closed database or a failed write: the next search indexes what is left, and says so if it fails.
    }
  }
}
