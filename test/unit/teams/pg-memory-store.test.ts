// A team's memory on a real PostgreSQL server (started for this file, with pgvector built by
// test/support/install-pgvector.sh): the same memory contract as the workspace database, then what
// only the server has — teams kept apart on one server, another editor seeing a write at once, the
// vectors really in pgvector's type, and a server without pgvector (keyword-only, said in the note).
import assert from 'node:assert/strict';
import { Client } from 'pg';
import { createOpenAiCompatibleEmbeddings } from '../../../src/core/memory/embeddings';
import { PgConnection } from '../../../src/core/teams/postgres/pg-connection';
import { PgContextStore } from '../../../src/core/teams/postgres/pg-context-store';
import { PgMemoryStore } from '../../../src/core/teams/postgres/pg-memory-store';
import { teamStoreConnection, type TeamStoreConnection } from '../../../src/core/teams/postgres/team-store-settings';
import { startEmbeddingsServer } from '../../support/embeddings-server';
import { startPostgres, type PgServer } from '../../support/postgres-server';
import { memoryContract } from '../memory/memory-contract';
import { ALICE, GLOBAL } from '../memory/memory-store-fixture';
import { pgOptions } from './board-fixture';

async function asAdmin<R>(conn: TeamStoreConnection, fn: (c: Client) => Promise<R>): Promise<R> {
  const c = new Client({ ...conn.client });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

describe('teams: memory on PostgreSQL', () => {
  let server: PgServer;
  const open: { close(): Promise<void> }[] = [];
  before(async function () {
    this.timeout(120_000);
    server = await startPostgres();
  });
  after(async () => { await server?.remove(); });
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  /** The memory and context files of team `teamId` in `conn`'s schema, on a connection of their own. */
  async function teamMemory(conn: TeamStoreConnection, teamId: string, opts: Omit<Parameters<typeof PgMemoryStore.open>[1], 'teamId'> = {}) {
    const db = new PgConnection(conn);
    open.push(db);
    const memory = await PgMemoryStore.on(db, { teamId, ...opts });
    open.unshift(memory);
    return { db, memory, context: new PgContextStore(db, teamId) };
  }

  memoryContract('PostgreSQL', async (opts = {}) => {
    const { connection } = pgOptions(server);
    const first = await teamMemory(connection, 'web', opts);
    return {
      memory: first.memory,
      context: first.context,
      second: async (o = {}) => (await teamMemory(connection, 'web', o)).memory,
      close: async () => {
        for (const o of open.splice(0)) await o.close();
      },
    };
  });

  describe('what a shared server adds', () => {
    it('teams on one server keep their memory and context files apart, and another editor sees a write at once', async () => {
      const { connection } = pgOptions(server);
      const web = await teamMemory(connection, 'web');
      const api = await teamMemory(connection, 'api');
      const webElsewhere = await teamMemory(connection, 'web');
      const w = await web.memory.write(GLOBAL, 'MEMORY.md', '# Deploy\n\nThe staging server deploys on Tuesday.');
      await web.context.put(GLOBAL, 'SOUL.md', 'web soul');
      assert.deepEqual((await api.memory.search(GLOBAL, 'staging')).hits, []);
      assert.deepEqual(await api.memory.list(GLOBAL), []);
      assert.equal(await api.memory.read(GLOBAL, 'MEMORY.md'), undefined);
      assert.equal(await api.memory.chunk(w.chunks[0]!.id), undefined, 'a chunk id of another team is not found');
      assert.equal(await api.context.get(GLOBAL, 'SOUL.md'), undefined);
      assert.deepEqual((await webElsewhere.memory.search(GLOBAL, 'staging')).hits.map((h) => h.id), [w.chunks[0]!.id]);
      assert.equal((await webElsewhere.context.get(GLOBAL, 'SOUL.md'))?.content, 'web soul');
    });

    it('vectors are stored in pgvector\'s type, with the model that made them, and the server\'s cosine ranks them', async () => {
      const embed = await startEmbeddingsServer({ dims: 64 });
      try {
        const provider = createOpenAiCompatibleEmbeddings({ baseUrl: embed.url, model: 'test-embed', maxRetries: 0, timeoutMs: 5000 });
        const { connection } = pgOptions(server);
        const t = await teamMemory(connection, 'web', { embeddings: () => provider });
        assert.equal(t.memory.vectorsAvailable, true);
        await t.memory.write(ALICE, 'memory/garage.md', '# Garage\n\n## Car\n\nThe car needs new tyres.\n\n## Bike\n\nThe bike chain is rusty.\n');
        await t.memory.embeddingsSettled();
        const rows = await asAdmin(connection, async (c) => (await c.query<{ type: string; model: string; dims: number }>(
          `SELECT format_type(a.atttypid, a.atttypmod) AS type, c.embedding_model AS model, public.vector_dims(c.embedding) AS dims
           FROM ${connection.schema}.memory_chunks c, pg_attribute a WHERE a.attrelid = '${connection.schema}.memory_chunks'::regclass AND a.attname = 'embedding'`)).rows);
        assert.deepEqual(rows.map((r) => [r.type, r.model, r.dims]), [['vector', provider.id, 64], ['vector', provider.id, 64]]);
        const r = await t.memory.search(ALICE, 'automobile');
        assert.deepEqual([r.mode, r.hits[0]?.heading], ['hybrid', 'Garage > Car']);
      } finally {
        await embed.stop();
      }
    });

    it('a server without pgvector: writes and keyword search work, vectors are not stored, and the search\'s note says why', async () => {
      const admin = pgOptions(server).connection;
      const role = `plain_${Date.now().toString(36)}`;
      await asAdmin(admin, async (c) => {
        await c.query(`CREATE ROLE ${role} LOGIN PASSWORD 'plain-pw'`);
        await c.query(`CREATE DATABASE ${role} OWNER ${role}`);
      });
      // The role may not create the extension (pgvector is not a trusted extension), and this new database has none.
      const connection = teamStoreConnection({ url: `postgres://${role}@127.0.0.1:${server.port}/${role}`, schema: 'pincer', tls: { mode: 'disable' } }, 'plain-pw');
      const embed = await startEmbeddingsServer({ dims: 64 });
      try {
        const provider = createOpenAiCompatibleEmbeddings({ baseUrl: embed.url, model: 'test-embed', maxRetries: 0, timeoutMs: 5000 });
        const t = await teamMemory(connection, 'web', { embeddings: () => provider });
        assert.equal(t.memory.vectorsAvailable, false);
        assert.equal(t.memory.embeddingsEnabled, false);
        await t.memory.write(GLOBAL, 'memory/garage.md', '# Garage\n\nThe car needs new tyres.');
        await t.memory.embeddingsSettled();
        const r = await t.memory.search(GLOBAL, 'tyres');
        assert.deepEqual([r.mode, r.hits.length], ['bm25', 1]);
        assert.match(r.note ?? '', /no pgvector extension, so no vectors are stored there/);
        assert.equal(embed.stats.requests, 0, 'nothing was embedded for nowhere to keep it');
        const columns = await asAdmin(connection, async (c) => (await c.query(`SELECT attname FROM pg_attribute WHERE attrelid = 'pincer.memory_chunks'::regclass AND attname = 'embedding'`)).rowCount);
        assert.equal(columns, 0);
      } finally {
        await embed.stop();
      }
    });
  });
});
