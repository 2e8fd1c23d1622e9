// Claims on the PostgreSQL board: two editors' leads (one name, no run) claiming one task cannot
// both hold it, while a run repeating its own claim still does; a claim updates the task in place
// (HOT updates: no new index entries, no re-tokenized search words); and a board made before that
// (schema version 3, the search words a generated column) keeps its search words through the
// migration and follows later edits.
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { PG_BOARD_MIGRATIONS } from '../../../src/core/teams/postgres/pg-board-schema';
import { PgBoardStore } from '../../../src/core/teams/postgres/pg-board-store';
import { migrate } from '../../../src/core/teams/postgres/pg-migrate';
import { startPostgres, type PgServer } from '../../support/postgres-server';
import { pgOptions } from './board-fixture';

const T = 'web';
const who = (name: string) => ({ name, at: Date.now() });

describe('teams: claims on PostgreSQL', () => {
  let server: PgServer;
  let admin: Client;
  before(async function () {
    this.timeout(120_000);
    server = await startPostgres();
    admin = new Client({ host: server.host, port: server.port, database: server.database, user: server.user, password: server.password });
    // A server stopping under a test must fail that test, not crash mocha with an unhandled 'error'.
    admin.on('error', () => undefined);
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await server?.remove();
  });

  it('two editors\' leads (the same name, no run) claiming one task at once: one holds it, the other is refused; a run\'s repeated claim stands', async () => {
    const options = pgOptions(server);
    const [a, b] = [await PgBoardStore.open(options), await PgBoardStore.open(options)];
    try {
      const task = await a.create(T, { subject: 'One of us' }, who('default'));
      const outcomes = await Promise.allSettled([a.claim(T, task.id, undefined, who('default')), b.claim(T, task.id, undefined, who('default'))]);
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1, JSON.stringify(outcomes));
      const lost = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      assert.match(String(lost?.reason?.message), new RegExp(`^Refused: task #${task.id} is already claimed by default\\.`));
      const claims = (await a.events(T, { taskId: task.id })).filter((e) => e.action === 'claim');
      assert.equal(claims.length, 1);
      // A member run whose answer was lost asks again: it still holds the task; another run of the
      // same member is refused.
      const other = await a.create(T, { subject: 'Mine' }, who('lead'));
      await a.claim(T, other.id, 'run-ann-1', who('ann'));
      assert.equal((await b.claim(T, other.id, 'run-ann-1', who('ann'))).owner, 'ann');
      await assert.rejects(b.claim(T, other.id, 'run-ann-2', who('ann')), /^Error: Refused: task #\d+ is already claimed by ann\./);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('every claim of a board is a HOT update, and the claimed tasks are still found by their words', async function () {
    this.timeout(60_000);
    const options = pgOptions(server);
    const board = await PgBoardStore.open(options);
    try {
      const ids: number[] = [];
      for (let i = 0; i < 40; i++) ids.push((await board.create(T, { subject: `Task ${i} kiwi`, description: `step ${i}` }, who('lead'))).id);
      // One at a time, as members claim: a page keeps room for a new version once the old ones of
      // earlier commits are pruned (one statement updating a whole page's rows could not be HOT).
      for (const [i, id] of ids.entries()) await board.claim(T, id, `run-${i % 4}`, who(`m${i % 4}`));
      const schema = options.connection.schema;
      // The server counts updates when each session reports its statistics (within seconds): this
      // waits for them, bounded by the test's timeout.
      let counts: { upd: string; hot: string } | undefined;
      for (;;) {
        await admin.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await admin.query<{ upd: string; hot: string }>(
          `SELECT n_tup_upd::text AS upd, n_tup_hot_upd::text AS hot FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'team_tasks'`, [schema]);
        counts = rows[0];
        if (Number(counts?.upd) >= ids.length) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(counts);
      assert.equal(counts.hot, counts.upd, `every update was HOT (${counts.hot} of ${counts.upd})`);
      const found = await board.search(T, 'kiwi', { limit: 100 });
      assert.equal(found.length, ids.length);
      assert.ok(found.every((t) => t.status === 'in_progress'));
    } finally {
      await board.close();
    }
  });

  it('a board from before (search words a generated column) keeps them through the migration, and an edit re-indexes them', async function () {
    this.timeout(60_000);
    const options = pgOptions(server);
    const schema = options.connection.schema;
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.query(`SET search_path = ${schema}`);
    assert.deepEqual(await migrate(admin, schema, PG_BOARD_MIGRATIONS.filter((m) => m.version <= 3)), [1, 2, 3]);
    const { rows: [old] } = await admin.query<{ id: number }>(
      `INSERT INTO team_tasks(team_id, subject, description, created_by, created_at, updated_at) VALUES ($1, 'Migrate the papaya', 'old words', 'lead', 1, 1) RETURNING id`, [T]);
    await admin.query('RESET search_path');
    const board = await PgBoardStore.open(options);
    try {
      assert.deepEqual((await board.search(T, 'papaya')).map((t) => t.id), [old.id], 'words stored before the migration are still searched');
      await board.update(T, old.id, { subject: 'Migrate the mango' }, who('lead'));
      assert.deepEqual((await board.search(T, 'mango')).map((t) => t.id), [old.id], 'a new subject is searched');
      assert.deepEqual(await board.search(T, 'papaya'), [], 'the old subject is gone');
      assert.deepEqual((await board.search(T, 'words')).map((t) => t.id), [old.id], 'the description still is');
      const made = await board.create(T, { subject: 'Fresh guava' }, who('lead'));
      await board.claim(T, made.id, 'run-x', who('m0'));
      assert.deepEqual((await board.search(T, 'guava')).map((t) => [t.id, t.status]), [[made.id, 'in_progress']]);
    } finally {
      await board.close();
    }
  });
});
