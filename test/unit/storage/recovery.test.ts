import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Database } from '../../../src/core/storage/database';
import { decodeHeader, encodeRecord, HEADER_LEN, scanRecords } from '../../../src/core/storage/journal-format';
import { removeTempDirs, STORAGE_WORKER, tempDir, TEST_MIGRATIONS } from '../../support/storage-fixtures';

function open(dir: string): Promise<Database> {
  return Database.open({ dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS });
}

async function ids(db: Database): Promise<number[]> {
  return (await db.query<{ id: number }>('SELECT id FROM rows ORDER BY id')).map((r) => r.id);
}

const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/** Rows 1..10 in the snapshot, rows 11..20 only in the journal. */
async function seeded(snapshotFirstHalf = true): Promise<string> {
  const dir = tempDir('recover');
  const db = await open(dir);
  for (const i of range(1, 10)) await db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [i, `row ${i}`]);
  if (snapshotFirstHalf) await db.snapshot();
  for (const i of range(11, 20)) await db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [i, `row ${i}`]);
  await db.close();
  return dir;
}

function asides(dir: string, label: string): string[] {
  return fs.readdirSync(dir).filter((n) => n.includes(`.${label}-`));
}

/** Opens again after a repair: the result must be stable and quiet (no second round of warnings). */
async function reopenQuietly(dir: string, expected: number[]): Promise<void> {
  const db = await open(dir);
  assert.deepEqual(await ids(db), expected);
  await db.run('INSERT INTO rows(id, body) VALUES ((SELECT max(id) FROM rows) + 1000, ?)', ['still writable']);
  assert.deepEqual(db.warnings, []);
  await db.close();
}

describe('storage recovery', () => {
  after(removeTempDirs);

  it('a benign reopen gives no warnings and keeps no copies', async () => {
    const dir = await seeded();
    const db = await open(dir);
    assert.deepEqual(await ids(db), range(1, 20));
    assert.deepEqual(db.warnings, []);
    await db.close();
    assert.deepEqual(fs.readdirSync(dir).sort(), ['pincer.db', 'pincer.journal']);
  });

  for (const [label, damage] of [
    ['garbage bytes', (f: string) => fs.writeFileSync(f, Buffer.alloc(fs.statSync(f).size, 0x5a))],
    ['a truncated file', (f: string) => fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2))],
    ['an empty file', (f: string) => fs.truncateSync(f, 0)],
  ] as const) {
    it(`a snapshot with ${label}: open succeeds, keeps a copy, warns, and keeps the journal's rows`, async () => {
      const dir = await seeded();
      damage(path.join(dir, 'pincer.db'));
      const warnings: string[] = [];
      const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS, onWarning: (m) => warnings.push(m) });
      // Rows 1..10 lived only in the snapshot; 11..20 are replayed onto a freshly migrated schema.
      assert.deepEqual(await ids(db), range(11, 20));
      assert.equal(warnings.length, 1);
      assert.deepEqual(db.warnings, warnings);
      assert.match(warnings[0], /snapshot is damaged.*rebuilt from an empty database with the current schema plus 10 journal record/);
      assert.equal(asides(dir, 'corrupt').length, 2, 'copies of the snapshot and of the journal');
      await db.close();
      await reopenQuietly(dir, [...range(11, 20)]);
    });
  }

  it('a damaged snapshot with the whole history in the journal loses nothing', async () => {
    const dir = await seeded(false);
    fs.writeFileSync(path.join(dir, 'pincer.db'), 'definitely not sqlite');
    const db = await open(dir);
    assert.deepEqual(await ids(db), range(1, 20));
    assert.match(db.warnings.join('\n'), /rebuilt from the journal alone/);
    await db.close();
    await reopenQuietly(dir, [...range(1, 20)]);
  });

  it('a journal with a torn tail: the unfinished write is dropped and kept aside, the rest is there', async () => {
    const dir = await seeded();
    const journal = path.join(dir, 'pincer.journal');
    const torn = encodeRecord({ seq: 23, statements: [{ sql: 'INSERT INTO rows(id, body) VALUES (21, ?)', params: ['x'.repeat(500)] }] });
    fs.appendFileSync(journal, torn.subarray(0, 300));
    const db = await open(dir);
    assert.deepEqual(await ids(db), range(1, 20));
    assert.match(db.warnings.join('\n'), /discarded an unfinished write \(300 bytes\)/);
    assert.deepEqual(fs.readFileSync(path.join(dir, asides(dir, 'torn')[0])), torn.subarray(0, 300));
    await db.close();
    await reopenQuietly(dir, [...range(1, 20)]);
  });

  it('a journal with a damaged middle record: copy kept, the prefix and later intact records recovered', async () => {
    const dir = await seeded();
    const journal = path.join(dir, 'pincer.journal');
    const buf = fs.readFileSync(journal);
    const h = decodeHeader(buf)!;
    const scan = scanRecords(buf, 0, HEADER_LEN, h.base + 1);
    const i15 = scan.records.findIndex((r) => r.statements[0].params?.[0] === 15);
    const start = i15 === 0 ? HEADER_LEN : scan.ends[i15 - 1];
    buf[start + 40] ^= 0xff;
    fs.writeFileSync(journal, buf);
    const db = await open(dir);
    assert.deepEqual(await ids(db), [...range(1, 14), ...range(16, 20)]);
    assert.match(db.warnings.join('\n'), /journal is damaged at byte \d+ \(record checksum mismatch\)/);
    const copy = asides(dir, 'corrupt');
    assert.equal(copy.length, 1);
    assert.deepEqual(fs.readFileSync(path.join(dir, copy[0])), buf);
    await db.close();
    await reopenQuietly(dir, [...range(1, 14), ...range(16, 20)]);
  });

  it('a journal with a damaged header: the snapshot plus every intact record', async () => {
    const dir = await seeded();
    const journal = path.join(dir, 'pincer.journal');
    const buf = fs.readFileSync(journal);
    buf.fill(0x33, 0, 16);
    fs.writeFileSync(journal, buf);
    const db = await open(dir);
    assert.deepEqual(await ids(db), range(1, 20));
    assert.match(db.warnings.join('\n'), /journal header is damaged/);
    await db.close();
    await reopenQuietly(dir, [...range(1, 20)]);
  });

  it('a missing journal: restored from the snapshot, with a warning', async () => {
    const dir = await seeded();
    fs.rmSync(path.join(dir, 'pincer.journal'));
    const db = await open(dir);
    assert.deepEqual(await ids(db), range(1, 10));
    assert.match(db.warnings.join('\n'), /journal file was missing/);
    await db.close();
    await reopenQuietly(dir, [...range(1, 10)]);
  });

  it('a crash between renaming the new snapshot and the new journal loses nothing and is quiet', async () => {
    const dir = await seeded();
    const journal = path.join(dir, 'pincer.journal');
    const oldJournal = fs.readFileSync(journal);
    const db = await open(dir);
    await db.snapshot();
    await db.close();
    // The new snapshot already holds every record of the old journal that is still in place.
    fs.writeFileSync(journal, oldJournal);
    await reopenQuietly(dir, range(1, 20));
    await reopenQuietly(dir, [...range(1, 20), 1020]);
  });

  it('leftover temp files of a snapshot that never finished are removed quietly', async () => {
    const dir = await seeded();
    fs.writeFileSync(path.join(dir, 'pincer.db.tmp-abc123'), 'half a snapshot');
    fs.writeFileSync(path.join(dir, 'pincer.journal.tmp-abc123'), 'half a journal');
    fs.writeFileSync(path.join(dir, 'unrelated.tmp-keep'), 'not ours');
    await reopenQuietly(dir, [...range(1, 20)]);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['pincer.db', 'pincer.journal', 'unrelated.tmp-keep']);
  });

  it('a stale lock left by a dead process is taken over, with a warning', async () => {
    const dir = await seeded();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const owner = { pid: Number(dead.stdout), hostname: os.hostname(), threadId: 0, time: Date.now(), token: 'dead' };
    fs.writeFileSync(path.join(dir, 'pincer.lock'), JSON.stringify(owner));
    // Taken over because its owner is gone, not because it grew older than the stale age (30 s).
    const db = await open(dir);
    assert.match(db.warnings.join('\n'), new RegExp(`took over the database lock because its owner \\(pid ${owner.pid}\\) is no longer running`));
    assert.deepEqual(await ids(db), range(1, 20));
    await db.close();
    assert.equal(fs.existsSync(path.join(dir, 'pincer.lock')), false);
  });

  it('a live window\'s lock is not stolen: open waits and then fails clearly', async () => {
    const dir = await seeded();
    const owner = { pid: process.pid, hostname: os.hostname(), threadId: 99, time: Date.now(), token: 'live' };
    fs.writeFileSync(path.join(dir, 'pincer.lock'), JSON.stringify(owner));
    await assert.rejects(
      Database.open({ dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS, lockTimeoutMs: 300 }),
      (e: NodeJS.ErrnoException) => e.code === 'ELOCKED' && /locked by pid/.test(e.message),
    );
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'pincer.lock'), 'utf8')).token, 'live');
    fs.rmSync(path.join(dir, 'pincer.lock'));
    await reopenQuietly(dir, [...range(1, 20)]);
  });
});
