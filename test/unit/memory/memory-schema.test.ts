import * as assert from 'node:assert/strict';
import { indexStatements } from '../../../src/core/memory/memory-fts-index';
import { removeTempDirs } from '../../support/storage-fixtures';
import { closeMemoryDbs, openMemoryDb } from './memory-store-fixture';

// What memory-schema.ts chose its tokenizer on: this sql.js build has FTS4 with unicode61 and
// remove_diacritics=2, and no FTS5.
describe('memory schema on this sql.js build', () => {
  afterEach(closeMemoryDbs);
  after(removeTempDirs);

  it('has FTS4 with unicode61 folding case and diacritics beyond ASCII, and no FTS5', async () => {
    const db = await openMemoryDb();
    const [{ sql }] = await db.query<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'memory_fts'");
    assert.match(sql, /fts4\(content="memory_fts_content", heading, text, tokenize=unicode61 "remove_diacritics=2"\)/);
    await db.transaction([
      { sql: "INSERT INTO memory_documents(agent_id, user_id, path, content, hash, updated_at) VALUES ('a', '', 'MEMORY.md', 'x', 'h', 1)" },
      { sql: "INSERT INTO memory_chunks(doc_id, seq, heading, text, start_line, end_line, hash) VALUES (1, 0, 'Überblick', 'Résumé of the ÇA ĞÜZEL Ærø trip', 1, 1, 'c')" },
      ...indexStatements(),
    ]);
    for (const word of ['uberblick', 'resume', 'RÉSUMÉ', 'ca', 'guzel']) {
      const rows = await db.query('SELECT docid FROM memory_fts WHERE memory_fts MATCH ?', [`"${word}"`]);
      assert.equal(rows.length, 1, word);
    }
    const modules = (await db.query<{ name: string }>('SELECT name FROM pragma_module_list')).map((r) => r.name);
    assert.ok(modules.includes('fts4') && !modules.includes('fts5'), modules.join(', '));
  });
});
