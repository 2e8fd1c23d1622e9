// Child process for the storage tests. `ack` mode writes rows forever and prints each id once the
// write is acknowledged (the parent SIGKILLs it at a random moment); `tagged` mode writes a fixed
// number of items and counter bumps alongside other writers and prints what it saw.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Database } from '../../src/core/storage/database';
import { STORAGE_WORKER, TEST_MIGRATIONS } from './storage-fixtures';

interface ChildConfig {
  dir: string;
  mode: 'ack' | 'tagged';
  start?: number;
  count?: number;
  tag?: string;
  snapshotThresholdBytes?: number;
  bodySize?: number;
  fillerBytes?: number;
  /** `ack` mode: print the journal's length after each acknowledged write too ("ack <id> <bytes>"). */
  reportJournal?: boolean;
}

function journalBytes(dir: string): number {
  try {
    return fs.statSync(path.join(dir, 'pincer.journal')).size;
  } catch {
    return -1;
  }
}

async function main(): Promise<void> {
  const cfg = JSON.parse(process.argv[2]) as ChildConfig;
  const db = await Database.open({
    dir: cfg.dir,
    workerPath: STORAGE_WORKER,
    migrations: TEST_MIGRATIONS,
    snapshotThresholdBytes: cfg.snapshotThresholdBytes,
    onWarning: (m) => process.stderr.write(`warning: ${m}\n`),
  });
  if (cfg.mode === 'ack') {
    const filled = await db.query('SELECT 1 FROM rows WHERE id = 0');
    if (cfg.fillerBytes && !filled.length) {
      // A large row makes every snapshot take a while, so kills often land in the middle of one.
      await db.run('INSERT INTO rows(id, body) VALUES (0, ?)', ['f'.repeat(cfg.fillerBytes)]);
    }
    process.stdout.write('ready\n');
    const body = 'b'.repeat(cfg.bodySize ?? 200);
    for (let i = cfg.start ?? 1; ; i++) {
      await db.run('INSERT INTO rows(id, body) VALUES (?, ?)', [i, body]);
      process.stdout.write(cfg.reportJournal ? `ack ${i} ${journalBytes(cfg.dir)}\n` : `ack ${i}\n`);
    }
  }
  process.stdout.write('ready\n');
  const rowids: number[] = [];
  for (let n = 0; n < (cfg.count ?? 0); n++) {
    const r = await db.run('INSERT INTO items(writer, n) VALUES (?, ?)', [cfg.tag ?? 'child', n]);
    rowids.push(r.lastInsertRowid);
    await db.transaction([{ sql: "UPDATE counter SET value = value + 1 WHERE name = 'hits'" }]);
  }
  process.stdout.write(`${JSON.stringify({ rowids })}\n`);
  await db.close();
}

main().catch((err) => {
  process.stderr.write(`child failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
