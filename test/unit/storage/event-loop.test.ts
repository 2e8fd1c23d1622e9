import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Database } from '../../../src/core/storage/database';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';

describe('storage and the host event loop', () => {
  after(removeTempDirs);

  it('a 40 MB snapshot with writes around it never blocks the main thread', async function () {
    this.timeout(120_000);
    const dir = tempDir('loop');
    const db = await Database.open({
      dir,
      workerPath: STORAGE_WORKER,
      migrations: [{ version: 1, name: 'blobs', sql: 'CREATE TABLE blobs(id INTEGER PRIMARY KEY, b BLOB)' }],
    });
    await db.run('WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 40) INSERT INTO blobs(b) SELECT zeroblob(1000000) FROM c');
    // The snapshot runs in the storage worker: this thread's timers keep firing while it is taken.
    // (How long the loop is ever blocked is a benchmark figure: bench/storage-write.mjs.)
    let snapshotting = true;
    let ticksWhileSnapshotting = 0;
    const ticker = setInterval(() => snapshotting && ticksWhileSnapshotting++, 5);
    const writes = Array.from({ length: 20 }, (_, i) => db.run('INSERT INTO blobs(b) VALUES (?)', [new Uint8Array(100).fill(i)]));
    const snapshot = db.snapshot().finally(() => (snapshotting = false));
    await Promise.all([snapshot, ...writes]);
    clearInterval(ticker);
    assert.ok(fs.statSync(path.join(dir, 'pincer.db')).size > 40_000_000);
    assert.ok(ticksWhileSnapshotting > 0, 'timers ran on this thread while the 40 MB snapshot was taken');
    assert.deepEqual(await db.query('SELECT count(*) AS n FROM blobs'), [{ n: 60 }]);
    await db.close();
  });
});
