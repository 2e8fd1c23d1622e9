import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Database, type OpenOptions } from '../../../src/core/storage/database';
import { removeTempDirs, STORAGE_WORKER, tempDir, TEST_MIGRATIONS } from '../../support/storage-fixtures';
import { until } from '../../support/until';

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

  it('close lets the worker thread end by itself (exit code 0), not by terminate (exit code 1)', async () => {
    // Right after open, while sql.js's WebAssembly may still be being optimised in the background:
    // terminating then is what has aborted the process on Node 20.
    const fresh = await Database.open(options(tempDir('db-close')));
    const worker = (fresh as unknown as { worker: import('node:worker_threads').Worker }).worker;
    const code = new Promise<number>((resolve) => worker.once('exit', resolve));
    await fresh.close();
    assert.equal(await code, 0);
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
    // Past the threshold the fold waits for the writes to pause (or for the journal to outgrow the
    // database): wait for it to happen, however slow the machine.
    await until(() => fs.statSync(path.join(dir, 'pincer.journal')).size < 60 * 200);
    await db.close();
    db = await Database.open(options(dir));
    assert.deepEqual(await db.query('SELECT count(*) AS n FROM rows'), [{ n: 60 }]);
    assert.deepEqual(db.warnings, []);
  });

  // The storage worker keeps parameterised statements compiled between uses. A kept statement must
  // behave exactly like a freshly compiled one: right answers for every parameter set, a failure that
  // leaves nothing open, the schema's changes seen, no limit on how many different statements a
  // program sends, and every refusal made again on every use, since a refused statement is never kept.
  describe('statements kept compiled', () => {
    const INSERT = 'INSERT INTO rows(id, body) VALUES (?, ?)';
    const BY_ID = 'SELECT * FROM rows WHERE id = ?';

    it('one statement sent many times, alone and in groups, with new parameters each time', async () => {
      for (let i = 1; i <= 20; i++) await db.run(INSERT, [i, `alone ${i}`]);
      await Promise.all(Array.from({ length: 40 }, (_, k) => db.transaction([{ sql: INSERT, params: [100 + k, `group ${k}`] }])));
      for (const id of [1, 7, 20, 100, 139]) {
        assert.deepEqual(await db.query(BY_ID, [id]), [{ id, body: id < 100 ? `alone ${id}` : `group ${id - 100}` }]);
      }
      assert.deepEqual(await db.query(BY_ID, [99]), []);
      await db.close();
      db = await Database.open(options(dir));
      assert.equal((await db.query<{ n: number }>('SELECT count(*) AS n FROM rows'))[0].n, 60);
    });

    it('a kept statement that fails leaves nothing open: the next use works, a snapshot can be taken, a reopen replays only what landed', async () => {
      await db.run(INSERT, [1, 'first']);
      await assert.rejects(db.run(INSERT, [1, 'duplicate']), /UNIQUE constraint failed/);
      await assert.rejects(db.transaction([{ sql: INSERT, params: [2, 'half'] }, { sql: INSERT, params: [1, 'duplicate'] }]), /UNIQUE constraint failed/);
      await db.run(INSERT, [3, 'after']);
      await db.snapshot();
      await db.run(INSERT, [4, 'after the snapshot']);
      await db.close();
      db = await Database.open(options(dir));
      assert.deepEqual((await db.query<{ id: number }>('SELECT id FROM rows WHERE id > ? ORDER BY id', [0])).map((r) => r.id), [1, 3, 4]);
      assert.deepEqual(db.warnings, []);
    });

    it('sees the schema change under a kept statement', async () => {
      await db.run(INSERT, [1, 'before']);
      assert.deepEqual(await db.query(BY_ID, [1]), [{ id: 1, body: 'before' }]);
      await db.run('ALTER TABLE rows ADD COLUMN extra TEXT');
      await db.run(INSERT, [2, 'after']);
      assert.deepEqual(await db.query(BY_ID, [1]), [{ id: 1, body: 'before', extra: null }]);
      assert.deepEqual(await db.query(BY_ID, [2]), [{ id: 2, body: 'after', extra: null }]);
    });

    it('more different statements than are kept: each still answers right, the first ones again too', async () => {
      const texts = Array.from({ length: 300 }, (_, k) => `SELECT ? + ${k} AS v`);
      for (const [k, sql] of texts.entries()) assert.deepEqual(await db.query(sql, [1000]), [{ v: 1000 + k }]);
      for (const k of [0, 1, 150, 299]) assert.deepEqual(await db.query(texts[k], [5]), [{ v: 5 + k }]);
    });

    it('refuses on every use what it refused the first time (hostile: ATTACH, a savepoint, a second statement riding on parameters)', async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        await assert.rejects(db.run('ATTACH DATABASE ? AS other', [`${dir}/other.db`]), /ATTACH is not allowed here/);
        await assert.rejects(db.transaction([{ sql: 'SAVEPOINT mine', params: [] }]), /SAVEPOINT is not allowed here/);
        await assert.rejects(db.run('INSERT INTO rows(id, body) VALUES (?, ?); DELETE FROM rows', [9, 'x']), /params were given for SQL holding several statements/);
        await assert.rejects(db.query('SELECT ?; DELETE FROM rows', [1]), /query takes one statement/);
      }
      // The first statement of the refused pair ran inside the write that was rolled back: nothing landed.
      assert.deepEqual(await db.query('SELECT id FROM rows WHERE id = ?', [9]), []);
    });

    it('a statement that removes what it names succeeds, and is not kept: it cannot be compiled again', async () => {
      await db.run('DROP TABLE counter', []);
      await assert.rejects(db.run('DROP TABLE counter', []), /no such table: counter/);
      await db.run('CREATE TABLE counter(name TEXT PRIMARY KEY, value INTEGER NOT NULL)', []);
      await db.run('DROP TABLE counter', []);
      assert.deepEqual(await db.query("SELECT name FROM sqlite_master WHERE name = ?", ['counter']), []);
    });

    it('a write sent as a query changes nothing, even once its statement is kept by a real write', async () => {
      await db.run(INSERT, [1, 'real']);
      await db.query(INSERT, [2, 'through a read']);
      await db.query(INSERT, [3, 'through a read again']);
      assert.deepEqual((await db.query<{ id: number }>('SELECT id FROM rows WHERE id >= ?', [0])).map((r) => r.id), [1]);
    });
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

  it('keeps the process alive through close(), so what follows it runs', () => {
    const dir = tempDir('close-then');
    // Nothing else holds this process open: while close() waits for the worker's thread to end, the
    // process must not exit under it (the CLI prints its answer after closing its store).
    const script = `const { Database } = require(${JSON.stringify(require.resolve('../../../src/core/storage/database'))});
      Database.open({ dir: ${JSON.stringify(dir)}, workerPath: ${JSON.stringify(STORAGE_WORKER)}, migrations: [] })
        .then(async (db) => { await db.run('CREATE TABLE t(x)'); await db.close(); console.log('after close'); });`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 15_000 });
    assert.equal(r.signal, null, 'the child had to be killed: something kept it alive');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'after close');
  });
});
