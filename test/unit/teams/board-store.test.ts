// The board's contract on the workspace database (sql.js), and what several windows on one workspace
// database need beyond it: each window's watchdog releases only claims of runs that are not alive in
// any window (its own ended runs at once, another window's once it has not been seen for a while).
import assert from 'node:assert/strict';
import { Database } from '../../../src/core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../../../src/core/storage/workspace-migrations';
import { SqlBoardStore } from '../../../src/core/teams/sql-board-store';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { boardContract } from './board-contract';
import { openSqlBoard } from './board-fixture';

boardContract('workspace database', openSqlBoard);
after(removeTempDirs);

describe('teams: the workspace board in several windows', () => {
  it('a window\'s watchdog leaves another live window\'s claims alone, releases its own ended runs\' at once, and a vanished window\'s once it is stale', async () => {
    const dir = tempDir('team-windows');
    const open = () => Database.open({ dir, workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
    const [da, db] = [await open(), await open()];
    try {
      const a = new SqlBoardStore(da, { instance: 'window-a', staleRunMs: 60_000 });
      const b = new SqlBoardStore(db, { instance: 'window-b', staleRunMs: 60_000 });
      const lead = () => 'lead';
      const t0 = 1_700_000_000_000;
      const [x, y, z] = [await a.create('web', { subject: 'X' }, { name: 'lead', at: t0 }), await a.create('web', { subject: 'Y' }, { name: 'lead', at: t0 }), await a.create('web', { subject: 'Z' }, { name: 'lead', at: t0 })];
      await a.claim('web', x.id, 'run-a1', { name: 'ann', at: t0 + 1 });
      await a.claim('web', y.id, 'run-a2', { name: 'bob', at: t0 + 1 });
      await b.claim('web', z.id, 'run-b1', { name: 'cy', at: t0 + 1 });
      // Window B's watchdog knows none of A's runs: they are A's and were just seen, so they stay.
      assert.deepEqual(await b.releaseOrphans(new Set(['run-b1']), lead, 2, t0 + 1_000), []);
      // Window A's run a2 ended: A releases it at once; B's run is not A's to judge.
      assert.deepEqual((await a.releaseOrphans(new Set(['run-a1']), lead, 2, t0 + 2_000)).map((t) => t.id), [y.id]);
      // A keeps saying run-a1 is alive; window B vanishes (it never reports run-b1 again).
      assert.deepEqual(await a.releaseOrphans(new Set(['run-a1']), lead, 2, t0 + 50_000), []);
      assert.deepEqual((await a.releaseOrphans(new Set(['run-a1']), lead, 2, t0 + 70_000)).map((t) => t.id), [z.id], 'a run no window reported for staleRunMs is released');
      assert.deepEqual(await b.releaseOrphans(new Set(), lead, 2, t0 + 80_000), [], 'A\'s live run stays with A, seen 10 s ago');
      const now = await a.list('web', 'all', 'newest');
      assert.deepEqual(now.map((t) => [t.id, t.status, t.owner ?? null]).sort((p, q) => (p[0] as number) - (q[0] as number)),
        [[x.id, 'in_progress', 'ann'], [y.id, 'pending', null], [z.id, 'pending', null]]);
    } finally {
      await da.close();
      await db.close();
    }
  });
});
