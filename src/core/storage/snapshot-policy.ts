// When the journal is folded into a new snapshot. A snapshot costs the whole database (export,
// write, fsync), whatever the journal holds; replaying the journal at the next open costs what
// the writes in it cost. Folding every `threshold` bytes during a long import made it pay for the
// whole database again and again (four exports of 20 to 80 MB for a 26 MB import). So:
// - past the threshold, the journal is folded once the writes pause (the worker is idle), which is
//   when nothing waits behind the snapshot;
// - while writes keep coming, only once the journal is as large as the database, and at most
//   MAX_DEFERRED thresholds: each snapshot then follows at least its own size of writes (the cost is
//   proportional to what was written), and the replay after a crash mid-stream stays bounded.
// Durability does not depend on any of this: every write is in the journal, fsynced, before it is
// acknowledged.

/** How many thresholds of journal a stream of writes may leave unfolded at most. */
export const MAX_DEFERRED = 4;
/** How long the worker must have been idle before a due snapshot is taken (ms). */
export const IDLE_FOLD_MS = 250;

export type SnapshotDue = 'no' | 'when-idle' | 'now';

/**
 * journalBytes: the journal's length (its header included); databaseBytes: the database's size now;
 * threshold: the configured snapshot threshold.
 */
export function snapshotDue(journalBytes: number, databaseBytes: number, threshold: number): SnapshotDue {
  if (!(journalBytes > threshold)) return 'no';
  const size = Number.isFinite(databaseBytes) ? databaseBytes : 0;
  const deferUpTo = Math.max(threshold, Math.min(size, MAX_DEFERRED * threshold));
  return journalBytes > deferUpTo ? 'now' : 'when-idle';
}
