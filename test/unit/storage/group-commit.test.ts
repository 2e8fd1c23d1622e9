// Group commit: writes that reach the storage worker while it is busy share one transaction, one
// journal record and one fsync, yet each still succeeds or fails on its own, reports its own result,
// and lands exactly as if it had been written alone.
import * as assert from 'node:assert/strict';
import { Database, type OpenOptions } from '../../../src/core/storage/database';
import { removeTempDirs, STORAGE_WORKER, tempDir, TEST_MIGRATIONS } from '../../support/storage-fixtures';

function options(dir: string): OpenOptions {
  return { dir, workerPath: STORAGE_WORKER, migrations: TEST_MIGRATIONS };
}

async function journalSeq(db: Database): Promise<number> {
  const [row] = await db.query<{ value: number }>("SELECT value FROM _pincer_meta WHERE key = 'seq'");
  return Number(row.value);
}

describe('storage database: group commit', () => {
  let dir: string;
  let db: Database;
  beforeEach(async () => {
    dir = tempDir('group');
    db = await Database.open(options(dir));
  });
  afterEach(async () => {
    await db.close();
  });
  after(removeTempDirs);

  it('writes sent together share journal records, and each gets its own result', async () => {
    const before = await journalSeq(db);
    // Sent without waiting: they queue in the worker while the first one is written.
    const writes = Array.from({ length: 40 }, (_, i) => db.run('INSERT INTO items(writer, n) VALUES (?, ?)', ['a', i]));
    const results = await Promise.all(writes);
    // AUTOINCREMENT ids in the order sent: each result is its own write's, not the group's last.
    assert.deepEqual(results.map((r) => r.lastInsertRowid), Array.from({ length: 40 }, (_, i) => i + 1));
    assert.ok(results.every((r) => r.changes === 1));
    const records = (await journalSeq(db)) - before;
    assert.ok(records >= 1 && records < 40, `40 writes took ${records} journal records`);
  });

  it('a failing write in a group fails alone: the others land, before and after it', async () => {
    const settled = await Promise.allSettled([
      db.run('INSERT INTO rows(id, body) VALUES (1, ?)', ['first']),
      db.transaction([
        { sql: 'INSERT INTO rows(id, body) VALUES (2, ?)', params: ['half of a failing transaction'] },
        { sql: 'INSERT INTO rows(id, body) VALUES (1, ?)', params: ['duplicate'] },
      ]),
      db.run('INSERT INTO no_such_table VALUES (1)'),
      db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [3, { not: 'storable' } as never]),
      db.transaction([
        { sql: 'INSERT INTO rows(id, body) VALUES (4, ?)', params: ['whole'] },
        { sql: 'UPDATE counter SET value = value + 1' },
      ]),
      db.run('INSERT INTO rows(id, body) VALUES (5, ?)', ['last']),
    ]);
    assert.deepEqual(settled.map((s) => s.status), ['fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    const reasons = settled.map((s) => (s.status === 'rejected' ? String((s.reason as Error).message) : ''));
    assert.match(reasons[1], /UNIQUE constraint failed/);
    assert.match(reasons[2], /no such table/);
    assert.match(reasons[3], /unsupported parameter type/);
    const expectRows = async () => {
      const rows = await db.query<{ id: number; body: string }>('SELECT id, body FROM rows ORDER BY id');
      assert.deepEqual(rows, [{ id: 1, body: 'first' }, { id: 4, body: 'whole' }, { id: 5, body: 'last' }]);
      const [counter] = await db.query<{ value: number }>("SELECT value FROM counter WHERE name = 'hits'");
      assert.equal(counter.value, 1);
    };
    await expectRows();
    // Replayed from the journal alone: the shared records hold exactly the writes that landed.
    await db.close();
    db = await Database.open(options(dir));
    await expectRows();
    assert.deepEqual(db.warnings, []);
  });

  it('a write with its read after it: one reply, once the write is durable; a failing write makes no read', async () => {
    const before = await journalSeq(db);
    const rows = await db.transactionThenQuery<{ id: number; body: string }>(
      [{ sql: 'INSERT INTO rows(id, body) VALUES (?, ?)', params: [1, 'one'] }, { sql: "UPDATE counter SET value = value + 1 WHERE name = 'hits'" }],
      { sql: 'SELECT id, body FROM rows WHERE id = ?', params: [1] },
    );
    assert.deepEqual(rows, [{ id: 1, body: 'one' }]);
    // Sent together with plain writes, it shares their group and reads what the group left.
    const [, counted] = await Promise.all([
      db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [2, 'two']),
      db.transactionThenQuery<{ n: number }>([{ sql: 'INSERT INTO rows(id, body) VALUES (?, ?)', params: [3, 'three'] }], { sql: 'SELECT count(*) AS n FROM rows' }),
    ]);
    assert.ok(counted[0].n >= 2, `the read missed its own write: ${counted[0].n} rows`);
    await assert.rejects(
      db.transactionThenQuery([{ sql: 'INSERT INTO rows(id, body) VALUES (?, ?)', params: [1, 'again'] }], { sql: 'SELECT id FROM rows' }),
      /UNIQUE constraint failed/,
    );
    // A read that cannot run does not undo the write before it, and says so.
    await assert.rejects(
      db.transactionThenQuery([{ sql: 'INSERT INTO rows(id, body) VALUES (?, ?)', params: [4, 'four'] }], { sql: 'SELECT body FROM no_such_table' }),
      /^Error: the write is durable, but the read after it failed: no such table: no_such_table/,
    );
    assert.ok((await journalSeq(db)) - before >= 2);
    await db.close();
    db = await Database.open(options(dir));
    assert.deepEqual((await db.query<{ id: number }>('SELECT id FROM rows ORDER BY id')).map((r) => r.id), [1, 2, 3, 4]);
    assert.equal((await db.query<{ value: number }>("SELECT value FROM counter WHERE name = 'hits'"))[0].value, 1);
  });

  it('a query sent after writes sees them, and one sent before does not', async () => {
    const early = db.query<{ n: number }>('SELECT count(*) AS n FROM rows');
    const writes = [1, 2, 3].map((id) => db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [id, `r${id}`]));
    const late = db.query<{ n: number }>('SELECT count(*) AS n FROM rows');
    await Promise.all(writes);
    assert.equal((await early)[0].n, 0);
    assert.equal((await late)[0].n, 3);
  });
});
