// The full-text index off the write path: a write leaves its chunks unindexed, a search right after
// it still finds them (and never finds removed text), chunks removed or rewritten before they were
// indexed leave the index consistent, and the background pass and ftsSettled bring it up to date.
import * as assert from 'node:assert/strict';
import { indexStatements } from '../../../src/core/memory/memory-fts-index';
import { MEMORY_MIGRATIONS } from '../../../src/core/memory/memory-schema';
import { MemoryStore } from '../../../src/core/memory/memory-store';
import { Database } from '../../../src/core/storage/database';
import { STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { ALICE, assertFtsConsistent, closeMemoryDbs, GLOBAL, openMemoryDb, openStore } from './memory-store-fixture';

async function pending(db: Database): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*) AS n FROM memory_chunks WHERE id > (SELECT indexed_to FROM memory_fts_state)');
  return n;
}

describe('memory full-text index off the write path', () => {
  afterEach(closeMemoryDbs);

  it('a write does not index; a search right after it finds the new text anyway', async () => {
    const { store, db } = await openStore();
    const w = await store.write(ALICE, 'memory/new.md', '# Fresh\n\nquokka migration notes');
    assert.equal(await pending(db), w.chunks.length, 'the write left its chunks to the indexer');
    const r = await store.search(ALICE, 'quokka');
    assert.deepEqual(r.hits.map((h) => h.id), [w.chunks[0].id]);
    assert.equal(await pending(db), 0, 'the search indexed what was pending');
    await assertFtsConsistent(db);
  });

  it('every write of a batch is found by the search that follows it, one after another', async () => {
    const { store, db } = await openStore();
    for (let i = 0; i < 25; i++) {
      await store.write(GLOBAL, `memory/n${i}.md`, `# Note ${i}\n\nword${i}x shared words`);
      assert.equal((await store.search(GLOBAL, `word${i}x`)).hits.length, 1, `note ${i}`);
    }
    assert.equal((await store.search(GLOBAL, 'shared', { limit: 50 })).hits.length, 25);
    await assertFtsConsistent(db);
  });

  it('chunks removed or rewritten before they were indexed leave no ghost and no broken index', async () => {
    const { store, db } = await openStore();
    await store.write(ALICE, 'memory/keep.md', '# Keep\n\nindexed wombat text');
    assert.equal((await store.search(ALICE, 'wombat')).hits.length, 1);
    // Written, then rewritten and deleted with nothing searched between: never indexed.
    await store.write(ALICE, 'memory/a.md', '# A\n\nfirst platypus draft\n\n## Two\n\nsecond part stays');
    await store.write(ALICE, 'memory/a.md', '# A\n\nfinal echidna text\n\n## Two\n\nsecond part stays');
    await store.write(ALICE, 'memory/b.md', '# B\n\nshort-lived numbat');
    assert.ok(await pending(db) > 0);
    assert.equal(await store.delete(ALICE, 'memory/b.md'), true);
    // An indexed document rewritten and deleted too: its entries must go.
    await store.write(ALICE, 'memory/keep.md', '# Keep\n\nreplaced');
    assert.deepEqual((await store.search(ALICE, 'platypus')).hits, []);
    assert.deepEqual((await store.search(ALICE, 'numbat')).hits, []);
    assert.deepEqual((await store.search(ALICE, 'wombat')).hits, []);
    assert.deepEqual((await store.search(ALICE, 'echidna')).hits.map((h) => h.path), ['memory/a.md']);
    assert.deepEqual((await store.search(ALICE, 'second part')).hits.map((h) => h.path), ['memory/a.md']);
    await assertFtsConsistent(db);
  });

  it('chunks stored as slices of their document hold exactly the chunker\'s text: LF, CRLF, astral, combining and multi-byte characters', async () => {
    const { store, db } = await openStore();
    const docs = {
      'memory/lf.md': '# Title\n\nplain words here\n\n## Part\n\nmore words café\n',
      'memory/crlf.md': '# Title\r\n\r\nwindows lines\r\n\r\n## Part\r\n\r\nsecond part\r\n',
      'memory/astral.md': '# Emoji \u{1F600}\n\nsmile \u{1F600} then text\n\n## After\n\nafter the emoji\n',
      'memory/combining.md': '# Cafe\u0301\n\nre\u0301sume\u0301 and nai\u0308ve\n\n## Next\n\n\u00e9t\u00e9 x\n',
      // Two- and three-byte characters before every later chunk: its place in bytes is not its place in characters.
      'memory/multibyte.md': '# 東京 notes\n\n会議は月曜 and ünïcödé\n\n## 第二\n\nsecond — part ✓\n\n## Third\n\nplain ascii tail\n',
    };
    for (const [path, content] of Object.entries(docs)) {
      const w = await store.write(GLOBAL, path, content);
      for (const c of w.chunks) assert.equal((await store.chunk(c.id))?.text, c.text, `${path} chunk ${c.seq}`);
    }
    assert.equal((await store.search(GLOBAL, 'emoji')).hits[0]?.path, 'memory/astral.md');
    await assertFtsConsistent(db);
  });

  it('ftsSettled indexes everything written so far; indexing again finds nothing to do', async () => {
    const { store, db } = await openStore();
    await store.writeMany(GLOBAL, Array.from({ length: 40 }, (_, i) => ({ path: `memory/m${i}.md`, content: `# M${i}\n\nbody ${i}\n\n## Sub\n\nmore ${i}` })));
    await store.ftsSettled();
    assert.equal(await pending(db), 0);
    const [{ before }] = await db.query<{ before: number }>("SELECT count(*) AS before FROM memory_fts WHERE memory_fts MATCH 'body'");
    await db.transaction(indexStatements());
    const [{ after }] = await db.query<{ after: number }>("SELECT count(*) AS after FROM memory_fts WHERE memory_fts MATCH 'body'");
    assert.equal(before, 40);
    assert.equal(after, 40);
    await assertFtsConsistent(db);
  });

  it('indexes in bounded batches: a limit takes the next chunks in id order and moves indexed_to past them only', async () => {
    // Rows put in directly, without a store, so no background pass runs beside the test.
    const db = await openMemoryDb();
    await db.transaction([
      { sql: "INSERT INTO memory_documents(agent_id, user_id, path, content, hash, updated_at) VALUES ('a', '', 'MEMORY.md', 'x', 'h', 1)" },
      ...Array.from({ length: 10 }, (_, i) => ({
        sql: 'INSERT INTO memory_chunks(doc_id, seq, heading, text, start_line, end_line, hash) VALUES (1, ?, ?, ?, 1, 1, ?)', params: [i, `H${i}`, `batch word${i}`, `c${i}`],
      })),
    ]);
    await db.transaction(indexStatements(3));
    const [{ to }] = await db.query<{ to: number }>('SELECT indexed_to AS "to" FROM memory_fts_state');
    assert.equal(to, 3);
    assert.equal(await pending(db), 7);
    assert.deepEqual((await db.query<{ docid: number }>("SELECT docid FROM memory_fts WHERE memory_fts MATCH 'batch' ORDER BY docid")).map((r) => r.docid), [1, 2, 3]);
    await assertFtsConsistent(db);
  });

  it('a snapshot taken with chunks still to index passes the check when the database is opened again', async () => {
    const dir = tempDir('memory-fts-snapshot');
    const { store, db } = await openStore({}, dir);
    await store.write(GLOBAL, 'memory/s.md', '# S\n\nsnapshot kiwi');
    assert.ok(await pending(db) > 0);
    await db.snapshot();
    await db.close();
    const again = await openMemoryDb(dir);
    assert.deepEqual(again.warnings, [], 'no damage reported');
    const store2 = new MemoryStore(again);
    assert.equal((await store2.search(GLOBAL, 'kiwi')).hits.length, 1);
    await assertFtsConsistent(again);
  });

  it('a database from before version 202 (everything indexed in the write) is indexed again and searches as before', async () => {
    const dir = tempDir('memory-fts-upgrade');
    const old = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: MEMORY_MIGRATIONS.filter((m) => m.version < 202) });
    await old.transaction([
      { sql: "INSERT INTO memory_documents(agent_id, user_id, path, content, hash, updated_at) VALUES ('helper', '', 'MEMORY.md', 'x', 'h', 1)" },
      { sql: "INSERT INTO memory_chunks(doc_id, seq, heading, text, start_line, end_line, hash) VALUES (1, 0, 'Old', 'ancient tortoise lore', 1, 1, 'c')" },
      { sql: 'INSERT INTO memory_fts(docid, heading, text) SELECT id, heading, text FROM memory_chunks WHERE id > (SELECT indexed_to FROM memory_fts_state)' },
      { sql: 'UPDATE memory_fts_state SET indexed_to = coalesce((SELECT max(id) FROM memory_chunks), indexed_to)' },
    ]);
    await old.close();
    const db = await openMemoryDb(dir);
    assert.equal(await pending(db), 1, 'the new index starts empty');
    const store = new MemoryStore(db);
    assert.deepEqual((await store.search(GLOBAL, 'tortoise')).hits.map((h) => h.path), ['MEMORY.md']);
    await assertFtsConsistent(db);
  });
});
