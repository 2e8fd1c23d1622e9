// A real workspace database with the memory tables, and a MemoryStore over it, for the memory tests.
import { indexStatements } from '../../../src/core/memory/memory-fts-index';
import { MEMORY_MIGRATIONS } from '../../../src/core/memory/memory-schema';
import { MemoryStore, type MemoryStoreOptions } from '../../../src/core/memory/memory-store';
import { Database } from '../../../src/core/storage/database';
import { STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';

const open: Database[] = [];

export async function openMemoryDb(dir = tempDir('memory')): Promise<Database> {
  const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: MEMORY_MIGRATIONS });
  open.push(db);
  return db;
}

export async function openStore(opts: MemoryStoreOptions = {}, dir?: string): Promise<{ db: Database; store: MemoryStore }> {
  const db = await openMemoryDb(dir);
  let t = 1_000;
  return { db, store: new MemoryStore(db, { now: () => t++, ...opts }) };
}

/** For an afterEach hook. */
export async function closeMemoryDbs(): Promise<void> {
  for (const db of open.splice(0)) await db.close();
}

/**
 * The FTS index agrees with the chunk table: FTS4's own check, plus no index entry without a chunk.
 * The chunks still waiting to be indexed are indexed first, as a search would (FTS4's check compares
 * against every row), so entries wrongly removed or added for them show up too.
 */
export async function assertFtsConsistent(db: Database): Promise<void> {
  await db.transaction(indexStatements());
  // As a query: it runs in a transaction that is rolled back, so the check itself journals nothing.
  await db.query("INSERT INTO memory_fts(memory_fts) VALUES ('integrity-check')");
  const [state] = await db.query<{ indexedTo: number; maxId: number | null; drops: number }>(
    'SELECT indexed_to AS indexedTo, (SELECT max(id) FROM memory_chunks) AS maxId, (SELECT count(*) FROM memory_fts_drop) AS drops FROM memory_fts_state');
  if (state.drops !== 0) throw new Error(`${state.drops} chunk ids left in memory_fts_drop`);
  if (state.maxId !== null && state.indexedTo < state.maxId) throw new Error(`chunks above ${state.indexedTo} are not indexed (max id ${state.maxId})`);
}

export const ALICE = { agentId: 'helper', userId: 'alice' };
export const BOB = { agentId: 'helper', userId: 'bob' };
export const GLOBAL = { agentId: 'helper', userId: '' };
export const OTHER_AGENT = { agentId: 'other', userId: 'alice' };
