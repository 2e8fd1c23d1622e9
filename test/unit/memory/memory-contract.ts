// Memory and context files as every store keeps them (one suite, run against each backend): the
// workspace database (sql.js) and a team's memory on a PostgreSQL server. Documents per agent and
// user with the user's shadowing the global one, listing by prefix and level, chunk ids kept across
// rewrites, deletion without ghost hits, keyword search (all words, then any) and hybrid search with
// a deterministic embeddings server, fused by the same reciprocal-rank code; context files per level.
import assert from 'node:assert/strict';
import type { ContextFiles } from '../../../src/core/memory/context-store';
import { createOpenAiCompatibleEmbeddings, type EmbeddingProvider } from '../../../src/core/memory/embeddings';
import type { MemoryApi, MemoryChange } from '../../../src/core/memory/memory-store';
import { MemoryError } from '../../../src/core/memory/types';
import { startEmbeddingsServer, type EmbeddingsServer } from '../../support/embeddings-server';
import { ALICE, BOB, GLOBAL, OTHER_AGENT } from './memory-store-fixture';

export interface MemoryFixture {
  memory: MemoryApi;
  context: ContextFiles;
  /** Another store on the same memory (another window or editor), closed with the fixture. */
  second(opts?: { embeddings?: () => EmbeddingProvider | undefined }): Promise<MemoryApi>;
  close(): Promise<void>;
}

export type OpenMemory = (opts?: { embeddings?: () => EmbeddingProvider | undefined }) => Promise<MemoryFixture>;

const NOTES = '# Notes\n\n## Deploy\n\nWe deploy the staging server from the release branch every Tuesday.\n\n## Food\n\nAlice likes café crème and hates olives.\n';
const GARAGE = '# Garage\n\n## Car\n\nThe car needs new tyres before winter.\n\n## Bike\n\nThe bike chain is rusty.\n';
const PETS = '# Pets\n\n## Dog\n\nThe dog eats twice a day.\n';

export function memoryContract(backend: string, open: OpenMemory): void {
  describe(`memory: the store's behaviour (${backend})`, () => {
    let f: MemoryFixture | undefined;
    const use = async (opts?: Parameters<OpenMemory>[0]) => (f = await open(opts));
    afterEach(async () => {
      await f?.close();
      f = undefined;
    });

    it('writes, reads with the user\'s document shadowing the global one, lists by prefix and level', async () => {
      const { memory } = await use();
      const w = await memory.write(ALICE, 'MEMORY.md', NOTES);
      assert.deepEqual([w.document.path, w.document.userId, w.chunks.length], ['MEMORY.md', 'alice', 2]);
      assert.deepEqual(w.changedChunks.map((c) => c.id), w.chunks.map((c) => c.id));
      await memory.write(GLOBAL, 'MEMORY.md', '# Shared\n\nThe team prefers tabs.');
      await memory.write(GLOBAL, 'memory/team.md', '# Team\n\nEveryone prefers coffee.');
      await memory.write(GLOBAL, 'memory/data.json', '{"not": "chunked"}');
      await memory.write(OTHER_AGENT, 'MEMORY.md', '# Other agent\n\nprefers nothing.');
      assert.equal((await memory.read(ALICE, 'MEMORY.md'))?.content, NOTES);
      assert.equal((await memory.read(BOB, 'MEMORY.md'))?.userId, '', 'Bob has no copy: the global one');
      assert.equal((await memory.readExact(GLOBAL, 'MEMORY.md'))?.content, '# Shared\n\nThe team prefers tabs.');
      assert.equal(await memory.readExact(BOB, 'MEMORY.md'), undefined);
      assert.equal(await memory.read(ALICE, 'memory/none.md'), undefined);
      const show = (l: { userId: string; path: string }[]) => l.map((d) => `${d.userId || 'global'}:${d.path}`);
      assert.deepEqual(show(await memory.list(ALICE)), ['alice:MEMORY.md', 'global:memory/data.json', 'global:memory/team.md']);
      assert.deepEqual(show(await memory.list(ALICE, { level: 'agent' })), ['global:MEMORY.md', 'global:memory/data.json', 'global:memory/team.md']);
      assert.deepEqual(show(await memory.list(ALICE, { level: 'user' })), ['alice:MEMORY.md']);
      assert.deepEqual(show(await memory.list(ALICE, { prefix: 'memory/t' })), ['global:memory/team.md']);
      const [info] = await memory.list(ALICE, { level: 'user' });
      assert.deepEqual([info!.size, info!.chunks], [Buffer.byteLength(NOTES), 2]);
      assert.deepEqual((await memory.list(GLOBAL, { prefix: 'memory/data' })).map((d) => d.chunks), [0], 'non-markdown is stored, not chunked');
    });

    it('keyword search: found right after the write, diacritics folded, all words first then any, scoped by level and path', async () => {
      const { memory } = await use();
      const w = await memory.write(ALICE, 'MEMORY.md', NOTES);
      const r = await memory.search(ALICE, 'staging deploy');
      assert.equal(r.mode, 'bm25');
      assert.equal(r.note, undefined);
      assert.equal(r.hits.length, 1);
      const [hit] = r.hits;
      assert.deepEqual([hit!.id, hit!.path, hit!.userId, hit!.heading, hit!.startLine, hit!.endLine], [w.chunks[0]!.id, 'MEMORY.md', 'alice', 'Notes > Deploy', 1, 5]);
      assert.deepEqual(hit!.why.terms, ['staging', 'deploy']);
      assert.ok(hit!.score > 0 && hit!.score === hit!.why.bm25?.score && hit!.why.bm25?.rank === 1);
      assert.match(hit!.abstract, /^We deploy the staging server/);
      assert.equal((await memory.search(ALICE, 'CAFE')).hits[0]?.heading, 'Notes > Food', 'case and diacritics folded');

      await memory.write(GLOBAL, 'memory/a.md', '# A\n\nalpha beta gamma');
      await memory.write(GLOBAL, 'memory/b.md', '# B\n\nalpha alpha alpha');
      await memory.write(GLOBAL, 'memory/sub/c.md', '# C\n\nbeta only here');
      const both = await memory.search(GLOBAL, 'alpha beta', { limit: 5 });
      assert.equal(both.hits[0]!.path, 'memory/a.md', 'the chunk holding both words first');
      assert.deepEqual(both.hits.map((h) => h.path).sort(), ['memory/a.md', 'memory/b.md', 'memory/sub/c.md']);
      assert.deepEqual((await memory.search(GLOBAL, 'alpha beta', { limit: 5, fallback: false })).hits.map((h) => h.path), ['memory/a.md']);
      assert.deepEqual((await memory.search(GLOBAL, 'alpha beta', { limit: 1 })).hits.map((h) => h.path), ['memory/a.md']);
      assert.deepEqual((await memory.search(GLOBAL, 'beta', { path: 'memory/sub' })).hits.map((h) => h.path), ['memory/sub/c.md'], 'a folder');
      assert.deepEqual((await memory.search(GLOBAL, 'alpha', { path: 'b.md' })).hits.map((h) => h.path), ['memory/b.md'], 'a file name anywhere');
      assert.deepEqual((await memory.search(GLOBAL, 'alpha', { path: 'memory/*.md', limit: 5 })).hits.map((h) => h.path).sort(), ['memory/a.md', 'memory/b.md'], 'a glob');
      assert.deepEqual((await memory.search(ALICE, 'alpha', { scope: 'user' })).hits, [], 'only the user\'s own');
      assert.equal((await memory.search(ALICE, 'alpha', { scope: 'agent' })).hits.length, 2);
      assert.deepEqual((await memory.search(OTHER_AGENT, 'alpha')).hits, [], 'another agent sees none of it');
      assert.deepEqual((await memory.search(ALICE, '')).hits, []);
      const huge = await memory.search(ALICE, Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '));
      assert.match(huge.note ?? '', /Only the first 12 words were searched for \(28 more were left out\)/);
      const stop = new AbortController();
      stop.abort();
      await assert.rejects(memory.search(ALICE, 'staging', { signal: stop.signal }));
    });

    it('a rewrite keeps the ids of unchanged chunks; delete leaves no ghost hits; changes are announced', async () => {
      const { memory } = await use();
      const changes: MemoryChange[] = [];
      memory.onDidChange((c) => changes.push(c));
      const doc = '## Intro\n\none\n\n## Part 2\n\ntwo\n';
      const first = await memory.write(GLOBAL, 'memory/doc.md', doc);
      const same = await memory.write(GLOBAL, 'memory/doc.md', doc);
      assert.deepEqual(same.changedChunks, [], 'an identical write changes nothing');
      assert.equal(same.document.updatedAt, first.document.updatedAt);
      const second = await memory.write(GLOBAL, 'memory/doc.md', `${doc}\n## Part 3\n\nthree\n`);
      assert.deepEqual(second.chunks.slice(0, 2).map((c) => c.id), first.chunks.map((c) => c.id));
      assert.deepEqual(second.changedChunks.map((c) => c.heading), ['Part 3']);
      const many = await memory.writeMany(GLOBAL, [{ path: 'memory/x.md', content: '# X\n\nfirst' }, { path: 'memory/y.md', content: '# Y\n\nwhy' }, { path: 'memory/x.md', content: '# X\n\nlast' }]);
      assert.deepEqual(many.map((m) => m.document.content), ['# X\n\nlast', '# Y\n\nwhy', '# X\n\nlast'], 'a repeated path keeps its last content');
      assert.equal((await memory.search(GLOBAL, 'three')).hits.length, 1);
      assert.equal(await memory.delete(GLOBAL, 'memory/doc.md'), true);
      assert.equal(await memory.delete(GLOBAL, 'memory/doc.md'), false);
      assert.deepEqual((await memory.search(GLOBAL, 'three')).hits, []);
      assert.equal(await memory.chunk(second.chunks[2]!.id), undefined);
      const said = changes.map((c) => `${c.kind}:${c.path}`);
      assert.deepEqual([...said.slice(0, 2), ...said.slice(2, 4).sort(), said[4]], ['write:memory/doc.md', 'write:memory/doc.md', 'write:memory/x.md', 'write:memory/y.md', 'delete:memory/doc.md']);
      assert.equal(said.length, 5, 'the identical write announced nothing');
    });

    it('chunk(id) with a scope shows only what that agent and user may see; bad paths and sizes are refused', async () => {
      const { memory } = await use();
      const mine = await memory.write(ALICE, 'MEMORY.md', NOTES);
      const id = mine.chunks[0]!.id;
      assert.deepEqual(await memory.chunk(id, ALICE).then((c) => [c?.path, c?.userId, c?.heading, c?.seq]), ['MEMORY.md', 'alice', 'Notes > Deploy', 0]);
      assert.equal(await memory.chunk(id, BOB), undefined);
      assert.equal(await memory.chunk(id, OTHER_AGENT), undefined);
      assert.equal(await memory.chunk(Number.NaN), undefined);
      const invalid = (e: unknown) => e instanceof MemoryError && e.code === 'invalid';
      await assert.rejects(memory.write(ALICE, '../etc/passwd', 'x'), invalid);
      await assert.rejects(memory.write(ALICE, 'notes.md', 'x'), invalid);
      await assert.rejects(memory.write({ agentId: '', userId: 'a' }, 'MEMORY.md', 'x'), invalid);
      await assert.rejects(memory.write(ALICE, 'MEMORY.md', 'x'.repeat(2 * 1024 * 1024 + 1)), (e: unknown) => e instanceof MemoryError && e.code === 'too-large');
      const evil = "'); DROP TABLE memory_documents; --";
      await memory.write({ agentId: 'x', userId: evil }, 'MEMORY.md', `# ${evil}\n\n${evil}`);
      assert.equal((await memory.read({ agentId: 'x', userId: evil }, 'MEMORY.md'))?.content, `# ${evil}\n\n${evil}`);
      assert.equal((await memory.search({ agentId: 'x', userId: evil }, evil)).hits.length, 1);
    });

    it('context files: two levels kept apart, upserted, listed by name, deleted; hostile text verbatim, unusable keys refused', async () => {
      const { context } = await use();
      const shared = { agentId: 'x', userId: '' };
      const alice = { agentId: 'x', userId: 'alice' };
      await context.put(shared, 'SOUL.md', 'agent');
      const u = await context.put(alice, 'SOUL.md', 'alice');
      const again = await context.put(alice, 'SOUL.md', 'alice 2');
      assert.ok(again.updatedAt >= u.updatedAt);
      assert.deepEqual(await context.get(alice, 'SOUL.md'), { agentId: 'x', userId: 'alice', name: 'SOUL.md', content: 'alice 2', updatedAt: again.updatedAt });
      assert.equal((await context.get(shared, 'SOUL.md'))?.content, 'agent');
      assert.equal(await context.get({ agentId: 'x', userId: 'bob' }, 'SOUL.md'), undefined);
      assert.equal(await context.get({ agentId: 'y', userId: 'alice' }, 'SOUL.md'), undefined, 'per agent');
      await context.put(alice, 'AGENTS.md', '');
      assert.deepEqual((await context.list(alice)).map((r) => [r.name, r.content]), [['AGENTS.md', ''], ['SOUL.md', 'alice 2']]);
      assert.deepEqual((await context.list(shared)).map((r) => r.name), ['SOUL.md']);
      assert.equal(await context.delete(alice, 'SOUL.md'), true);
      assert.equal(await context.delete(alice, 'SOUL.md'), false);
      assert.equal((await context.get(shared, 'SOUL.md'))?.content, 'agent', 'the other level is untouched');
      const evil = "'); DROP TABLE user_context_files; --";
      await context.put({ agentId: 'x', userId: evil }, 'SOUL.md', evil);
      assert.equal((await context.get({ agentId: 'x', userId: evil }, 'SOUL.md'))?.content, evil);
      const invalid = (e: unknown) => e instanceof MemoryError && e.code === 'invalid';
      await assert.rejects(context.put({ agentId: '', userId: 'a' }, 'SOUL.md', 'x'), invalid);
      await assert.rejects(context.put(alice, 'SO\0UL.md', 'x'), invalid);
      await assert.rejects(context.list({ agentId: 'x', userId: 'a\0' }), invalid);
    });

    describe('with an embeddings provider (a deterministic loopback server)', () => {
      let server: EmbeddingsServer;
      let provider: EmbeddingProvider;
      beforeEach(async () => {
        server = await startEmbeddingsServer({ dims: 64 });
        provider = createOpenAiCompatibleEmbeddings({ baseUrl: server.url, model: 'test-embed', maxRetries: 0, timeoutMs: 5000 });
      });
      afterEach(async () => {
        await f?.close();
        f = undefined;
        await server.stop();
      });

      it('hybrid: finds by meaning what keywords cannot, both ranks reported when they agree; a rewrite embeds only its changed chunk', async () => {
        const { memory } = await use({ embeddings: () => provider });
        assert.equal(memory.embeddingsEnabled, true);
        await memory.write(ALICE, 'memory/garage.md', GARAGE);
        await memory.write(ALICE, 'memory/pets.md', PETS);
        await memory.embeddingsSettled();
        const plain = await f!.second();
        assert.deepEqual((await plain.search(ALICE, 'automobile')).hits, [], 'keywords alone find nothing');
        const r = await memory.search(ALICE, 'automobile');
        assert.equal(r.mode, 'hybrid');
        assert.equal(r.note, undefined);
        assert.equal(r.hits[0]!.heading, 'Garage > Car', '"automobile" shares the vector bucket of "car"');
        assert.equal(r.hits[0]!.why.bm25, undefined, 'not a keyword match');
        assert.equal(r.hits[0]!.why.vector?.rank, 1);
        assert.ok((r.hits[0]!.why.vector?.similarity ?? 0) > 0.2);
        const dog = await memory.search(ALICE, 'dog');
        assert.equal(dog.hits[0]!.heading, 'Pets > Dog');
        assert.deepEqual([dog.hits[0]!.why.bm25?.rank, dog.hits[0]!.why.vector?.rank], [1, 1]);
        assert.ok(Math.abs(dog.hits[0]!.score - 2 / 61) < 1e-12, 'reciprocal rank fusion: 1/(60+1) from each list');
        const before = server.stats.inputs;
        const w = await memory.write(ALICE, 'memory/garage.md', GARAGE.replace('rusty', 'brand new'));
        await memory.embeddingsSettled();
        assert.equal(w.changedChunks.length, 1);
        assert.equal(server.stats.inputs - before, 1, 'one chunk re-embedded');
      });

      it('a failing provider gives keyword results with one note, never an error; no vectors yet says so, and reindex embeds them', async () => {
        const { memory } = await use();
        await memory.write(GLOBAL, 'memory/garage.md', GARAGE);
        await memory.write(GLOBAL, 'memory/pets.md', PETS);
        assert.deepEqual(await memory.search(GLOBAL, 'tyres').then((p) => [p.mode, p.note, p.hits.length]), ['bm25', undefined, 1], 'no provider: keywords, no note');
        const embedded = await f!.second({ embeddings: () => provider });
        const none = await embedded.search(GLOBAL, 'automobile');
        assert.equal(none.mode, 'bm25');
        assert.match(none.note ?? '', /no memory has vectors from .* yet/);
        const r = await embedded.reindex(GLOBAL);
        assert.deepEqual([r.documents, r.chunks, r.embedded, r.cancelled], [2, 3, 3, false]);
        assert.equal((await embedded.search(GLOBAL, 'automobile')).hits[0]?.heading, 'Garage > Car');
        assert.equal((await embedded.reindex(GLOBAL)).embedded, 0, 'nothing left to embed');
        server.fail(500, 100);
        const failed = await embedded.search(GLOBAL, 'tyres winter');
        assert.equal(failed.mode, 'bm25');
        assert.equal(failed.hits[0]?.heading, 'Garage > Car');
        assert.match(failed.note ?? '', /^Vector search was skipped \(.+\); these are keyword \(.+\) results only\.$/);
        await embedded.write(GLOBAL, 'memory/more.md', '# More\n\ntext');
        await embedded.embeddingsSettled();
        assert.ok(embedded.lastEmbeddingError, 'the background failure is kept for whoever asks');
      });
    });
  });
}
