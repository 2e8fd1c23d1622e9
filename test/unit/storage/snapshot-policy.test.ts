import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Database } from '../../../src/core/storage/database';
import { MAX_DEFERRED, snapshotDue } from '../../../src/core/storage/snapshot-policy';
import { removeTempDirs, STORAGE_CHILD, STORAGE_WORKER, tempDir, TEST_MIGRATIONS } from '../../support/storage-fixtures';
import { until } from '../../support/until';

const MB = 1024 * 1024;
const THRESHOLD = 4096;

describe('snapshot policy: when the journal is folded', () => {
  it('not before the threshold, whatever the database', () => {
    assert.equal(snapshotDue(0, 0, 8 * MB), 'no');
    assert.equal(snapshotDue(8 * MB, 100 * MB, 8 * MB), 'no');
    assert.equal(snapshotDue(Number.NaN, 100 * MB, 8 * MB), 'no');
  });

  it('a small database is folded at the threshold, as always', () => {
    assert.equal(snapshotDue(8 * MB + 1, 2 * MB, 8 * MB), 'now');
    assert.equal(snapshotDue(8 * MB + 1, 8 * MB, 8 * MB), 'now');
  });

  it('a database larger than the journal waits for the writes to pause', () => {
    assert.equal(snapshotDue(9 * MB, 88 * MB, 8 * MB), 'when-idle');
    assert.equal(snapshotDue(20 * MB, 21 * MB, 8 * MB), 'when-idle');
  });

  it('a journal as large as the database is folded now, and never more than MAX_DEFERRED thresholds of it', () => {
    assert.equal(snapshotDue(21 * MB + 1, 21 * MB, 8 * MB), 'now');
    assert.equal(snapshotDue(MAX_DEFERRED * 8 * MB, 10_000 * MB, 8 * MB), 'when-idle');
    assert.equal(snapshotDue(MAX_DEFERRED * 8 * MB + 1, 10_000 * MB, 8 * MB), 'now');
  });

  it('an unreadable database size folds now rather than deferring', () => {
    assert.equal(snapshotDue(8 * MB + 1, Number.NaN, 8 * MB), 'now');
    assert.equal(snapshotDue(8 * MB + 1, Number.POSITIVE_INFINITY, 8 * MB), 'now');
    assert.equal(snapshotDue(8 * MB + 1, -5, 8 * MB), 'now');
  });
});

const journalSize = (dir: string): number => fs.statSync(path.join(dir, 'pincer.journal')).size;

/**
 * A writer with a database far larger than its threshold, SIGKILLed at the first acknowledged write
 * that left the journal past the threshold (unfolded: the snapshot waits for a pause that a tight
 * loop of writes never makes).
 */
function killedPastThreshold(dir: string): Promise<{ acked: number[]; journal: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const cfg = { dir, mode: 'ack', start: 1, snapshotThresholdBytes: THRESHOLD, bodySize: 300, fillerBytes: 200_000, reportJournal: true };
    const child = spawn(process.execPath, [STORAGE_CHILD, JSON.stringify(cfg)]);
    const acked: number[] = [];
    let journal = 0;
    let buf = '';
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^ack (\d+) (-?\d+)$/.exec(line);
        if (!m || killed) continue;
        acked.push(Number(m[1]));
        if (Number(m[2]) > THRESHOLD) {
          killed = true;
          journal = Number(m[2]);
          child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer ended by itself: ${stderr}`));
      else resolve({ acked, journal, stderr });
    });
  });
}

describe('snapshot policy: durability and folding', () => {
  after(removeTempDirs);

  it('a crash with the journal past the threshold and unfolded loses no acknowledged write', async function () {
    this.timeout(120_000);
    const dir = tempDir('fold-crash');
    const t = await killedPastThreshold(dir);
    assert.doesNotMatch(t.stderr, /child failed|warning/);
    assert.ok(t.acked.length > 0 && t.journal > THRESHOLD, `killed after ${t.acked.length} writes, journal ${t.journal} bytes`);
    const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS });
    try {
      const ids = new Set((await db.query<{ id: number }>('SELECT id FROM rows')).map((r) => r.id));
      assert.deepEqual(t.acked.filter((id) => !ids.has(id)), [], 'acknowledged writes lost');
      assert.ok(ids.has(0), 'the filler row is there');
      // Taking over the dead writer's lock is expected; nothing had to be repaired.
      assert.deepEqual(db.warnings.filter((w) => !/took over the database lock/.test(w)), []);
    } finally {
      await db.close();
    }
  });

  it('a journal past the threshold is folded by itself once the writes pause, and every row stays', async function () {
    this.timeout(60_000);
    const dir = tempDir('fold-idle');
    const opts = { dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS, snapshotThresholdBytes: THRESHOLD };
    let db = await Database.open(opts);
    // A database much larger than the journal will be: these writes alone never make a fold urgent.
    await db.run('INSERT INTO rows(id, body) VALUES (0, ?)', ['f'.repeat(200_000)]);
    await db.snapshot();
    const rows = 20;
    await Promise.all(Array.from({ length: rows }, (_, i) => db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [i + 1, 'x'.repeat(300)])));
    const written = journalSize(dir);
    assert.ok(written > THRESHOLD && written < MAX_DEFERRED * THRESHOLD, `journal ${written} bytes`);
    await until(() => journalSize(dir) < THRESHOLD);
    await db.close();
    db = await Database.open(opts);
    try {
      assert.deepEqual(await db.query('SELECT count(*) AS n FROM rows'), [{ n: rows + 1 }]);
      assert.deepEqual(db.warnings, []);
    } finally {
      await db.close();
    }
  });

  it('writes that never pause still fold once the journal reaches MAX_DEFERRED thresholds', async function () {
    this.timeout(60_000);
    const dir = tempDir('fold-cap');
    const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS, snapshotThresholdBytes: THRESHOLD });
    try {
      await db.run('INSERT INTO rows(id, body) VALUES (0, ?)', ['f'.repeat(200_000)]);
      await db.snapshot();
      // Each write is ~350 bytes of journal: 5 thresholds' worth, back to back.
      let largest = 0;
      for (let i = 1; i <= (5 * THRESHOLD) / 300; i++) {
        await db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [i, 'x'.repeat(300)]);
        largest = Math.max(largest, journalSize(dir));
      }
      assert.ok(largest <= MAX_DEFERRED * THRESHOLD + 1024, `the journal reached ${largest} bytes`);
      assert.ok(journalSize(dir) < MAX_DEFERRED * THRESHOLD, 'it was folded');
      assert.deepEqual(db.warnings, []);
    } finally {
      await db.close();
    }
  });
});
