// The memory contract (memory-contract.ts) on the workspace database: sql.js in a temp folder, a
// second store on the same folder standing in for a second window. The same suite runs against a
// team's memory on PostgreSQL in test/unit/teams/pg-memory-store.test.ts.
import { CONTEXT_MIGRATIONS } from '../../../src/core/memory/context-schema';
import { ContextStore } from '../../../src/core/memory/context-store';
import { MEMORY_MIGRATIONS } from '../../../src/core/memory/memory-schema';
import { MemoryStore } from '../../../src/core/memory/memory-store';
import { Database } from '../../../src/core/storage/database';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { memoryContract } from './memory-contract';

memoryContract('workspace database', async (opts = {}) => {
  const dir = tempDir('memory-contract');
  const openDb = () => Database.open({ dir, workerPath: STORAGE_WORKER, migrations: [...MEMORY_MIGRATIONS, ...CONTEXT_MIGRATIONS] });
  const db = await openDb();
  const dbs = [db];
  return {
    memory: new MemoryStore(db, opts),
    context: new ContextStore(db),
    second: async (o = {}) => {
      const other = await openDb();
      dbs.push(other);
      return new MemoryStore(other, o);
    },
    close: async () => {
      for (const d of dbs.splice(0)) await d.close();
    },
  };
});
after(removeTempDirs);
