// Shared by the storage tests and their child processes: the schema and where the worker is.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Migration } from '../../src/core/storage/types';

/** out/src/core/storage/storage-worker.js, as compiled by `tsc -p .`. */
export const STORAGE_WORKER = path.join(__dirname, '..', '..', 'src', 'core', 'storage', 'storage-worker.js');
export const STORAGE_CHILD = path.join(__dirname, 'storage-writer.js');

export const TEST_MIGRATIONS: Migration[] = [
  { version: 1, name: 'rows', sql: 'CREATE TABLE rows(id INTEGER PRIMARY KEY, body TEXT NOT NULL);' },
  {
    version: 2,
    name: 'items and counter',
    sql: `CREATE TABLE items(id INTEGER PRIMARY KEY AUTOINCREMENT, writer TEXT NOT NULL, n INTEGER NOT NULL, UNIQUE(writer, n));
          CREATE TABLE counter(name TEXT PRIMARY KEY, value INTEGER NOT NULL);
          INSERT INTO counter(name, value) VALUES ('hits', 0);`,
  },
];

const made: string[] = [];

export function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pincer-storage-${label}-`));
  made.push(dir);
  return dir;
}

/** For an after() hook: removes every directory tempDir made in this process. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
