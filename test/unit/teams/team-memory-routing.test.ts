// Routing of a team agent's memory and context files when its team is on the team store's server:
// the agent level goes to the server (a real PostgreSQL server), each person's own level stays in
// the workspace database (sql.js), and reads that combine the levels combine the two stores with
// the person's document shadowing the shared one. Agents of no team keep everything local.
import assert from 'node:assert/strict';
import { CONTEXT_MIGRATIONS } from '../../../src/core/memory/context-schema';
import { ContextStore } from '../../../src/core/memory/context-store';
import { MEMORY_MIGRATIONS } from '../../../src/core/memory/memory-schema';
import { MemoryStore, type MemoryChange } from '../../../src/core/memory/memory-store';
import { TeamContextRouter, TeamMemoryRouter, type TeamMemory } from '../../../src/core/memory/team-memory-router';
import { Database } from '../../../src/core/storage/database';
import { PgConnection } from '../../../src/core/teams/postgres/pg-connection';
import { PgContextStore } from '../../../src/core/teams/postgres/pg-context-store';
import { PgMemoryStore } from '../../../src/core/teams/postgres/pg-memory-store';
import { startPostgres, type PgServer } from '../../support/postgres-server';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { pgOptions } from './board-fixture';

const LEAD = { agentId: 'lead', userId: 'alice' };
const LEAD_SHARED = { agentId: 'lead', userId: '' };
const SOLO = { agentId: 'solo', userId: '' };

describe('teams: a team agent\'s memory follows its team to the server', () => {
  let server: PgServer;
  let db: Database;
  let pg: PgConnection;
  let workspace: MemoryStore;
  let wsContext: ContextStore;
  let team: TeamMemory;
  let memory: TeamMemoryRouter;
  let context: TeamContextRouter;
  before(async function () {
    this.timeout(120_000);
    server = await startPostgres();
  });
  after(async () => {
    await server?.remove();
    removeTempDirs();
  });
  beforeEach(async () => {
    db = await Database.open({ dir: tempDir('team-memory'), workerPath: STORAGE_WORKER, migrations: [...MEMORY_MIGRATIONS, ...CONTEXT_MIGRATIONS] });
    pg = new PgConnection(pgOptions(server).connection);
    team = { memory: await PgMemoryStore.on(pg, { teamId: 'web' }), context: new PgContextStore(pg, 'web') };
    workspace = new MemoryStore(db);
    wsContext = new ContextStore(db);
    const teamFor = async (agentId: string) => (agentId === 'lead' ? team : undefined);
    memory = new TeamMemoryRouter(workspace, teamFor);
    context = new TeamContextRouter(wsContext, teamFor);
  });
  afterEach(async () => {
    await pg.close();
    await db.close();
  });

  it('the agent level is written on the server, the person\'s own level here; an agent of no team keeps both here', async () => {
    const changes: MemoryChange[] = [];
    memory.onDidChange((c) => changes.push(c));
    await memory.write(LEAD_SHARED, 'MEMORY.md', '# Shared\n\nThe team deploys on Tuesday.');
    await memory.write(LEAD, 'memory/mine.md', '# Mine\n\nAlice deploys on Friday.');
    await memory.write(SOLO, 'MEMORY.md', '# Solo\n\nsolo deploys alone.');
    assert.equal((await team.memory.readExact(LEAD_SHARED, 'MEMORY.md'))?.content, '# Shared\n\nThe team deploys on Tuesday.');
    assert.equal(await workspace.readExact(LEAD_SHARED, 'MEMORY.md'), undefined, 'not in the workspace');
    assert.equal((await workspace.readExact(LEAD, 'memory/mine.md'))?.userId, 'alice');
    assert.equal(await team.memory.readExact(LEAD, 'memory/mine.md'), undefined, 'the person\'s own level never reaches the server');
    assert.equal((await workspace.readExact(SOLO, 'MEMORY.md'))?.agentId, 'solo');
    assert.deepEqual(await team.memory.list(SOLO), []);
    assert.deepEqual(changes.map((c) => `${c.kind}:${c.agentId}:${c.userId}:${c.path}`).sort(), ['write:lead::MEMORY.md', 'write:lead:alice:memory/mine.md', 'write:solo::MEMORY.md']);
    assert.equal(await memory.delete(LEAD_SHARED, 'MEMORY.md'), true);
    assert.equal(await team.memory.read(LEAD_SHARED, 'MEMORY.md'), undefined);
  });

  it('reads, lists and searches combine both, the person\'s document shadowing the shared one; chunk ids stay distinct and expand', async () => {
    await memory.write(LEAD_SHARED, 'MEMORY.md', '# Shared\n\nThe team deploys on Tuesday.');
    await memory.write(LEAD_SHARED, 'memory/team.md', '# Team\n\nEveryone deploys with care.');
    const mine = await memory.write(LEAD, 'MEMORY.md', '# Mine\n\nAlice deploys on Friday.');
    assert.equal((await memory.read(LEAD, 'MEMORY.md'))?.content, '# Mine\n\nAlice deploys on Friday.');
    assert.equal((await memory.read({ agentId: 'lead', userId: 'bob' }, 'MEMORY.md'))?.content, '# Shared\n\nThe team deploys on Tuesday.', 'Bob has no copy: the shared one');
    assert.deepEqual((await memory.list(LEAD)).map((d) => `${d.userId || 'shared'}:${d.path}`), ['alice:MEMORY.md', 'shared:memory/team.md']);
    assert.deepEqual((await memory.list(LEAD, { level: 'agent' })).map((d) => d.path), ['MEMORY.md', 'memory/team.md']);
    assert.deepEqual((await memory.list(LEAD, { level: 'user' })).map((d) => d.path), ['MEMORY.md']);

    const r = await memory.search(LEAD, 'deploys', { limit: 10 });
    assert.deepEqual(r.hits.map((h) => `${h.userId || 'shared'}:${h.path}`).sort(), ['alice:MEMORY.md', 'shared:memory/team.md'], 'the shared MEMORY.md is shadowed');
    assert.equal(new Set(r.hits.map((h) => h.id)).size, 2);
    for (const h of r.hits) {
      const c = await memory.chunk(h.id, LEAD);
      assert.deepEqual([c?.id, c?.path, c?.userId], [h.id, h.path, h.userId], 'each id expands to its own chunk');
    }
    assert.equal((await memory.chunk(r.hits.find((h) => h.userId === 'alice')!.id, LEAD))?.text, mine.chunks[0]!.text);
    assert.deepEqual((await memory.search(LEAD, 'deploys', { scope: 'agent' })).hits.map((h) => h.path).sort(), ['MEMORY.md', 'memory/team.md']);
    assert.deepEqual((await memory.search(LEAD, 'deploys', { scope: 'user' })).hits.map((h) => h.path), ['MEMORY.md']);
    assert.equal(await memory.chunk(r.hits[0]!.id, { agentId: 'lead', userId: 'mallory' }).then((c) => c?.userId === 'alice'), false, 'another person cannot expand Alice\'s chunk');
  });

  it('context files: the agent level on the server, the person\'s here', async () => {
    await context.put(LEAD_SHARED, 'SOUL.md', 'the team\'s soul');
    await context.put(LEAD, 'USER.md', 'about alice');
    await context.put({ agentId: 'solo', userId: '' }, 'SOUL.md', 'solo soul');
    assert.equal((await team.context.get(LEAD_SHARED, 'SOUL.md'))?.content, 'the team\'s soul');
    assert.equal(await wsContext.get(LEAD_SHARED, 'SOUL.md'), undefined);
    assert.equal((await wsContext.get(LEAD, 'USER.md'))?.content, 'about alice');
    assert.equal(await team.context.get(LEAD, 'USER.md'), undefined);
    assert.equal((await wsContext.get({ agentId: 'solo', userId: '' }, 'SOUL.md'))?.content, 'solo soul');
    assert.deepEqual((await context.list(LEAD_SHARED)).map((r) => r.name), ['SOUL.md']);
    assert.equal(await context.delete(LEAD_SHARED, 'SOUL.md'), true);
    assert.equal(await team.context.get(LEAD_SHARED, 'SOUL.md'), undefined);
  });
});
