import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { Database, type OpenOptions } from '../../../src/core/storage/database';
import { removeTempDirs, STORAGE_CHILD, STORAGE_WORKER, tempDir, TEST_MIGRATIONS } from '../../support/storage-fixtures';

const N = 120;

interface Item {
  id: number;
  writer: string;
  n: number;
}

async function writeItems(db: Database, tag: string): Promise<number[]> {
  const rowids: number[] = [];
  for (let n = 0; n < N; n++) {
    const r = await db.run('INSERT INTO items(writer, n) VALUES (?, ?)', [tag, n]);
    rowids.push(r.lastInsertRowid);
    // A read-modify-write: a writer that did not catch up first would lose other windows' bumps.
    await db.transaction([{ sql: "UPDATE counter SET value = value + 1 WHERE name = 'hits'" }]);
    if (n % 10 === 0) await db.query('SELECT count(*) AS n FROM items');
  }
  return rowids;
}

function runChild(dir: string, threshold: number): Promise<{ rowids: number[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [STORAGE_CHILD, JSON.stringify({ dir, mode: 'tagged', count: N, tag: 'child', snapshotThresholdBytes: threshold })]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`child exited ${code}: ${err}`));
      const line = out.split('\n').find((l) => l.startsWith('{'));
      resolve({ rowids: (JSON.parse(line ?? '{}') as { rowids: number[] }).rowids, stderr: err });
    });
  });
}

describe('storage with several writers', () => {
  after(removeTempDirs);

  it('two windows in this process and one in another: nothing lost or duplicated, each sees all', async function () {
    this.timeout(120_000);
    const dir = tempDir('multi');
    // A tiny threshold: snapshots (and reloads in the other windows) happen many times mid-run.
    const opts: OpenOptions = { dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS, snapshotThresholdBytes: 6000 };
    const a = await Database.open(opts);
    const b = await Database.open(opts);
    const [ra, rb, child] = await Promise.all([writeItems(a, 'a'), writeItems(b, 'b'), runChild(dir, 6000)]);
    const returned = new Map<number, string>();
    for (const [tag, ids] of [['a', ra], ['b', rb], ['child', child.rowids]] as const) {
      assert.equal(ids.length, N);
      ids.forEach((id, n) => {
        assert.ok(!returned.has(id), `rowid ${id} was handed out twice`);
        returned.set(id, `${tag}:${n}`);
      });
    }
    const fresh = await Database.open(opts);
    for (const db of [a, b, fresh]) {
      const items = await db.query<Item>('SELECT id, writer, n FROM items ORDER BY id');
      assert.equal(items.length, 3 * N);
      for (const it of items) assert.equal(returned.get(it.id), `${it.writer}:${it.n}`);
      assert.deepEqual(await db.query("SELECT value FROM counter WHERE name = 'hits'"), [{ value: 3 * N }]);
      assert.deepEqual(db.warnings, []);
    }
    assert.doesNotMatch(child.stderr, /warning/);
    await Promise.all([a.close(), b.close(), fresh.close()]);
  });

  it('a reader catches up with another window\'s writes without writing itself', async () => {
    const dir = tempDir('multi');
    const opts: OpenOptions = { dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS };
    const writer = await Database.open(opts);
    const reader = await Database.open(opts);
    assert.deepEqual(await reader.query('SELECT count(*) AS n FROM rows'), [{ n: 0 }]);
    await writer.run('INSERT INTO rows(id, body) VALUES (1, ?)', ['one']);
    assert.deepEqual(await reader.query('SELECT body FROM rows'), [{ body: 'one' }]);
    await writer.snapshot();
    await writer.run('INSERT INTO rows(id, body) VALUES (2, ?)', ['two']);
    assert.deepEqual(await reader.query('SELECT body FROM rows ORDER BY id'), [{ body: 'one' }, { body: 'two' }]);
    await Promise.all([writer.close(), reader.close()]);
  });

  it('a reader polling through constant snapshots never goes back, errs, or raises a false alarm', async function () {
    this.timeout(60_000);
    const dir = tempDir('multi');
    const opts: OpenOptions = { dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS, snapshotThresholdBytes: 1500 };
    const writer = await Database.open(opts);
    const reader = await Database.open(opts);
    let done = false;
    const seen: number[] = [];
    const polling = (async () => {
      while (!done) seen.push((await reader.query<{ n: number }>('SELECT count(*) AS n FROM rows'))[0].n);
    })();
    for (let i = 1; i <= 200; i++) await writer.run('INSERT INTO rows(id, body) VALUES (?, ?)', [i, 'x'.repeat(100)]);
    done = true;
    await polling;
    assert.ok(seen.length >= 5, `the reader polled ${seen.length} times`);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `count went back from ${seen[i - 1]} to ${seen[i]}`);
    assert.deepEqual(await reader.query('SELECT count(*) AS n FROM rows'), [{ n: 200 }]);
    assert.deepEqual([...writer.warnings, ...reader.warnings], []);
    assert.deepEqual(fs.readdirSync(dir).filter((n) => n.includes('.corrupt-') || n.includes('.torn-')), []);
    await Promise.all([writer.close(), reader.close()]);
  });
});
