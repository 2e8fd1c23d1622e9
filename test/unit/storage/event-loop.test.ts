import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Database } from '../../../src/core/storage/database';
import { watchEventLoop } from '../../support/event-loop';
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
    const stop = watchEventLoop();
    const t = performance.now();
    const writes = Array.from({ length: 20 }, (_, i) => db.run('INSERT INTO blobs(b) VALUES (?)', [new Uint8Array(100).fill(i)]));
    await Promise.all([db.snapshot(), ...writes]);
    const took = performance.now() - t;
    const blocked = stop();
    assert.ok(fs.statSync(path.join(dir, 'pincer.db')).size > 40_000_000);
    // On the main thread, the export and the write would block it for about as long as all this took.
    const detail = `the event loop was blocked for ${blocked.toFixed(1)} ms while the snapshot took ${took.toFixed(0)} ms`;
    assert.ok(blocked < took / 2, detail);
    assert.ok(blocked < 100, detail);
    assert.deepEqual(await db.query('SELECT count(*) AS n FROM blobs'), [{ n: 60 }]);
    await db.close();
  });
});
