// The board's contract on the workspace database (sql.js), and what several windows on one workspace
// database need beyond it: each window's watchdog releases only claims of runs that are not alive in
// any window (its own ended runs at once, another window's once it has not been seen for a while).
// Claims sent together share one durable write, and none is answered before that write is on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from '../../../src/core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../../../src/core/storage/workspace-migrations';
import { SqlBoardStore } from '../../../src/core/teams/sql-board-store';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import type { BoardTask } from '../../../src/core/teams/board-types';
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

describe('teams: claims sent together on the workspace board', () => {
  it('16 members claiming 8 tasks at once share one durable write; each winner\'s claim is on disk when its answer comes, each loser is told who holds the task', async () => {
    const dir = tempDir('team-group-claims');
    const open = () => Database.open({ dir, workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
    const db = await open();
    const images: { task: number; owner: string; dir: string }[] = [];
    try {
      const board = new SqlBoardStore(db);
      const t0 = 1_700_000_000_000;
      const tasks: BoardTask[] = [];
      for (let i = 0; i < 8; i++) tasks.push(await board.create('web', { subject: `Task ${i}` }, { name: 'lead', at: t0 }));
      const seq = async () => Number((await db.query<{ value: number }>("SELECT value FROM _pincer_meta WHERE key = 'seq'"))[0].value);
      const before = await seq();
      const settled = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => {
        const task = tasks[i % 8];
        return board.claim('web', task.id, `run-m${i}`, { name: `m${i}`, at: t0 + 1 }).then((t) => {
          // The files as they are the moment the claim is answered (the lock left out: it is this process's).
          const image = tempDir('team-claim-image');
          for (const f of ['pincer.db', 'pincer.journal']) if (fs.existsSync(path.join(dir, f))) fs.copyFileSync(path.join(dir, f), path.join(image, f));
          images.push({ task: t.id, owner: `m${i}`, dir: image });
          return t;
        });
      }));
      assert.equal(await seq() - before, 1, 'the 16 claims went to disk as one journal record');
      const won = settled.flatMap((r, i) => (r.status === 'fulfilled' ? [{ i, task: r.value }] : []));
      assert.deepEqual(won.map((w) => w.task.id).sort((a, b) => a - b), tasks.map((t) => t.id), 'every task won exactly once');
      for (const w of won) assert.deepEqual([w.task.status, w.task.owner, w.task.runId], ['in_progress', `m${w.i}`, `run-m${w.i}`]);
      settled.forEach((r, i) => {
        if (r.status === 'fulfilled') return;
        const holder = won.find((w) => w.task.id === tasks[i % 8].id)!.task.owner;
        assert.equal((r.reason as Error).message, `Refused: task #${tasks[i % 8].id} is already claimed by ${holder}.`);
      });
      // Each image, opened as a database of its own, holds its winner's claim and its audit event.
      assert.equal(images.length, 8);
      for (const img of images) {
        const copy = await Database.open({ dir: img.dir, workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
        try {
          const [row] = await copy.query<{ status: string; owner: string }>('SELECT status, owner FROM team_tasks WHERE id = ?', [img.task]);
          assert.deepEqual({ ...row }, { status: 'in_progress', owner: img.owner });
          const events = await copy.query<{ actor: string }>("SELECT actor FROM team_events WHERE task_id = ? AND action = 'claim'", [img.task]);
          assert.deepEqual(events.map((e) => e.actor), [img.owner]);
        } finally {
          await copy.close();
        }
      }
    } finally {
      await db.close();
    }
  });
});
