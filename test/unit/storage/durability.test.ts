import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { Database } from '../../../src/core/storage/database';
import { removeTempDirs, STORAGE_CHILD, STORAGE_WORKER, tempDir, TEST_MIGRATIONS } from '../../support/storage-fixtures';

const TRIALS = 20;

/** Deterministic "random" delays, so a failing trial can be run again as it was. */
function delays(seed: number, n: number, lo: number, hi: number): number[] {
  const out: number[] = [];
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out.push(lo + (x % (hi - lo)));
  }
  return out;
}

interface Trial {
  acked: number[];
  midSnapshot: boolean;
  stderr: string;
}

/**
 * Starts a writer and SIGKILLs it `delay` ms after it is ready, or (hunting) as soon as a snapshot
 * temp file appears once `delay` has passed; returns what it acknowledged.
 */
function killedWriter(dir: string, start: number, delay: number, hunt: boolean): Promise<Trial> {
  return new Promise((resolve, reject) => {
    const cfg = { dir, mode: 'ack', start, snapshotThresholdBytes: 4096, bodySize: 300, fillerBytes: 6_000_000 };
    const child = spawn(process.execPath, [STORAGE_CHILD, JSON.stringify(cfg)]);
    const acked: number[] = [];
    let buf = '';
    let stderr = '';
    let midSnapshot = false;
    const snapshotting = () => fs.readdirSync(dir).some((n) => n.startsWith('pincer.db.tmp-'));
    const kill = () => {
      midSnapshot = snapshotting();
      child.kill('SIGKILL');
    };
    const armKill = () => {
      if (!hunt) return void setTimeout(kill, delay);
      const until = Date.now() + delay + 3000;
      setTimeout(function poll() {
        if (snapshotting() || Date.now() > until) kill();
        else setTimeout(poll, 1);
      }, delay);
    };
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') armKill();
        else if (line.startsWith('ack ')) acked.push(Number(line.slice(4)));
      }
    });
    child.on('error', reject);
    // 'exit' comes after the pid is reaped, so the next opener sees the lock's owner as dead.
    child.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer ended by itself: ${stderr}`));
      else resolve({ acked, midSnapshot, stderr });
    });
  });
}

async function presentIds(dir: string): Promise<{ ids: Set<number>; warnings: readonly string[] }> {
  const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS });
  const rows = await db.query<{ id: number }>('SELECT id FROM rows');
  await db.close();
  return { ids: new Set(rows.map((r) => r.id)), warnings: db.warnings };
}

describe('storage durability', () => {
  after(removeTempDirs);

  it(`every acknowledged write survives SIGKILL at random moments, mid-snapshot too (${TRIALS} trials)`, async function () {
    this.timeout(300_000);
    const dir = tempDir('kill');
    const acked: number[] = [];
    let midSnapshot = 0;
    for (const [trial, delay] of delays(20261122, TRIALS, 20, 500).entries()) {
      const t = await killedWriter(dir, trial * 100_000 + 1, delay, trial % 4 === 2);
      acked.push(...t.acked);
      if (t.midSnapshot) midSnapshot++;
      assert.doesNotMatch(t.stderr, /child failed/, `trial ${trial} (kill after ${delay} ms)`);
      // Every other trial the next writer itself opens the killed one's files (stale lock, torn tail).
      if (trial % 2 === 1 || trial === TRIALS - 1) {
        const { ids } = await presentIds(dir);
        const missing = acked.filter((id) => !ids.has(id));
        assert.deepEqual(missing, [], `trial ${trial} (kill after ${delay} ms): acknowledged writes lost`);
        if (acked.length) assert.ok(ids.has(0), 'the filler row, written before ready, is there');
      }
    }
    assert.ok(acked.length > TRIALS, `the writers acknowledged ${acked.length} writes`);
    assert.ok(midSnapshot >= 3, `${midSnapshot} kills landed in the middle of a snapshot`);
    const final = await presentIds(dir);
    assert.ok(final.ids.size >= acked.length + 1);
    assert.deepEqual(final.warnings, [], 'after the repairs, a plain reopen is quiet');
  });
});
