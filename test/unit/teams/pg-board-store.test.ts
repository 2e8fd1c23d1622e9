// The board on a real PostgreSQL server (started for this file, on a loopback port, and removed
// after): the same contract as the workspace board, then what only a shared server has — editors in
// separate processes claiming at once, live changes between editors, a server restart mid-run,
// an unreachable server and a refused login in words, migrations run once and a newer schema
// refused, and the watchdog across editors (a vanished editor's claims released exactly once).
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import * as path from 'node:path';
import { Client } from 'pg';
import type { BoardChange } from '../../../src/core/teams/postgres/pg-connection';
import { PG_BOARD_MIGRATIONS } from '../../../src/core/teams/postgres/pg-board-schema';
import { PgBoardStore, type PgBoardOptions } from '../../../src/core/teams/postgres/pg-board-store';
import { teamStoreConnection } from '../../../src/core/teams/postgres/team-store-settings';
import { startPostgres, type PgServer } from '../../support/postgres-server';
import { boardContract } from './board-contract';
import { openPgBoard, pgOptions } from './board-fixture';

const T = 'web';

/** Resolves with the first value `subscribe` delivers that satisfies `pred`. */
function next<V>(subscribe: (fn: (v: V) => void) => { dispose(): void }, pred: (v: V) => boolean): Promise<V> {
  return new Promise((resolve) => {
    const sub = subscribe((v) => {
      if (!pred(v)) return;
      sub.dispose();
      resolve(v);
    });
  });
}

/** A plain session on the store's server, for what the test arranges or inspects behind the store's back. */
async function asAdmin<R>(options: PgBoardOptions, fn: (c: Client, schema: string) => Promise<R>): Promise<R> {
  const c = new Client({ ...options.connection.client });
  // A server stopping under a test must fail that test, not crash mocha with an unhandled 'error'.
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c, options.connection.schema);
  } finally {
    await c.end();
  }
}

describe('teams: the board on PostgreSQL', () => {
  let server: PgServer;
  before(async function () {
    this.timeout(120_000);
    server = await startPostgres();
  });
  after(async () => { await server?.remove(); });

  boardContract('PostgreSQL', () => openPgBoard(server));

  describe('what a shared server adds', () => {
    let f: Awaited<ReturnType<typeof openPgBoard>>;
    beforeEach(async () => { f = await openPgBoard(server); });
    afterEach(async () => { await f.close(); });

    it('4 editors (processes) with 4 members each claim from one board of 1,000 tasks: every task is claimed exactly once', async function () {
      this.timeout(180_000);
      // The board filled in one statement: what is measured here is the claiming.
      const ids = await asAdmin(f.options, async (c, schema) => (await c.query<{ id: number }>(
        `INSERT INTO ${schema}.team_tasks(team_id, subject, created_by, created_at, updated_at) SELECT $1, 'Task ' || g, 'lead', g, g FROM generate_series(1, 1000) g RETURNING id`, [T])).rows.map((r) => r.id));
      const children = Array.from({ length: 4 }, (_, e) => fork(path.join(__dirname, 'pg-claimer.js'), [JSON.stringify({ options: pgOptions(server, f.options.connection.schema), team: T, ids, name: `e${e}`, claimers: 4 })]));
      const said = (child: ReturnType<typeof fork>, type: string) => new Promise<{ won?: number[] }>((resolve, reject) => {
        child.on('message', (m: { type: string; won?: number[]; message?: string }) => (m.type === type ? resolve(m) : m.type === 'error' ? reject(new Error(m.message)) : undefined));
        child.on('exit', (code) => reject(new Error(`claimer exited (${code}) before "${type}"`)));
      });
      await Promise.all(children.map((c) => said(c, 'ready')));
      const done = children.map((c) => said(c, 'done'));
      for (const c of children) c.send('go');
      const won = (await Promise.all(done)).map((m) => m.won!);
      assert.deepEqual(won.flat().sort((a, b) => a - b), ids);
      const tasks = await f.board.list(T, 'all', 'newest', 2000);
      assert.equal(tasks.filter((t) => t.status === 'in_progress' && t.owner).length, 1000);
      const claims = (await f.board.events(T, { limit: 5000 })).filter((e) => e.action === 'claim');
      assert.equal(claims.length, 1000);
      assert.equal(new Set(claims.map((e) => e.taskId)).size, 1000);
    });

    it('two editors whose members claim the same tasks in opposite orders (batches crossing) never deadlock: each claim is won or refused', async () => {
      const other = await f.second();
      const ids: number[] = [];
      for (let i = 0; i < 40; i++) ids.push((await f.board.create(T, { subject: `Crossing ${i}` }, f.as('lead'))).id);
      // Each member starts at its own place, so an editor's batch holds several tasks, in the other editor's reverse order.
      const walk = (board: typeof other, editor: string, order: number[]) => Array.from({ length: 8 }, async (_, m) => {
        const mine: number[] = [];
        for (const id of [...order.slice(m * 5), ...order.slice(0, m * 5)]) {
          await board.claim(T, id, `run-${editor}${m}`, f.as(`${editor}${m}`)).then(() => mine.push(id), (e: Error) => assert.match(e.message, /^Refused: task #\d+ is already claimed by [ab]\d\.$/));
        }
        return mine;
      });
      const wins = await Promise.all([...walk(f.board, 'a', ids), ...walk(other, 'b', [...ids].reverse())]);
      assert.deepEqual(wins.flat().sort((x, y) => x - y), ids);
    });

    it('a change in one editor reaches the other live (claims, completions, mail), each once it is committed', async () => {
      const other = (await f.second()) as PgBoardStore;
      const task = await f.board.create(T, { subject: 'Shared' }, f.as('lead'));
      const claimed = next<BoardChange>((fn) => other.onChange(fn), (c) => c.action === 'claim');
      await f.board.claim(T, task.id, 'r1', f.as('ann'));
      assert.deepEqual(await claimed, { teamId: T, taskId: task.id, action: 'claim' });
      assert.equal((await other.get(T, task.id))!.owner, 'ann', 'the change is readable when it is announced');
      const mail = next<BoardChange>((fn) => other.onChange(fn), (c) => c.action === 'message');
      await f.board.send(T, 'ann', ['lead'], 'done soon', 1);
      assert.deepEqual(await mail, { teamId: T, action: 'message', to: 'lead' });
      const refusedNothing = next<BoardChange>((fn) => other.onChange(fn), () => true);
      await assert.rejects(f.board.complete(T, task.id, 'x', f.as('bob')), /only the holder/);
      await f.board.complete(T, task.id, 'shipped', f.as('ann'));
      assert.deepEqual(await refusedNothing, { teamId: T, taskId: task.id, action: 'complete' }, 'a refused change announces nothing');
    });

    it('the server restarted mid-run: writes fail in words while it is down, every acknowledged write is there, the editors reconnect and finish every task', async function () {
      this.timeout(120_000);
      const other = (await f.second()) as PgBoardStore;
      const ids: number[] = [];
      for (let i = 0; i < 30; i++) ids.push((await f.board.create(T, { subject: `Job ${i}` }, f.as('lead'))).id);
      const acked = new Map<number, string>();
      const failures: string[] = [];
      let stopped!: () => void;
      const down = new Promise<void>((resolve) => { stopped = resolve; });
      const worker = async (board: PgBoardStore, name: string) => {
        for (const id of ids) {
          if (id === ids[10]) await down; // the rest of the run meets the outage
          for (;;) {
            try {
              await board.claim(T, id, `run-${name}`, f.as(name));
              await board.complete(T, id, `done by ${name}`, f.as(name));
              acked.set(id, name);
              break;
            } catch (e) {
              const msg = (e as Error).message;
              if (/^Refused: task #\d+ is (already claimed by|completed)/.test(msg)) break;
              failures.push(msg);
              if (!board.online) await next<boolean>((fn) => board.onStatus(fn), (on) => on);
            }
          }
        }
      };
      const offline = next<boolean>((fn) => f.board.onStatus(fn), (on) => !on);
      const resync = next<BoardChange>((fn) => f.board.onChange(fn), (c) => c.action === 'resync');
      const run = Promise.all([worker(f.board, 'ann'), worker(other, 'bob')]);
      await next<BoardChange>((fn) => f.board.onChange(fn), (c) => c.action === 'complete');
      await server.stop();
      stopped();
      await offline;
      assert.equal(f.board.online, false);
      await assert.rejects(f.board.create(T, { subject: 'while down' }, f.as('lead')), /^Error: The team store at 127\.0\.0\.1:\d+\/postgres is unreachable \(\w+\): nothing was written; the change is not queued/);
      await server.start();
      await resync;
      await run;
      assert.ok(failures.length > 0, 'the run did meet the outage');
      assert.ok(failures.every((m) => /^The team store at .* is unreachable/.test(m)), failures.join('\n'));
      const tasks = await f.board.list(T, 'all', 'newest');
      assert.deepEqual(tasks.filter((t) => t.subject === 'while down'), [], 'the refused write was not queued');
      for (const t of tasks) {
        assert.equal(t.status, 'completed', `task #${t.id} is not stuck`);
        if (acked.has(t.id)) assert.equal(t.result, `done by ${acked.get(t.id)}`);
      }
      assert.ok(f.board.online && other.online);
    });

    it('an unreachable server and a refused login are said in words, without the password', async () => {
      await server.stop();
      try {
        await assert.rejects(PgBoardStore.open(pgOptions(server)), /^Error: The team store at 127\.0\.0\.1:\d+\/postgres is unreachable \(ECONNREFUSED\): the board cannot be opened\.$/);
      } finally {
        await server.start();
      }
      const wrong = 'not-the-password-1234';
      const attempt = PgBoardStore.open({ connection: teamStoreConnection({ url: server.url, tls: { mode: 'disable' } }, wrong) });
      await assert.rejects(attempt, (e: Error) => /refused the login .*password authentication failed for user "pincer".*Set Team Store Password/.test(e.message) && !e.message.includes(wrong));
    });

    it('migrations run once when several editors open a new schema at once; a schema newer than this Pincer is refused untouched', async () => {
      const options = pgOptions(server);
      const stores = await Promise.all(Array.from({ length: 5 }, () => PgBoardStore.open(options)));
      await stores[0]!.create(T, { subject: 'made' }, f.as('lead'));
      assert.equal((await stores[4]!.list(T, 'all', 'newest')).length, 1);
      await Promise.all(stores.map((s) => s.close()));
      await asAdmin(options, async (admin, schema) => {
        const versions = PG_BOARD_MIGRATIONS.map((m) => m.version);
        assert.deepEqual((await admin.query(`SELECT version FROM ${schema}.pincer_migrations ORDER BY version`)).rows, versions.map((version) => ({ version })));
        const newest = Math.max(...versions);
        await admin.query(`INSERT INTO ${schema}.pincer_migrations(version, name) VALUES (${newest + 1}, 'from a later Pincer')`);
        await assert.rejects(PgBoardStore.open(options), new RegExp(`^Error: Refused: the team store's schema "${schema}" is at version ${newest + 1}, newer than this Pincer knows \\(${newest}\\)`));
        assert.equal((await admin.query(`SELECT count(*)::int AS n FROM ${schema}.team_tasks`)).rows[0].n, 1);
      });
    });

    it('the watchdog across editors: another editor\'s live run keeps its claim; a run not seen alive is released once, by one watchdog', async () => {
      const a = await PgBoardStore.open({ ...f.options, instance: 'editor-a' });
      const b = await PgBoardStore.open({ ...f.options, instance: 'editor-b', staleRunMs: 0 });
      const c = await PgBoardStore.open({ ...f.options, instance: 'editor-c', staleRunMs: 0 });
      const patient = await PgBoardStore.open({ ...f.options, instance: 'editor-d' });
      try {
        const task = await a.create(T, { subject: 'Remote work' }, f.as('lead'));
        await a.claim(T, task.id, 'run-a', f.as('ann'));
        assert.deepEqual(await a.releaseOrphans(new Set(['run-a']), () => 'lead', 2, f.as('x').at), [], 'its own live run');
        assert.deepEqual(await patient.releaseOrphans(new Set(), () => 'lead', 2, f.as('x').at), [], 'seen alive within 90 s');
        // Editor a goes away; b and c (which take a run unseen for any time as gone) sweep at once.
        await a.close();
        const [byB, byC] = await Promise.all([b, c].map((s) => s.releaseOrphans(new Set(), () => 'lead', 2, f.as('x').at)));
        assert.deepEqual([...byB!, ...byC!].map((t) => [t.id, t.status, t.returns]), [[task.id, 'pending', 1]]);
        const notes = (await b.events(T, { taskId: task.id })).filter((e) => e.actor === 'watchdog');
        assert.equal(notes.length, 1);
        assert.match(notes[0]!.detail, /^back to pending: its member run run-a \(ann\) was not seen alive for 0 s \(its editor went away\)$/);
      } finally {
        await Promise.all([b, c, patient].map((s) => s.close()));
      }
    });
  });
});
