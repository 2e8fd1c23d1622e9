import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Database, type OpenOptions } from '../../../src/core/storage/database';
import { removeTempDirs, STORAGE_WORKER, tempDir, TEST_MIGRATIONS } from '../../support/storage-fixtures';

function options(dir: string, extra: Partial<OpenOptions> = {}): OpenOptions {
  return { dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS, ...extra };
}

describe('storage database: reads and writes', () => {
  let dir: string;
  let db: Database;
  beforeEach(async () => {
    dir = tempDir('db');
    db = await Database.open(options(dir));
  });
  afterEach(async () => {
    await db.close();
  });
  after(removeTempDirs);

  it('round-trips every value type and reports changes and the new rowid', async () => {
    await db.run('CREATE TABLE v(id INTEGER PRIMARY KEY, t TEXT, i INTEGER, r REAL, n, b BLOB)');
    const res = await db.run('INSERT INTO v(t, i, r, n, b) VALUES (?, ?, ?, ?, ?)', ['héllo ✓', 42, 2.5, null, new Uint8Array([0, 255, 7])]);
    assert.deepEqual(res, { changes: 1, lastInsertRowid: 1 });
    const rows = await db.query<{ t: string; i: number; r: number; n: null; b: Uint8Array }>('SELECT t, i, r, n, b FROM v');
    assert.equal(rows.length, 1);
    assert.equal(rows[0].t, 'héllo ✓');
    assert.equal(rows[0].i, 42);
    assert.equal(rows[0].r, 2.5);
    assert.equal(rows[0].n, null);
    assert.deepEqual(Array.from(rows[0].b), [0, 255, 7]);
    const upd = await db.run('UPDATE v SET i = i + 1');
    assert.equal(upd.changes, 1);
    assert.deepEqual(db.warnings, []);
  });

  it('persists across close and reopen, from the journal and from a snapshot', async () => {
    for (let i = 1; i <= 5; i++) await db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [i, `r${i}`]);
    await db.snapshot();
    for (let i = 6; i <= 10; i++) await db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [i, `r${i}`]);
    await db.close();
    db = await Database.open(options(dir));
    const rows = await db.query<{ id: number }>('SELECT id FROM rows ORDER BY id');
    assert.deepEqual(rows.map((r) => r.id), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.deepEqual(db.warnings, []);
  });

  it('a transaction lands whole or not at all', async () => {
    await db.transaction([
      { sql: 'INSERT INTO rows(id, body) VALUES (?, ?)', params: [1, 'a'] },
      { sql: 'INSERT INTO rows(id, body) VALUES (?, ?)', params: [2, 'b'] },
    ]);
    await assert.rejects(
      db.transaction([
        { sql: 'INSERT INTO rows(id, body) VALUES (?, ?)', params: [3, 'c'] },
        { sql: 'INSERT INTO rows(id, body) VALUES (?, ?)', params: [1, 'duplicate'] },
      ]),
      /UNIQUE constraint failed/,
    );
    const rows = await db.query<{ id: number }>('SELECT id FROM rows ORDER BY id');
    assert.deepEqual(rows.map((r) => r.id), [1, 2]);
  });

  it('an SQL error rejects, journals nothing, and leaves the database working', async () => {
    await db.run('INSERT INTO rows(id, body) VALUES (1, ?)', ['kept']);
    const journal = path.join(dir, 'pincer.journal');
    const before = fs.statSync(journal).size;
    await assert.rejects(db.run('INSERT INTO no_such_table VALUES (1)'), /no such table/);
    await assert.rejects(db.run('INSERT INTO rows(id, body) VALUES (2, NULL)'), /NOT NULL/);
    await assert.rejects(db.query('SELEC nonsense'), /syntax error/);
    assert.equal(fs.statSync(journal).size, before);
    await db.run('INSERT INTO rows(id, body) VALUES (2, ?)', ['after']);
    await db.close();
    db = await Database.open(options(dir));
    const rows = await db.query<{ body: string }>('SELECT body FROM rows ORDER BY id');
    assert.deepEqual(rows.map((r) => r.body), ['kept', 'after']);
  });

  it('refuses transaction control and other files, which would break the journal contract', async () => {
    await assert.rejects(db.run('COMMIT'), /COMMIT is not allowed/);
    await assert.rejects(db.transaction([{ sql: "INSERT INTO rows VALUES (1, 'x'); /* hide */ COMMIT; INSERT INTO rows VALUES (2, 'y')" }]), /COMMIT is not allowed/);
    await assert.rejects(db.run("ATTACH DATABASE '/tmp/x.db' AS x"), /ATTACH is not allowed/);
    await assert.rejects(db.query('-- a comment\n  rollback'), /ROLLBACK is not allowed/);
    assert.deepEqual(await db.query('SELECT count(*) AS n FROM rows'), [{ n: 0 }]);
  });

  it('a query cannot change anything, even if it tries', async () => {
    await db.query("INSERT INTO rows(id, body) VALUES (1, 'sneaky')");
    await db.query("CREATE TABLE sneaky(x)");
    assert.deepEqual(await db.query('SELECT count(*) AS n FROM rows'), [{ n: 0 }]);
    assert.deepEqual(await db.query("SELECT name FROM sqlite_master WHERE name = 'sneaky'"), []);
    await assert.rejects(db.query('SELECT 1; SELECT 2'), /one statement/);
  });

  it('rejects parameters it cannot store, and params on a multi-statement string', async () => {
    await assert.rejects(db.run('SELECT ?', [true as unknown as number]), /unsupported parameter type: boolean/);
    await assert.rejects(db.run('INSERT INTO rows VALUES (?, ?); SELECT 1', [1, 'x']), /several statements/);
    assert.deepEqual(await db.query('SELECT count(*) AS n FROM rows'), [{ n: 0 }]);
  });

  it('refuses calls after close, and close twice is harmless', async () => {
    await db.close();
    await db.close();
    await assert.rejects(db.run('SELECT 1'), /closed/);
    await assert.rejects(db.query('SELECT 1'), /closed/);
    db = await Database.open(options(dir));
  });

  it('an empty transaction is a no-op', async () => {
    const size = fs.statSync(path.join(dir, 'pincer.journal')).size;
    await db.transaction([]);
    assert.equal(fs.statSync(path.join(dir, 'pincer.journal')).size, size);
  });

  it('folds a long journal into a snapshot by itself and keeps every row', async () => {
    await db.close();
    db = await Database.open(options(dir, { snapshotThresholdBytes: 4096 }));
    for (let i = 1; i <= 60; i++) await db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [i, 'x'.repeat(200)]);
    await db.query('SELECT 1');
    assert.ok(fs.statSync(path.join(dir, 'pincer.journal')).size < 60 * 200, 'the journal was restarted');
    await db.close();
    db = await Database.open(options(dir));
    assert.deepEqual(await db.query('SELECT count(*) AS n FROM rows'), [{ n: 60 }]);
    assert.deepEqual(db.warnings, []);
  });
});

describe('storage database: opening', () => {
  after(removeTempDirs);

  it('creates a missing directory, and rejects a worker path that does not exist', async () => {
    const dir = path.join(tempDir('open'), 'nested', 'deeper');
    const db = await Database.open(options(dir));
    assert.ok(fs.existsSync(path.join(dir, 'pincer.db')));
    await db.close();
    await assert.rejects(Database.open(options(dir, { workerPath: path.join(dir, 'nope.js') })));
  });

  it('finds the wasm through an explicit path, and fails clearly with a wrong one', async () => {
    const dir = tempDir('wasm');
    const wasm = require.resolve('sql.js/dist/sql-wasm.wasm');
    const db = await Database.open(options(dir, { wasmPath: wasm }));
    await db.close();
    const copy = path.join(dir, 'broken.wasm');
    fs.writeFileSync(copy, 'not wasm');
    await assert.rejects(Database.open(options(tempDir('wasm'), { wasmPath: copy })), /wasm|WebAssembly|magic/i);
  });

  it('does not keep the process alive while idle', () => {
    const dir = tempDir('idle');
    // The script opens a database, writes, and never closes it: it must still exit by itself.
    const script = `const { Database } = require(${JSON.stringify(require.resolve('../../../src/core/storage/database'))});
      Database.open({ dir: ${JSON.stringify(dir)}, workerPath: ${JSON.stringify(STORAGE_WORKER)}, migrations: [] })
        .then((db) => db.run('CREATE TABLE t(x)')).then(() => console.log('written'));`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 15_000 });
    assert.equal(r.signal, null, 'the child had to be killed: something kept it alive');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'written');
  });
});
