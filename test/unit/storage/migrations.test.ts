import * as assert from 'node:assert/strict';
import { Database, type Migration } from '../../../src/core/storage/database';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';

const V1: Migration = { version: 1, name: 'notes', sql: 'CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT NOT NULL);' };
// Depends on V1's table, and would fail if run twice (no IF NOT EXISTS, a second INSERT of id 1).
const V2: Migration = { version: 2, name: 'tags', sql: "ALTER TABLE notes ADD COLUMN tag TEXT; INSERT INTO notes(id, text, tag) VALUES (1, 'seed', 'x');" };
const V3: Migration = { version: 3, name: 'index', sql: 'CREATE INDEX notes_tag ON notes(tag);' };

function open(dir: string, migrations: Migration[]): Promise<Database> {
  return Database.open({ dir, workerPath: STORAGE_WORKER, migrations });
}

interface Applied {
  version: number;
  name: string;
  applied_at: string;
}

describe('storage migrations', () => {
  after(removeTempDirs);

  it('applies migrations in version order, whatever order they are listed in, and records them', async () => {
    const dir = tempDir('mig');
    const db = await open(dir, [V3, V1, V2]);
    const applied = await db.query<Applied>('SELECT version, name, applied_at FROM _pincer_migrations ORDER BY version');
    assert.deepEqual(applied.map((a) => [a.version, a.name]), [[1, 'notes'], [2, 'tags'], [3, 'index']]);
    assert.ok(applied.every((a) => !Number.isNaN(Date.parse(a.applied_at))));
    assert.deepEqual(await db.query('SELECT id, text, tag FROM notes'), [{ id: 1, text: 'seed', tag: 'x' }]);
    await db.close();
  });

  it('runs each migration once: reopening applies nothing again, a new one applies alone', async () => {
    const dir = tempDir('mig');
    let db = await open(dir, [V1, V2]);
    const first = await db.query<Applied>('SELECT version, applied_at FROM _pincer_migrations ORDER BY version');
    await db.close();
    db = await open(dir, [V1, V2]);
    assert.deepEqual(await db.query<Applied>('SELECT version, applied_at FROM _pincer_migrations ORDER BY version'), first);
    assert.deepEqual(db.warnings, []);
    await db.close();
    db = await open(dir, [V1, V2, V3]);
    const after = await db.query<Applied>('SELECT version FROM _pincer_migrations ORDER BY version');
    assert.deepEqual(after.map((a) => a.version), [1, 2, 3]);
    assert.deepEqual(await db.query("SELECT name FROM sqlite_master WHERE name = 'notes_tag'"), [{ name: 'notes_tag' }]);
    await db.close();
  });

  it('migrations are journaled writes: they survive without a snapshot', async () => {
    const dir = tempDir('mig');
    let db = await open(dir, [V1]);
    await db.close();
    db = await open(dir, [V1, V2]);
    await db.close();
    db = await open(dir, [V1, V2]);
    assert.deepEqual(await db.query('SELECT text FROM notes'), [{ text: 'seed' }]);
    await db.close();
  });

  it('a failing migration rejects open with its version and name, and leaves no trace', async () => {
    const dir = tempDir('mig');
    const bad: Migration = { version: 2, name: 'broken', sql: 'CREATE TABLE ok_so_far(x); CREATE TABLE notes(dup);' };
    await assert.rejects(open(dir, [V1, bad]), /migration 2 \(broken\) failed: .*already exists/);
    const db = await open(dir, [V1]);
    assert.deepEqual(await db.query("SELECT name FROM sqlite_master WHERE name = 'ok_so_far'"), []);
    assert.deepEqual((await db.query<Applied>('SELECT version FROM _pincer_migrations')).map((a) => a.version), [1]);
    await db.close();
  });

  it('rejects duplicate or invalid versions', async () => {
    await assert.rejects(open(tempDir('mig'), [V1, { ...V2, version: 1 }]), /duplicate migration version 1/);
    await assert.rejects(open(tempDir('mig'), [{ ...V1, version: 0 }]), /positive integer/);
    await assert.rejects(open(tempDir('mig'), [{ ...V1, sql: 'BEGIN; CREATE TABLE t(x); COMMIT;' }]), /BEGIN is not allowed/);
  });

  it('warns, without failing, when the database has a version this build does not know', async () => {
    const dir = tempDir('mig');
    let db = await open(dir, [V1, V2, V3]);
    await db.close();
    db = await open(dir, [V1, V2]);
    assert.match(db.warnings.join('\n'), /schema version\(s\) 3 from a newer Pincer/);
    assert.deepEqual(await db.query('SELECT count(*) AS n FROM notes'), [{ n: 1 }]);
    await db.close();
  });
});
