import * as assert from 'node:assert/strict';
import { createOpenAiCompatibleEmbeddings, type EmbeddingProvider } from '../../../src/core/memory/embeddings';
import { MemoryStore } from '../../../src/core/memory/memory-store';
import { vectorFromBlob } from '../../../src/core/memory/memory-store-write';
import { buildFtsQuery } from '../../../src/core/memory/fts-query';
import { levelCondition } from '../../../src/core/memory/memory-scope-sql';
import { abstractOf, searchBm25 } from '../../../src/core/memory/memory-store-search';
import { reciprocalRankFusion } from '../../../src/core/memory/rank-fusion';
import { VectorIndex } from '../../../src/core/memory/vector-index';
import type { SqlValue } from '../../../src/core/storage/types';
import { embedText, startEmbeddingsServer, type EmbeddingsServer } from '../../support/embeddings-server';
import { rng } from '../../support/rng';
import { removeTempDirs, tempDir } from '../../support/storage-fixtures';
import { ALICE, BOB, closeMemoryDbs, GLOBAL, openMemoryDb, openStore } from './memory-store-fixture';

const GARAGE = '# Garage\n\n## Car\n\nThe car needs new tyres before winter.\n\n## Bike\n\nThe bike chain is rusty.\n';
const PETS = '# Pets\n\n## Dog\n\nThe dog eats twice a day.\n';

describe('memory store: vectors and hybrid search', () => {
  let server: EmbeddingsServer;
  let provider: EmbeddingProvider;

  beforeEach(async () => {
    server = await startEmbeddingsServer({ dims: 64 });
    provider = createOpenAiCompatibleEmbeddings({ baseUrl: server.url, model: 'test-embed', maxRetries: 0, timeoutMs: 5000 });
  });
  afterEach(async () => {
    await closeMemoryDbs();
    await server.stop();
  });
  after(removeTempDirs);

  it('embeds written chunks in the background and finds by meaning what BM25 cannot', async () => {
    const { store, db } = await openStore({ embeddings: () => provider });
    await store.write(ALICE, 'memory/garage.md', GARAGE);
    await store.write(ALICE, 'memory/pets.md', PETS);
    await store.embeddingsSettled();
    const rows = await db.query<{ model: string; embedding: Uint8Array }>('SELECT embedding_model AS model, embedding FROM memory_chunks ORDER BY id');
    assert.equal(rows.length, 3);
    for (const r of rows) {
      assert.equal(r.model, provider.id);
      assert.equal(vectorFromBlob(r.embedding).length, 64);
    }
    assert.deepEqual((await new MemoryStore(db).search(ALICE, 'automobile')).hits, [], 'keywords alone find nothing');
    const r = await store.search(ALICE, 'automobile');
    assert.equal(r.mode, 'hybrid');
    assert.equal(r.hits[0].heading, 'Garage > Car', '"automobile" shares the vector bucket of "car"');
    assert.equal(r.hits[0].why.bm25, undefined, 'not a keyword match');
    assert.equal(r.hits[0].why.vector?.rank, 1);
    assert.ok((r.hits[0].why.vector?.similarity ?? 0) > 0.2);
    // Keyword and vector agree on "dog": both ranks are reported, fused score first.
    const dog = await store.search(ALICE, 'dog');
    assert.equal(dog.hits[0].heading, 'Pets > Dog');
    assert.deepEqual([dog.hits[0].why.bm25?.rank, dog.hits[0].why.vector?.rank], [1, 1]);
    assert.deepEqual(dog.hits[0].why.terms, ['dog']);
  });

  it('a rewrite embeds only the chunks it changed, and a repeated query is embedded once', async () => {
    const { store } = await openStore({ embeddings: () => provider });
    await store.write(GLOBAL, 'memory/garage.md', GARAGE);
    await store.embeddingsSettled();
    const before = server.stats.inputs;
    const w = await store.write(GLOBAL, 'memory/garage.md', GARAGE.replace('rusty', 'brand new'));
    await store.embeddingsSettled();
    assert.equal(w.changedChunks.length, 1);
    assert.equal(server.stats.inputs - before, 1, 'one chunk re-embedded');
    const requests = server.stats.requests;
    await store.search(GLOBAL, 'bicycle chain');
    await store.search(GLOBAL, 'bicycle chain');
    assert.equal(server.stats.requests - requests, 1, 'the second search used the cached query vector');
  });

  it('a failing provider: keyword results with one note, never an error; no provider: BM25, no note', async () => {
    const { store } = await openStore({ embeddings: () => provider });
    await store.write(GLOBAL, 'memory/garage.md', GARAGE);
    await store.embeddingsSettled();
    server.fail(500, 100);
    const r = await store.search(GLOBAL, 'tyres winter');
    assert.equal(r.mode, 'bm25');
    assert.equal(r.hits[0].heading, 'Garage > Car');
    assert.match(r.note ?? '', /^Vector search was skipped \(.+\); these are keyword \(BM25\) results only\.$/);
    assert.ok(r.hits.every((h) => h.why.vector === undefined));
    // A write while the provider fails still succeeds; the failure is kept for whoever asks.
    await store.write(GLOBAL, 'memory/pets.md', PETS);
    await store.embeddingsSettled();
    assert.ok(store.lastEmbeddingError);

    const plain = new MemoryStore((await openStore()).db);
    await plain.write(GLOBAL, 'MEMORY.md', GARAGE);
    const p = await plain.search(GLOBAL, 'tyres');
    assert.deepEqual([p.mode, p.note, p.hits.length], ['bm25', undefined, 1]);
    assert.equal(plain.embeddingsEnabled, false);
  });

  it('says so when nothing has vectors yet, and reindex embeds what is missing', async () => {
    const dir = tempDir('memory-reindex-vectors');
    const plain = new MemoryStore(await openMemoryDb(dir));
    await plain.write(GLOBAL, 'memory/garage.md', GARAGE);
    await plain.write(GLOBAL, 'memory/pets.md', PETS);
    const store = new MemoryStore(await openMemoryDb(dir), { embeddings: () => provider });
    const before = await store.search(GLOBAL, 'automobile');
    assert.equal(before.mode, 'bm25');
    assert.match(before.note ?? '', /no memory has vectors from .* yet/);
    const r = await store.reindex(GLOBAL);
    assert.deepEqual([r.documents, r.chunks, r.embedded], [2, 3, 3]);
    const after = await store.search(GLOBAL, 'automobile');
    assert.equal(after.mode, 'hybrid');
    assert.equal(after.hits[0].heading, 'Garage > Car');
    assert.equal((await store.reindex(GLOBAL)).embedded, 0, 'nothing left to embed');
  });

  it('vector hits respect scope and shadowing, and deleted chunks drop out of the vector index', async () => {
    const { store } = await openStore({ embeddings: () => provider });
    await store.write(GLOBAL, 'memory/garage.md', GARAGE);
    await store.write(ALICE, 'memory/garage.md', '# Mine\n\n## Wheels\n\nMy car is red.');
    await store.write({ agentId: 'other', userId: '' }, 'memory/car.md', '# Other\n\ncar car car');
    await store.embeddingsSettled();
    const paths = (await store.search(ALICE, 'automobile')).hits.map((h) => `${h.userId}:${h.path}:${h.heading}`);
    assert.deepEqual(paths, ['alice:memory/garage.md:Mine > Wheels']);
    await store.delete(ALICE, 'memory/garage.md');
    const afterDelete = (await store.search(ALICE, 'automobile')).hits.map((h) => `${h.userId}:${h.heading}`);
    assert.equal(afterDelete[0], ':Garage > Car', 'the global document is visible again');
  });

  it('when the nearest vectors belong to someone else, the scan is filtered and the allowed chunk still comes back', async () => {
    const { store } = await openStore({ embeddings: () => provider });
    // More of bob's car notes than the unfiltered candidate list holds (limit 8 → 120 candidates).
    await store.writeMany(BOB, Array.from({ length: 150 }, (_, i) => ({ path: `memory/car-${i}.md`, content: `# Car ${i}\n\nThe car needs oil, note ${i}.\n` })));
    await store.write(ALICE, 'memory/garage.md', GARAGE);
    await store.embeddingsSettled();
    const r = await store.search(ALICE, 'automobile');
    assert.equal(r.mode, 'hybrid');
    assert.ok(r.hits.length > 0 && r.hits.every((h) => h.userId === ALICE.userId || h.userId === ''), JSON.stringify(r.hits.map((h) => [h.path, h.userId])));
    assert.equal(r.hits[0].path, 'memory/garage.md');
  });

});

describe('memory store: hybrid search is exactly the fusion of its two rankings', () => {
  afterEach(closeMemoryDbs);
  after(removeTempDirs);

  it('same hits, same order, same ranks as BM25\'s all-terms top N fused with the exact nearest N the scope allows', async () => {
    const dims = 32;
    const provider: EmbeddingProvider = { id: 'in-process 32', embed: async (texts) => texts.map((t) => embedText(t, dims)) };
    const { store, db } = await openStore({ embeddings: () => provider });
    // Few dimensions and a small vocabulary: many near neighbours, shared terms and ties, across
    // two users and the global level (a user's document shadows the global one of the same path).
    const words = 'car bike dog cat tyre chain winter garden train kernel budget invoice deploy review'.split(' ');
    const random = rng(7);
    const doc = (n: number) => Array.from({ length: 6 }, (_, s) =>
      `## Part ${s}\n\n${Array.from({ length: 12 }, () => words[Math.floor(random() * words.length)]).join(' ')}.\n`).join('\n') + `\nnote ${n}\n`;
    for (let d = 0; d < 24; d++) {
      await store.write([ALICE, BOB, GLOBAL][d % 3], `memory/d${d % 12}.md`, `# Doc ${d}\n\n${doc(d)}`);
    }
    await store.embeddingsSettled();
    // The expected rankings below read the full-text index directly, not through a search.
    await store.ftsSettled();
    const pool = 30;
    for (const query of ['car winter', 'dog', 'budget invoice review', 'garden train', 'kernel']) {
      const q = buildFtsQuery(query);
      const where = levelCondition(ALICE, 'all');
      const bm = (await searchBm25(db, q, where, pool, undefined, false)).rows;
      const allowed = await db.query<{ id: number; embedding: Uint8Array }>(
        `SELECT c.id, c.embedding FROM memory_chunks AS c CROSS JOIN memory_documents AS d ON d.id = c.doc_id WHERE ${where.sql}`, where.params as SqlValue[]);
      const index = new VectorIndex(dims);
      for (const r of allowed) index.upsert(r.id, vectorFromBlob(r.embedding));
      const vec = index.search(embedText(query, dims), pool);
      const expected = reciprocalRankFusion([
        { source: 'bm25', hits: bm.map((r) => ({ id: r.id, score: r.score })) },
        { source: 'vector', hits: vec },
      ]).slice(0, 8);
      const got = await store.search(ALICE, query, { limit: 8 });
      assert.equal(got.mode, 'hybrid');
      assert.ok(expected.length > 0);
      assert.deepEqual(got.hits.map((h) => [h.id, h.score, h.why.bm25?.rank, h.why.vector?.rank]),
        expected.map((f) => [f.id, f.score, f.ranks.bm25?.rank, f.ranks.vector?.rank]), query);
      // Each hit carries its own chunk's place and excerpt, whichever query read its row.
      for (const h of got.hits) {
        const c = await store.chunk(h.id);
        assert.ok(c, `chunk ${h.id}`);
        assert.deepEqual([h.path, h.userId, h.heading, h.startLine, h.endLine, h.abstract],
          [c.path, c.userId, c.heading, c.startLine, c.endLine, abstractOf(c.text, q.terms)], `${query}: chunk ${h.id}`);
      }
    }
  });
});
