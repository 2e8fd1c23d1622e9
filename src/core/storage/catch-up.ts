// Bringing the in-memory database up to the durable state: other windows' journal records,
// a snapshot another window wrote, and (only while holding the lock) repairs.
import { keepAside, randomHex, sleepSync } from './durable-fs';
import { JournalReader, truncateDurably } from './journal-file';
import { HEADER_LEN, type JournalHeader } from './journal-format';
import { recover } from './recovery';
import { createEmptyDb, loadSnapshot } from './snapshot-file';
import { setMeta } from './sql-exec';
import { adopt, applyRecord, startJournal, writeSnapshot, type StoreContext } from './store-context';

type Step = 'ok' | 'retry' | 'needs-lock';

/**
 * Catches up. Without the lock it only reads, and answers 'needs-lock' when what it found needs a
 * repair (or keeps changing under it); with the lock it always ends with a working database.
 */
export function catchUp(ctx: StoreContext, locked: boolean): 'ok' | 'needs-lock' {
  for (let attempt = 0; attempt < 4; attempt++) {
    const step = catchUpOnce(ctx, locked);
    if (step !== 'retry') return step;
    // Unlocked, another window may be between its two renames: look again, then give it a moment.
    if (!locked && attempt > 0) sleepSync(5 * attempt);
  }
  if (!locked) return 'needs-lock';
  recover(ctx, 'the snapshot and the journal do not fit together');
  return 'ok';
}

function catchUpOnce(ctx: StoreContext, locked: boolean): Step {
  const j = JournalReader.open(ctx.files.journal);
  if (!j) {
    if (!locked) return 'needs-lock';
    onMissingJournal(ctx);
    return 'ok';
  }
  try {
    if (!j.header) {
      if (!locked) return 'needs-lock';
      recover(ctx, 'the journal header is damaged');
      return 'ok';
    }
    const positioned = position(ctx, j.header, locked);
    if (positioned !== 'ok') return positioned;
    return replay(ctx, j, locked);
  } finally {
    j.close();
  }
}

/** Makes state.journalId/journalOffset point into this journal, loading the snapshot if needed. */
function position(ctx: StoreContext, h: JournalHeader, locked: boolean): Step {
  const s = ctx.state;
  if (s.db && s.epoch === h.epoch && s.journalId === h.journalId) return 'ok';
  if (!(s.db && s.epoch === h.epoch && s.seq >= h.base)) {
    const snap = loadSnapshot(ctx.SQL, ctx.files.snapshot);
    if (snap.kind === 'missing' && h.base === 0) {
      adopt(ctx, createEmptyDb(ctx.SQL, h.epoch), h.epoch, 0);
    } else if (snap.kind === 'ok' && snap.epoch === h.epoch && snap.seq >= h.base) {
      adopt(ctx, snap.db, snap.epoch, snap.seq);
    } else {
      if (snap.kind === 'ok') snap.db.close();
      // Without the lock this may be another window between renaming its snapshot and its journal.
      if (!locked) return 'retry';
      recover(ctx, snap.kind === 'ok' ? 'the snapshot does not match the journal' : snapshotProblem(snap));
      return 'ok';
    }
  }
  Object.assign(s, { journalId: h.journalId, journalOffset: HEADER_LEN, journalNextSeq: h.base + 1 });
  return 'ok';
}

function snapshotProblem(snap: { kind: 'missing' } | { kind: 'corrupt'; problem: string }): string {
  return snap.kind === 'missing' ? 'the snapshot file is missing' : snap.problem;
}

function replay(ctx: StoreContext, j: JournalReader, locked: boolean): Step {
  const s = ctx.state;
  if (s.journalId !== j.header?.journalId) return 'retry'; // recovered just now: a new journal is in place
  const scan = j.scan(s.journalOffset, s.journalNextSeq);
  for (let i = 0; i < scan.records.length; i++) {
    const rec = scan.records[i];
    if (rec.seq > s.seq) {
      try {
        applyRecord(s.db!, rec);
      } catch (err) {
        if (!locked) return 'needs-lock';
        recover(ctx, `journal record ${rec.seq} could not be replayed (${err instanceof Error ? err.message : String(err)})`);
        return 'ok';
      }
      s.seq = rec.seq;
    }
    s.journalOffset = scan.ends[i];
    s.journalNextSeq = rec.seq + 1;
  }
  if (s.seq >= s.journalNextSeq) {
    // This window holds records the journal does not: start over from the snapshot.
    s.journalId = null;
    s.epoch = '';
    return 'retry';
  }
  if (scan.tail === 'corrupt') {
    if (!locked) return 'needs-lock';
    recover(ctx, `the journal is damaged at byte ${scan.validEnd} (${scan.problem})`);
  } else if (scan.tail === 'incomplete' && locked) {
    discardTornTail(ctx, j, scan.validEnd);
  }
  return 'ok';
}

/** Under the lock, bytes past the last intact record are a write that died before it was confirmed. */
function discardTornTail(ctx: StoreContext, j: JournalReader, validEnd: number): void {
  const tail = j.read(validEnd);
  const kept = keepAside(ctx.files.journal, 'torn', tail);
  truncateDurably(ctx.files.journal, validEnd);
  ctx.warn(`Pincer storage: discarded an unfinished write (${tail.length} bytes) that an earlier session never confirmed; kept at ${kept}.`);
}

function onMissingJournal(ctx: StoreContext): void {
  const snap = loadSnapshot(ctx.SQL, ctx.files.snapshot);
  if (snap.kind === 'missing') {
    const epoch = randomHex(8);
    adopt(ctx, createEmptyDb(ctx.SQL, epoch), epoch, 0);
    writeSnapshot(ctx);
  } else if (snap.kind === 'corrupt') {
    recover(ctx, `${snap.problem}, and the journal is missing`);
  } else if (snap.seq === 0) {
    adopt(ctx, snap.db, snap.epoch, 0);
    startJournal(ctx);
  } else {
    // Another window may hold records of the vanished journal: a new epoch makes it reload.
    const epoch = randomHex(8);
    setMeta(snap.db, 'epoch', epoch);
    adopt(ctx, snap.db, epoch, snap.seq);
    writeSnapshot(ctx);
    ctx.warn('Pincer storage: the journal file was missing; the database was restored from its last snapshot, and writes made after it may be lost.');
  }
}
