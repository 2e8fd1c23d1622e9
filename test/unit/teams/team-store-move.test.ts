// Choosing the shared team store from the editor's side: the password from SecretStorage or the
// person's password command (never settings), and Move Team to Server… — a workspace board copied to
// a real PostgreSQL server whole and verified, or not at all (cancelled, refused), and never twice.
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { moveTeamToServer, type MoveProgress, type MoveRequest } from '../../../src/core/teams/postgres/move-team';
import { moveTeamToWorkspace } from '../../../src/core/teams/postgres/move-team-back';
import { PgMemoryStore } from '../../../src/core/teams/postgres/pg-memory-store';
import { ContextStore } from '../../../src/core/memory/context-store';
import { MemoryStore } from '../../../src/core/memory/memory-store';
import { PgBoardStore } from '../../../src/core/teams/postgres/pg-board-store';
import { passwordFromCommand, passwordSecretKey, teamStorePassword } from '../../../src/core/teams/postgres/team-store-password';
import { teamStoreConnection } from '../../../src/core/teams/postgres/team-store-settings';
import { startPostgres, type PgServer } from '../../support/postgres-server';
import { removeTempDirs } from '../../support/storage-fixtures';
import { boardSnapshot } from '../../../src/core/teams/board-view';
import { watchBoard } from '../../../src/core/teams/board-watch';
import type { TeamDefinition } from '../../../src/core/teams/team-definition';
import { openSqlBoard, pgOptions } from './board-fixture';
import { eventually } from './team-rig';

const T = 'web';
const node = process.execPath;

describe('teams: the team store from the editor (password, Move Team to Server…)', () => {
  let server: PgServer;
  before(async function () {
    this.timeout(120_000);
    server = await startPostgres();
  });
  after(async () => {
    await server?.remove();
    removeTempDirs();
  });

  describe('the password', () => {
    const conn = () => teamStoreConnection({ url: server.url, tls: { mode: 'disable' } });

    it('SecretStorage first (kept per server and user), else the password command; the store opens with it', async () => {
      const key = passwordSecretKey(conn());
      assert.equal(key, `pincer.teamStore.password:pincer@127.0.0.1:${server.port}/postgres`);
      assert.notEqual(passwordSecretKey(teamStoreConnection({ url: `postgres://other@127.0.0.1:${server.port}/postgres` })), key);
      const asked: string[] = [];
      const stored = await teamStorePassword(conn(), { secret: async (k) => (asked.push(k), k === key ? 'from-secret-storage' : undefined), command: [node, '-e', 'process.exit(3)'] });
      assert.equal(stored, 'from-secret-storage');
      assert.deepEqual(asked, [key]);
      const fromCommand = await teamStorePassword(conn(), { secret: async () => undefined, command: [node, '-e', `process.stdout.write(${JSON.stringify(`${server.password}\nsecond line ignored\n`)})`] });
      assert.equal(fromCommand, server.password);
      const store = await PgBoardStore.open({ connection: teamStoreConnection({ url: server.url, schema: 'pw_check', tls: { mode: 'disable' } }, fromCommand) });
      await store.close();
      assert.equal(await teamStorePassword(conn(), { secret: async () => undefined }), undefined);
    });

    it('a failing password command says how, never what it printed; a command that is not an argv array or prints nothing is refused', async () => {
      const leaked = 'printed-then-failed-hunter2';
      await assert.rejects(passwordFromCommand([node, '-e', `process.stdout.write('${leaked}'); process.stderr.write('vault is locked\\n'); process.exit(2)`]),
        (e: Error) => new RegExp(`password command \\(${node.replace(/[/.]/g, '\\$&')}\\) exited with 2: vault is locked\\.$`).test(e.message) && !e.message.includes(leaked));
      await assert.rejects(passwordFromCommand(['/nonexistent/pincer-password-helper']), /password command \(\/nonexistent\/pincer-password-helper\) could not start \(ENOENT\)/);
      await assert.rejects(passwordFromCommand('pass show db'), /passwordCommand: .*expected array/i);
      await assert.rejects(passwordFromCommand([]), /an argv array: the program, then its arguments/);
      await assert.rejects(passwordFromCommand([node, '-e', '']), /printed nothing: it should print the password on its first line/);
      const ac = new AbortController();
      const slow = passwordFromCommand([node, '-e', 'setTimeout(() => {}, 60000)'], ac.signal);
      ac.abort();
      await assert.rejects(slow, /was cancelled/);
    });
  });

  describe('the server\'s board as the editor shows it', () => {
    it('watched, its onChange, onStatus and close pass through untouched (they are not changes); a change is announced once committed', async () => {
      const pg = await PgBoardStore.open(pgOptions(server));
      const w = watchBoard(pg);
      const watched = w.store as unknown as PgBoardStore;
      const announced: string[] = [];
      w.onChange((team) => announced.push(team));
      const fromServer: string[] = [];
      // Subscriptions answer at once with their disposer (a wrapped one would be a promise, and a "change").
      const sub = watched.onChange((c) => c.teamId && fromServer.push(`${c.teamId}:${c.action}`));
      const status = watched.onStatus(() => undefined);
      assert.equal(typeof sub.dispose, 'function');
      assert.equal(typeof status.dispose, 'function');
      assert.deepEqual(announced, []);
      await w.store.create(T, { subject: 'Seen by both' }, { name: 'lead', at: 1 });
      await w.store.list(T, 'all', 'newest');
      assert.deepEqual(announced, [T]);
      await eventually(async () => fromServer.includes(`${T}:create`));
      sub.dispose();
      status.dispose();
      await watched.close();
      assert.deepEqual(announced, [T], 'close is not announced as a change');
    });

    it('while the server is down the board shows why instead of failing; the store reconnects after', async function () {
      this.timeout(60_000);
      const pg = await PgBoardStore.open(pgOptions(server));
      const team = { id: T, name: 'Web', lead: 'lead', members: [{ agent: 'ann' }] } as unknown as TeamDefinition;
      try {
        await pg.create(T, { subject: 'Before the outage' }, { name: 'lead', at: 1 });
        const down = new Promise<void>((resolve) => { const s = pg.onStatus((on) => !on && (s.dispose(), resolve())); });
        await server.stop();
        await down;
        const offline = await boardSnapshot(pg, [team], T, []);
        assert.deepEqual(offline.tasks, []);
        assert.match(offline.problems.at(-1)!, /^The team store at 127\.0\.0\.1:\d+\/postgres is unreachable \(.+\): nothing was read\.$/);
        const up = new Promise<void>((resolve) => { const s = pg.onStatus((on) => on && (s.dispose(), resolve())); });
        await server.start();
        await up;
        assert.deepEqual((await boardSnapshot(pg, [team], T, [])).tasks.map((t) => t.subject), ['Before the outage']);
      } finally {
        await pg.close();
      }
    });
  });

  describe('Move Team to Server…', () => {
    const GATE = { name: 'docs lint', kind: 'command' as const, command: 'npm run lint:docs', blockOnFailure: true, maxRetries: 1 };
    async function workspaceBoard() {
      const f = await openSqlBoard();
      const a = await f.board.create(T, { subject: 'Design the schema', description: 'tables and rules', priority: 2 }, f.as('lead'));
      const b = await f.board.create(T, { subject: 'Write the parser', blockedBy: [a.id], assignee: 'coder' }, f.as('lead'));
      const c = await f.board.create(T, { subject: 'Review the docs', requireReview: true, gates: [GATE] }, f.as('lead'));
      await f.board.create('other-team', { subject: 'Not this team' }, f.as('lead'));
      await f.board.claim(T, a.id, 'run-1', f.as('architect'));
      await f.board.attach(T, a.id, 'docs/schema.md', f.as('architect'));
      await f.board.progress(T, a.id, 40, 'halfway', f.as('architect'));
      await f.board.claim(T, c.id, 'run-2', f.as('writer'));
      await f.board.submitForReview(T, c.id, 'docs written', f.as('writer'));
      await f.board.send(T, 'architect', ['lead', 'coder'], 'schema is halfway', f.as('architect').at);
      await f.board.readUnread(T, 'coder', f.as('coder').at);
      return { f, a, b, c };
    }
    const request = (w: Awaited<ReturnType<typeof workspaceBoard>>, options: ReturnType<typeof pgOptions>, extra: Partial<MoveRequest> = {}): MoveRequest =>
      ({ source: w.f.db, sourceId: 'workspace-1', teamId: T, connection: options.connection, actor: 'person', at: 1_800_000_000_000, ...extra });

    it('copies the team\'s tasks, blockers, audit trail and mailbox, verified; the rules go on holding on the server; a second move copies nothing', async () => {
      const w = await workspaceBoard();
      const options = pgOptions(server);
      try {
        const seen: MoveProgress[] = [];
        const out = await moveTeamToServer(request(w, options, { progress: (p) => seen.push(p) }));
        assert.deepEqual({ copied: out.copied, tasks: out.tasks, deps: out.deps, events: out.events, messages: out.messages }, { copied: true, tasks: 3, deps: 1, events: 8, messages: 2 });
        assert.deepEqual(seen.at(-1), { step: 'checking', done: 1, total: 1 });
        assert.ok(seen.some((p) => p.step === 'tasks') && seen.some((p) => p.step === 'events'));
        const pg = await PgBoardStore.open(options);
        try {
          const moved = await pg.list(T, 'all', 'newest');
          assert.equal(moved.length, 3);
          const [a, b, c] = [w.a, w.b, w.c].map((t) => moved.find((m) => m.id === out.idMap[String(t.id)])!);
          assert.deepEqual([a!.status, a!.owner, a!.runId, a!.progress, a!.progressNote, a!.attachments, a!.priority], ['in_progress', 'architect', 'run-1', 40, 'halfway', ['docs/schema.md'], 2]);
          assert.deepEqual([b!.blockedBy, b!.openBlockers, b!.assignee], [[a!.id], [a!.id], 'coder']);
          assert.deepEqual([c!.status, c!.result, c!.requireReview, c!.gates], ['in_review', 'docs written', true, [GATE]]);
          assert.deepEqual([a!.gates, b!.gates], [[], []]);
          assert.deepEqual(await pg.list('other-team', 'all', 'newest'), []);
          const trail = await pg.events(T);
          assert.deepEqual(trail.slice(0, -1).map((e) => e.action), (await w.f.board.events(T)).map((e) => e.action));
          assert.match(trail.at(-1)!.detail, /^moved here from a workspace board: 3 tasks, 8 events, 2 messages/);
          assert.equal(await pg.unreadCount(T, 'coder'), 0);
          assert.deepEqual((await pg.readUnread(T, 'lead', 1)).map((m) => [m.sender, m.text]), [['architect', 'schema is halfway']]);
          // The board's rules hold on what was moved: the blocked task waits for its blocker.
          await assert.rejects(pg.claim(T, b!.id, 'run-3', { name: 'coder', at: 2 }), new RegExp(`^Error: Refused: task #${b!.id} is blocked by #${a!.id} \\(in_progress\\)`));
          await pg.complete(T, a!.id, 'schema done', { name: 'architect', at: 3 });
          assert.equal((await pg.claim(T, b!.id, 'run-3', { name: 'coder', at: 4 })).owner, 'coder');

          const again = await moveTeamToServer(request(w, options));
          assert.equal(again.copied, false);
          assert.deepEqual(again.idMap, out.idMap);
          assert.equal((await pg.list(T, 'all', 'newest')).length, 3);
          // The workspace board changed after the move: a second copy would duplicate it, so it is refused.
          await w.f.board.create(T, { subject: 'Made after the move' }, w.f.as('lead'));
          await assert.rejects(moveTeamToServer(request(w, options)), /^Error: Refused: team web was moved from this workspace to the server on .*, and its workspace board changed since\. Nothing was copied/);
          assert.equal((await pg.list(T, 'all', 'newest')).length, 3);
          // Another workspace's board of the same team is its own source: it is copied beside.
          assert.equal((await moveTeamToServer(request(w, options, { sourceId: 'workspace-2' }))).copied, true);
          assert.equal((await pg.list(T, 'all', 'newest')).length, 7);
        } finally {
          await pg.close();
        }
      } finally {
        await w.f.close();
      }
    });

    it('cancelled midway, nothing is copied and nothing is recorded; moving again copies it whole', async () => {
      const w = await workspaceBoard();
      for (let i = 0; i < 120; i++) await w.f.board.create(T, { subject: `Filler ${i}` }, w.f.as('lead'));
      const options = pgOptions(server);
      try {
        const ac = new AbortController();
        const seen: MoveProgress[] = [];
        await assert.rejects(moveTeamToServer(request(w, options, {
          signal: ac.signal,
          progress: (p) => {
            seen.push(p);
            if (p.step === 'tasks' && p.done >= 50) ac.abort();
          },
        })), /^Error: Moving team web was cancelled: nothing was copied\.$/);
        assert.ok(seen.some((p) => p.step === 'tasks' && p.done === 50));
        const admin = new Client({ ...options.connection.client });
        admin.on('error', () => undefined);
        await admin.connect();
        try {
          const count = async (table: string) => (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${options.connection.schema}.${table}`)).rows[0]!.n;
          assert.deepEqual([await count('team_tasks'), await count('team_events'), await count('team_messages'), await count('team_moves')], [0, 0, 0, 0]);
          const out = await moveTeamToServer(request(w, options));
          assert.deepEqual([out.copied, out.tasks, await count('team_tasks'), await count('team_moves')], [true, 123, 123, 1]);
        } finally {
          await admin.end();
        }
      } finally {
        await w.f.close();
      }
    });

    it('back to this workspace: the server\'s board replaces the one moved from here, verified; again copies nothing; another board of the team is refused; an empty workspace gets it whole', async () => {
      const w = await workspaceBoard();
      const options = pgOptions(server);
      const empty = await openSqlBoard();
      const pg = await PgBoardStore.open(options);
      try {
        const there = await moveTeamToServer(request(w, options));
        // Work goes on on the server: the workspace's copy is now behind.
        const a = there.idMap[String(w.a.id)]!;
        await pg.complete(T, a, 'schema done', { name: 'architect', at: 5 });
        await pg.create(T, { subject: 'Made on the server' }, { name: 'lead', at: 6 });
        const seen: MoveProgress[] = [];
        const back = await moveTeamToWorkspace(request(w, options, { progress: (p) => seen.push(p) }));
        assert.deepEqual([back.copied, back.tasks, back.deps, back.messages], [true, 4, 1, 2]);
        assert.deepEqual(seen.at(-1), { step: 'checking', done: 1, total: 1 });
        const here = await w.f.board.list(T, 'all', 'newest');
        assert.deepEqual(here.map((t) => [t.subject, t.status]).sort(), (await pg.list(T, 'all', 'newest')).map((t) => [t.subject, t.status]).sort());
        const [ha, hb] = ['Design the schema', 'Write the parser'].map((s) => here.find((t) => t.subject === s)!);
        assert.deepEqual([ha!.result, hb!.blockedBy, hb!.openBlockers], ['schema done', [ha!.id], []]);
        assert.deepEqual(here.find((t) => t.subject === 'Review the docs')!.gates, [GATE], 'a task\'s own gates come back with it');
        assert.deepEqual((await w.f.board.events(T, { limit: 500 })).map((e) => e.action), (await pg.events(T, { limit: 500 })).map((e) => e.action));
        assert.deepEqual((await w.f.board.list('other-team', 'all', 'newest')).map((t) => t.subject), ['Not this team']);
        // The rules hold on what came back: the released task is claimable, a completed one is final.
        assert.equal((await w.f.board.claim(T, hb!.id, 'run-9', w.f.as('coder'))).owner, 'coder');
        await assert.rejects(w.f.board.claim(T, ha!.id, 'run-9', w.f.as('coder')), /completed/);

        // Changed here since it came back: moving back again would mix the boards; unchanged, it copies nothing.
        await assert.rejects(moveTeamToWorkspace(request(w, options)), /^Error: Refused: this workspace already has a board for team web \(4 tasks\) that is not the one moved from here/);
        assert.equal((await moveTeamToWorkspace(request({ ...w, f: empty }, options, { sourceId: 'workspace-2' }))).copied, true);
        assert.equal((await moveTeamToWorkspace(request({ ...w, f: empty }, options, { sourceId: 'workspace-2' }))).copied, false);
        assert.equal((await empty.board.list(T, 'all', 'newest')).length, 4);
        // Moved back, the server's record names the board now here: moving it to the server again copies nothing.
        assert.equal((await moveTeamToServer(request({ ...w, f: empty }, options, { sourceId: 'workspace-2' }))).copied, false);
        assert.equal((await pg.list(T, 'all', 'newest')).length, 4);
      } finally {
        await pg.close();
        await empty.close();
        await w.f.close();
      }
    });

    it('the team agents\' shared memory and context files move with the board and back, verified; again writes nothing; the server\'s differing copy wins; a person\'s own level stays', async () => {
      const w = await workspaceBoard();
      const options = pgOptions(server);
      const memory = new MemoryStore(w.f.db);
      const context = new ContextStore(w.f.db);
      const lead = { agentId: 'lead', userId: '' };
      await memory.write(lead, 'MEMORY.md', '# Deploys\n\nThe staging server deploys on Tuesday.');
      await memory.write({ agentId: 'coder', userId: '' }, 'memory/style.md', '# Style\n\nTabs, not spaces.');
      await memory.write({ agentId: 'coder', userId: 'alice' }, 'memory/mine.md', '# Mine\n\nonly Alice\'s');
      await memory.write({ agentId: 'outsider', userId: '' }, 'MEMORY.md', '# Not in the team');
      await context.put(lead, 'SOUL.md', 'lead the web team');
      await context.put({ agentId: 'coder', userId: 'alice' }, 'USER.md', 'alice\'s own');
      const agents = ['lead', 'coder'];
      const pgMemory = await PgMemoryStore.open(options.connection, { teamId: T });
      try {
        const out = await moveTeamToServer(request(w, options, { agents }));
        assert.deepEqual(out.memory && [out.memory.documents, out.memory.contextFiles, out.memory.written, out.memory.same, out.memory.kept], [2, 1, 3, 0, []]);
        assert.match(out.memory!.checksum, /^[0-9a-f]{64}$/);
        assert.equal((await pgMemory.search(lead, 'staging')).hits[0]?.path, 'MEMORY.md', 'chunked and searchable on the server');
        assert.deepEqual((await pgMemory.list({ agentId: 'coder', userId: 'alice' })).map((d) => `${d.userId || 'shared'}:${d.path}`), ['shared:memory/style.md'], 'a person\'s own level stays in the workspace');
        assert.deepEqual(await pgMemory.list({ agentId: 'outsider', userId: '' }), []);
        const again = await moveTeamToServer(request(w, options, { agents }));
        assert.deepEqual([again.copied, again.memory!.written, again.memory!.same, again.memory!.checksum], [false, 0, 3, out.memory!.checksum]);

        // Work goes on on the server; the workspace's copy of MEMORY.md is then behind (and differs).
        await pgMemory.write(lead, 'MEMORY.md', '# Deploys\n\nThe staging server deploys on Thursday now.');
        await pgMemory.write(lead, 'memory/new.md', '# New\n\nwritten on the server');
        const kept = await moveTeamToServer(request(w, options, { agents }));
        assert.deepEqual([kept.memory!.written, kept.memory!.same, kept.memory!.kept], [0, 2, ['lead:MEMORY.md']]);
        assert.match((await pgMemory.read(lead, 'MEMORY.md'))!.content, /Thursday/, 'the server\'s copy was not overwritten');

        const back = await moveTeamToWorkspace(request(w, options, { agents }));
        assert.deepEqual([back.memory!.documents, back.memory!.contextFiles, back.memory!.written, back.memory!.same], [3, 1, 2, 2]);
        assert.match((await memory.read(lead, 'MEMORY.md'))!.content, /Thursday/);
        assert.equal((await memory.search(lead, 'server')).hits.some((h) => h.path === 'memory/new.md'), true, 'indexed in the workspace too');
        assert.equal((await memory.read({ agentId: 'coder', userId: 'alice' }, 'memory/mine.md'))?.content, '# Mine\n\nonly Alice\'s');
        assert.equal((await moveTeamToWorkspace(request(w, options, { agents }))).memory!.written, 0, 'back again writes nothing');
      } finally {
        await pgMemory.close();
        await w.f.close();
      }
    });

    it('an unreachable server: the move fails saying so, and the workspace board is untouched', async () => {
      const w = await workspaceBoard();
      try {
        const dead = teamStoreConnection({ url: 'postgres://pincer@127.0.0.1:1/postgres', tls: { mode: 'disable' } }, 'x');
        await assert.rejects(moveTeamToServer(request(w, pgOptions(server), { connection: dead })), /^Error: The team store at 127\.0\.0\.1:1\/postgres is unreachable \(ECONNREFUSED\): the board cannot be opened\.$/);
        assert.equal((await w.f.board.list(T, 'all', 'newest')).length, 3);
      } finally {
        await w.f.close();
      }
    });
  });
});
