import * as assert from 'node:assert/strict';
import { MemoryStore, type MemoryChange } from '../../../src/core/memory/memory-store';
import { MemoryError } from '../../../src/core/memory/types';
import { removeTempDirs, tempDir } from '../../support/storage-fixtures';
import { ALICE, assertFtsConsistent, BOB, closeMemoryDbs, GLOBAL, openMemoryDb, openStore, OTHER_AGENT } from './memory-store-fixture';

const NOTES = `# Notes

## Deploy

We deploy the staging server from the release branch every Tuesday.

## Food

Alice likes café crème and hates olives.
`;

describe('memory store: documents and search', () => {
  afterEach(closeMemoryDbs);
  after(removeTempDirs);

  it('finds a document right after writing it, with path, lines, heading, abstract and why', async () => {
    const { store } = await openStore();
    const w = await store.write(ALICE, 'MEMORY.md', NOTES);
    assert.equal(w.document.path, 'MEMORY.md');
    assert.equal(w.chunks.length, 2);
    assert.deepEqual(w.changedChunks.map((c) => c.id), w.chunks.map((c) => c.id));
    const r = await store.search(ALICE, 'staging deploy');
    assert.equal(r.mode, 'bm25');
    assert.equal(r.hits.length, 1);
    const [hit] = r.hits;
    assert.deepEqual([hit.id, hit.path, hit.userId, hit.heading, hit.startLine, hit.endLine], [w.chunks[0].id, 'MEMORY.md', 'alice', 'Notes > Deploy', 1, 5]);
    assert.deepEqual(hit.why.terms, ['staging', 'deploy']);
    assert.equal(hit.why.bm25?.rank, 1);
    assert.ok(hit.score > 0 && hit.score === hit.why.bm25?.score);
    assert.match(hit.abstract, /^We deploy the staging server/);
    assert.ok((await store.search(ALICE, 'cafe')).hits.length === 1, 'diacritics folded');
  });

  it('AND first, then OR: chunks holding all words rank above those holding some', async () => {
    const { store } = await openStore();
    await store.write(GLOBAL, 'memory/a.md', '# A\n\nalpha beta gamma');
    await store.write(GLOBAL, 'memory/b.md', '# B\n\nalpha alpha alpha');
    await store.write(GLOBAL, 'memory/c.md', '# C\n\nbeta only here');
    const r = await store.search(GLOBAL, 'alpha beta', { limit: 5 });
    assert.deepEqual(r.hits.map((h) => h.path), ['memory/a.md', 'memory/b.md', 'memory/c.md'].slice(0, r.hits.length));
    assert.equal(r.hits.length, 3);
    assert.deepEqual(r.hits[0].why.terms, ['alpha', 'beta']);
    const strict = await store.search(GLOBAL, 'alpha beta', { limit: 5, fallback: false });
    assert.deepEqual(strict.hits.map((h) => h.path), ['memory/a.md']);
    const one = await store.search(GLOBAL, 'alpha beta', { limit: 1 });
    assert.deepEqual(one.hits.map((h) => h.path), ['memory/a.md'], 'AND found enough: no fallback');
  });

  it('shadows the global document with the user\'s own at the same path, per user, per agent', async () => {
    const { store } = await openStore();
    await store.write(GLOBAL, 'MEMORY.md', '# Shared\n\nThe team prefers tabs.');
    await store.write(ALICE, 'MEMORY.md', '# Mine\n\nAlice prefers spaces.');
    await store.write(GLOBAL, 'memory/team.md', '# Team\n\nEveryone prefers coffee.');
    await store.write(OTHER_AGENT, 'MEMORY.md', '# Other agent\n\nprefers nothing.');
    assert.equal((await store.read(ALICE, 'MEMORY.md'))?.userId, 'alice');
    assert.equal((await store.read(BOB, 'MEMORY.md'))?.userId, '', 'Bob has no copy: the global one');
    assert.equal((await store.readExact(GLOBAL, 'MEMORY.md'))?.content, '# Shared\n\nThe team prefers tabs.');
    assert.equal(await store.readExact(BOB, 'MEMORY.md'), undefined);

    const paths = async (scope = ALICE, level?: 'all' | 'user' | 'agent') =>
      (await store.search(scope, 'prefers', { limit: 10, ...(level ? { scope: level } : {}) })).hits.map((h) => `${h.userId || 'global'}:${h.path}`).sort();
    assert.deepEqual(await paths(), ['alice:MEMORY.md', 'global:memory/team.md']);
    assert.deepEqual(await paths(ALICE, 'user'), ['alice:MEMORY.md']);
    assert.deepEqual(await paths(ALICE, 'agent'), ['global:MEMORY.md', 'global:memory/team.md']);
    assert.deepEqual(await paths(BOB), ['global:MEMORY.md', 'global:memory/team.md']);
    assert.deepEqual(await paths(GLOBAL), ['global:MEMORY.md', 'global:memory/team.md']);

    assert.deepEqual((await store.list(ALICE)).map((d) => `${d.userId || 'global'}:${d.path}`), ['alice:MEMORY.md', 'global:memory/team.md']);
    assert.deepEqual((await store.list(ALICE, { level: 'agent' })).map((d) => d.path), ['MEMORY.md', 'memory/team.md']);
    assert.deepEqual((await store.list(ALICE, { level: 'user' })).map((d) => d.path), ['MEMORY.md']);
    assert.deepEqual((await store.list(ALICE, { prefix: 'memory/' })).map((d) => d.path), ['memory/team.md']);
    const [info] = await store.list(ALICE, { level: 'user' });
    assert.deepEqual([info.size, info.chunks], [Buffer.byteLength('# Mine\n\nAlice prefers spaces.'), 1]);
  });

  it('filters by folder or glob, in SQL before the limit', async () => {
    const { store } = await openStore();
    for (let i = 0; i < 12; i++) await store.write(GLOBAL, `memory/noise/${i}.md`, `# N${i}\n\nkeyword noise ${i}`);
    await store.write(GLOBAL, 'memory/projects/pincer.md', '# Pincer\n\nkeyword in a project');
    await store.write(GLOBAL, 'memory/projects-old/x.md', '# Old\n\nkeyword in an old project');
    const by = async (path: string) => (await store.search(GLOBAL, 'keyword', { path, limit: 3 })).hits.map((h) => h.path);
    assert.deepEqual(await by('memory/projects'), ['memory/projects/pincer.md'], 'a folder, not a name prefix');
    assert.deepEqual(await by('./memory/projects/'), ['memory/projects/pincer.md']);
    assert.deepEqual(await by('memory/projects/pincer.md'), ['memory/projects/pincer.md']);
    assert.deepEqual((await by('memory/project*/**')).sort(), ['memory/projects-old/x.md', 'memory/projects/pincer.md']);
    assert.deepEqual(await by('x.md'), ['memory/projects-old/x.md'], 'a bare name matches anywhere');
    assert.deepEqual(await by('memory/nothing-here'), []);
  });

  it('a rewrite keeps the ids of unchanged chunks, and only the changed one is new', async () => {
    const { store, db } = await openStore();
    const sections = Array.from({ length: 6 }, (_, i) => `## Part ${i}\n\n${`words for part ${i} `.repeat(20).trim()}`);
    const first = await store.write(GLOBAL, 'memory/long.md', sections.join('\n\n'));
    assert.equal(first.chunks.length, 6);
    // Insert a section at the top: every other chunk moves down but keeps its id.
    const second = await store.write(GLOBAL, 'memory/long.md', [`## Intro\n\nbrand new opening`, ...sections.slice(0, 3), `## Part 3\n\nrewritten`, ...sections.slice(4)].join('\n\n'));
    const oldIds = new Map(first.chunks.map((c) => [c.text, c.id]));
    const kept = second.chunks.filter((c) => oldIds.get(c.text) === c.id);
    assert.equal(kept.length, 5);
    assert.deepEqual(second.changedChunks.map((c) => c.text.split('\n')[0]), ['## Intro', '## Part 3']);
    assert.ok(second.changedChunks.every((c) => c.id > Math.max(...first.chunks.map((x) => x.id))), 'new ids are never reused ones');
    assert.equal(second.chunks[1].startLine, first.chunks[0].startLine + 4, 'kept chunks have their new line numbers');
    const stored = await store.chunk(second.chunks[1].id);
    assert.equal(stored?.startLine, second.chunks[1].startLine);
    assert.equal(await store.chunk(first.chunks[3].id), undefined, 'the replaced chunk is gone');
    assert.deepEqual((await store.search(GLOBAL, 'words part 3', { fallback: false })).hits, [], 'no ghost of the old text');
    assert.equal((await store.search(GLOBAL, 'rewritten')).hits[0]?.id, second.changedChunks[1].id);
    // Writing the same content again changes nothing.
    const same = await store.write(GLOBAL, 'memory/long.md', second.document.content);
    assert.deepEqual(same.changedChunks, []);
    assert.equal(same.document.updatedAt, second.document.updatedAt);
    await assertFtsConsistent(db);
  });

  it('identical chunks in one document are separate rows; removing one keeps the other', async () => {
    const { store, db } = await openStore();
    const block = '## Same\n\nrepeated boilerplate text';
    const w = await store.write(GLOBAL, 'memory/dup.md', `${block}\n\n${block}\n\n${block}`);
    assert.equal(new Set(w.chunks.map((c) => c.id)).size, 3);
    const w2 = await store.write(GLOBAL, 'memory/dup.md', `${block}\n\n${block}`);
    assert.deepEqual(w2.chunks.map((c) => c.id), w.chunks.slice(0, 2).map((c) => c.id));
    assert.equal((await store.search(GLOBAL, 'boilerplate', { limit: 10 })).hits.length, 2);
    await assertFtsConsistent(db);
  });

  it('delete removes the document, its chunks and its index entries: no ghost hits', async () => {
    const { store, db } = await openStore();
    const w = await store.write(ALICE, 'memory/gone.md', '# Gone\n\nephemeral zebra facts');
    await store.write(ALICE, 'memory/stays.md', '# Stays\n\nzebra facts that stay');
    assert.equal((await store.search(ALICE, 'zebra')).hits.length, 2);
    assert.equal(await store.delete(ALICE, 'memory/gone.md'), true);
    assert.equal(await store.delete(ALICE, 'memory/gone.md'), false);
    assert.deepEqual((await store.search(ALICE, 'zebra')).hits.map((h) => h.path), ['memory/stays.md']);
    assert.deepEqual((await store.search(ALICE, 'ephemeral')).hits, []);
    assert.equal(await store.chunk(w.chunks[0].id), undefined);
    assert.equal(await store.read(ALICE, 'memory/gone.md'), undefined);
    await assertFtsConsistent(db);
    const [{ n }] = await db.query<{ n: number }>("SELECT count(*) AS n FROM memory_chunks");
    assert.equal(n, 1);
  });

  it('refuses invalid paths and oversized content with a clear MemoryError', async () => {
    const { store } = await openStore();
    const bad = ['', '/MEMORY.md', '../MEMORY.md', 'memory/../secrets.md', 'memory\\a.md', 'notes.md', 'memory', 'memory/', 'memory//a.md',
      'memory/./a.md', 'MEMORY.MD', 'src/memory/a.md', 'memory/a\u0000.md', `memory/${'x'.repeat(600)}.md`];
    for (const p of bad) {
      await assert.rejects(store.write(ALICE, p, 'x'), (e: unknown) => e instanceof MemoryError && e.code === 'invalid' && /MEMORY\.md, memory\.md or files under memory\//.test(e.message), p);
    }
    await assert.rejects(store.read(ALICE, '../etc/passwd'), MemoryError);
    await assert.rejects(store.write(ALICE, 'memory/big.md', 'x'.repeat(3 * 1024 * 1024)), (e: unknown) => e instanceof MemoryError && e.code === 'too-large');
    await assert.rejects(store.write({ agentId: '', userId: 'a' }, 'MEMORY.md', 'x'), (e: unknown) => e instanceof MemoryError && e.code === 'invalid');
    // Nothing was written by the refused calls.
    assert.deepEqual(await store.list(ALICE), []);
    for (const ok of ['MEMORY.md', 'memory.md', 'memory/a.md', 'memory/deep/er/b.md', 'memory/data.json']) await store.write(ALICE, ok, '# ok');
    assert.equal((await store.list(ALICE)).length, 5);
    const json = (await store.list(ALICE)).find((d) => d.path === 'memory/data.json');
    assert.equal(json?.chunks, 0, 'non-markdown files are stored, not indexed');
  });

  it('writeMany writes batches atomically per document and keeps the last of a repeated path', async () => {
    const { store, db } = await openStore();
    const docs = Array.from({ length: 30 }, (_, i) => ({ path: `memory/m${i}.md`, content: `# M${i}\n\n${`manydocs ${i} `.repeat(200)}` }));
    const out = await store.writeMany(GLOBAL, [...docs, { path: 'memory/m0.md', content: '# M0\n\nfinal version' }]);
    assert.equal(out.length, 31);
    assert.equal(out[0].document.content, '# M0\n\nfinal version');
    assert.equal((await store.read(GLOBAL, 'memory/m0.md'))?.content, '# M0\n\nfinal version');
    assert.equal((await store.list(GLOBAL)).length, 30);
    await assert.rejects(store.writeMany(GLOBAL, [{ path: 'memory/fine.md', content: 'x' }, { path: '../bad', content: 'x' }]), MemoryError);
    assert.equal(await store.read(GLOBAL, 'memory/fine.md'), undefined, 'checked before anything is written');
    await assertFtsConsistent(db);
  });

  it('chunk(id) with a scope shows only what that agent and user may see', async () => {
    const { store } = await openStore();
    const a = await store.write(ALICE, 'MEMORY.md', '# A\n\nalice private');
    const g = await store.write(GLOBAL, 'MEMORY.md', '# G\n\nshared');
    assert.equal((await store.chunk(a.chunks[0].id, ALICE))?.text, '# A\n\nalice private');
    assert.equal(await store.chunk(a.chunks[0].id, BOB), undefined);
    assert.equal(await store.chunk(a.chunks[0].id, OTHER_AGENT), undefined);
    assert.equal((await store.chunk(g.chunks[0].id, BOB))?.userId, '');
    assert.equal(await store.chunk(999_999, ALICE), undefined);
    assert.equal(await store.chunk(Number.NaN), undefined);
  });

  it('fires onDidChange after writes that change something and after deletes', async () => {
    const seen: MemoryChange[] = [];
    const { store } = await openStore({ onDidChange: (e) => seen.push(e) });
    const also: MemoryChange[] = [];
    const sub = store.onDidChange((e) => also.push(e));
    await store.write(ALICE, 'MEMORY.md', 'one');
    await store.write(ALICE, 'MEMORY.md', 'one');
    await store.delete(ALICE, 'MEMORY.md');
    sub.dispose();
    await store.write(GLOBAL, 'memory.md', 'two');
    assert.deepEqual(seen.map((e) => `${e.kind}:${e.userId}:${e.path}`), ['write:alice:MEMORY.md', 'delete:alice:MEMORY.md', 'write::memory.md']);
    assert.equal(also.length, 2);
  });

  it('two stores on one database (two windows) writing the same document end consistent', async () => {
    const dir = tempDir('memory-two');
    const dbA = await openMemoryDb(dir);
    const dbB = await openMemoryDb(dir);
    const a = new MemoryStore(dbA);
    const b = new MemoryStore(dbB);
    const base = Array.from({ length: 5 }, (_, i) => `## S${i}\n\nshared section ${i}`).join('\n\n');
    await a.write(GLOBAL, 'MEMORY.md', base);
    await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => a.write(GLOBAL, 'MEMORY.md', `${base}\n\n## A${i}\n\nfrom window a ${i}`)),
      ...Array.from({ length: 6 }, (_, i) => b.write(GLOBAL, 'MEMORY.md', `## B${i}\n\nfrom window b ${i}\n\n${base}`)),
    ]);
    const doc = await a.read(GLOBAL, 'MEMORY.md');
    const w = await b.write(GLOBAL, 'MEMORY.md', doc!.content);
    assert.deepEqual(w.changedChunks, [], 'the stored chunks are exactly what this content chunks to');
    assert.equal(w.chunks.length, 6);
    for (const db of [dbA, dbB]) await assertFtsConsistent(db);
  });

  it('reindex re-chunks what is out of date and leaves the rest alone; it can be cancelled', async () => {
    const { store, db } = await openStore();
    for (let i = 0; i < 5; i++) await store.write(GLOBAL, `memory/r${i}.md`, `# R${i}\n\nreindex me ${i}`);
    await store.write(ALICE, 'MEMORY.md', '# Alice\n\nalice note');
    const progress: [number, number][] = [];
    const r = await store.reindex('all', { onProgress: (d, t) => progress.push([d, t]) });
    assert.deepEqual([r.documents, r.chunks, r.changedChunks, r.embedded, r.cancelled], [6, 6, 0, 0, false]);
    assert.deepEqual(progress[0], [0, 6]);
    assert.deepEqual(progress[progress.length - 1], [6, 6]);
    // Damage the chunk layout behind the store's back: reindex puts it right.
    await db.transaction([{ sql: "UPDATE memory_chunks SET start_line = 99 WHERE doc_id = (SELECT id FROM memory_documents WHERE path = 'memory/r1.md')" }]);
    const fixed = await store.reindex(GLOBAL);
    assert.deepEqual([fixed.documents, fixed.changedChunks], [5, 0], 'a scope reaches that user and the global level, not other users');
    assert.equal((await store.search(GLOBAL, 'reindex 1', { fallback: false })).hits[0].startLine, 1);
    const ac = new AbortController();
    ac.abort();
    const stopped = await store.reindex('all', { signal: ac.signal });
    assert.deepEqual([stopped.cancelled, stopped.documents], [true, 0]);
    await assertFtsConsistent(db);
  });

  it('the abstract is one short line around the first matched word, with the heading lines left out', async () => {
    const { store } = await openStore();
    const before = 'Lorem ipsum dolor sit amet, '.repeat(20);
    const after = ' consectetur adipiscing elit.'.repeat(20);
    await store.write(GLOBAL, 'memory/long.md', `# Title\n\n## Sub\n\n${before}\nthe needle word\n${after}`);
    const [hit] = (await store.search(GLOBAL, 'needle')).hits;
    assert.ok(hit.abstract.length <= 240, `${hit.abstract.length} chars`);
    assert.match(hit.abstract, /^….*the needle word.*…$/);
    assert.doesNotMatch(hit.abstract, /\n|#/);
    await store.write(GLOBAL, 'memory/short.md', '# Only\n\nshort needle text');
    const short = (await store.search(GLOBAL, 'short needle', { fallback: false })).hits[0];
    assert.equal(short.abstract, 'short needle text');
  });

  it('search with no words, with a huge query and with an aborted signal', async () => {
    const { store } = await openStore();
    await store.write(GLOBAL, 'MEMORY.md', NOTES);
    assert.deepEqual(await store.search(GLOBAL, '!!! ??? ***'), { hits: [], mode: 'bm25', terms: [] });
    const huge = await store.search(GLOBAL, `deploy ${Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ')} ${'padding '.repeat(2000)}`);
    assert.match(huge.note ?? '', /Only the first 12 words/);
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(store.search(GLOBAL, 'deploy', { signal: ac.signal }));
  });
});
