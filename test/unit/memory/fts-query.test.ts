import * as assert from 'node:assert/strict';
import { buildFtsQuery, foldWord, MAX_QUERY_TERMS } from '../../../src/core/memory/fts-query';
import { Database } from '../../../src/core/storage/database';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';

const HOSTILE = [
  '"', '""', '"unbalanced quote', 'a"b"c', "it's", '*', 'depl*', '-secret', 'NOT x', 'x NOT y', 'a AND', 'OR', 'OR OR OR',
  'NEAR', 'alpha NEAR/3 beta', 'alpha NEAR beta', 'heading:deploy', 'text:alpha', 'memory_fts:x', '(', ')', '((a OR b)', 'a) OR (b',
  '^start', '{a b}', 'col:(a b)', '\\', '\u0000', '-- comment', "'; DROP TABLE t; --", '%_', '$$', '\n\t\r', '💥 explode', 'ℌ𝔢𝔩𝔩𝔬',
  'a'.repeat(300), 'café OR "naïve"', 'x:y:z', ':', '🙂', '中文 検索', 'हिन्दी',
];

describe('FTS query sanitising', () => {
  after(removeTempDirs);

  it('quotes plain words, AND by juxtaposition, OR spelled out', () => {
    const q = buildFtsQuery('Deploy staging server');
    assert.deepEqual(q.terms, ['deploy', 'staging', 'server']);
    assert.equal(q.and, '"Deploy" "staging" "server"');
    assert.equal(q.or, '"Deploy" OR "staging" OR "server"');
  });

  it('drops operators, column filters, NEAR and punctuation the writer did not mean', () => {
    assert.deepEqual(buildFtsQuery('alpha NEAR/3 beta AND NOT gamma OR -delta*').terms, ['alpha', 'beta', 'gamma', 'delta']);
    assert.deepEqual(buildFtsQuery('heading:deploy text:(release notes)').terms, ['deploy', 'release', 'notes']);
    // Lower case "and"/"or"/"not" are words (stopwords here), not operators.
    assert.deepEqual(buildFtsQuery('rock and roll').terms, ['rock', 'roll']);
  });

  it('drops stopwords unless nothing else is left, and dedupes folded words', () => {
    assert.deepEqual(buildFtsQuery('what is the plan for the release').terms, ['plan', 'release']);
    assert.deepEqual(buildFtsQuery('the who').terms, ['the', 'who']);
    assert.deepEqual(buildFtsQuery('Café cafe CAFÉ café').terms, ['cafe']);
    assert.equal(foldWord('Ünïcödé'), 'unicode');
  });

  it('folds ASCII words by lower case alone, exactly as the full fold does, and the rest by the full fold', () => {
    const full = (w: string): string => w.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().normalize('NFC');
    const words = ['Deploy', 'ROLLBACK', 'abc123', 'x', '', 'MiXeD9', 'Ünïcödé', 'Straße', 'İstanbul', 'ΣΟΦΙΑ', 'e\u0301', '東京', 'ǅemal'];
    for (const w of words) assert.equal(foldWord(w), full(w), JSON.stringify(w));
  });

  it('caps the number of terms and ignores all but the start of a huge query', () => {
    const many = Array.from({ length: 40 }, (_, i) => `term${i}`).join(' ');
    const q = buildFtsQuery(many);
    assert.equal(q.terms.length, MAX_QUERY_TERMS);
    assert.equal(q.dropped, 40 - MAX_QUERY_TERMS);
    // Bounded by the test's timeout: a quadratic scan of 20,000 characters would take far longer.
    const huge = buildFtsQuery(`${'x'.repeat(10_000)} ${'word '.repeat(2000)}`);
    assert.ok(huge.terms.length <= MAX_QUERY_TERMS);
    assert.deepEqual(buildFtsQuery('a'.repeat(200)).terms, [], 'a 200-letter "word" is not one');
  });

  it('gives nothing to search for when there are no words', () => {
    for (const text of ['', '   ', '"""', '***', '()', '-- --', '🙂']) {
      const q = buildFtsQuery(text);
      assert.deepEqual([q.terms, q.and, q.or], [[], '', ''], JSON.stringify(text));
    }
  });

  it('every hostile input becomes a valid MATCH expression that finds only literal words', async () => {
    const db = await Database.open({
      dir: tempDir('fts-query'), workerPath: STORAGE_WORKER,
      migrations: [{ version: 1, name: 'fts', sql: 'CREATE VIRTUAL TABLE t USING fts4(heading, text, tokenize=unicode61 "remove_diacritics=2")' }],
    });
    try {
      await db.transaction([
        { sql: "INSERT INTO t(docid, heading, text) VALUES (1, 'Deploy', 'alpha beta gamma delta secret start')" },
        { sql: "INSERT INTO t(docid, heading, text) VALUES (2, 'Notes', 'naïve café 中文 検索 हिन्दी')" },
        { sql: "INSERT INTO t(docid, heading, text) VALUES (3, 'x', 'not near and or')" },
      ]);
      for (const text of HOSTILE) {
        const q = buildFtsQuery(text);
        for (const m of [q.and, q.or]) {
          if (!m) continue;
          // Throws on a syntax error; any rows are fine as long as the query ran.
          await db.query('SELECT docid FROM t WHERE t MATCH ?', [m]);
        }
      }
      const ids = async (text: string, mode: 'and' | 'or' = 'and') =>
        (await db.query<{ docid: number }>('SELECT docid FROM t WHERE t MATCH ? ORDER BY docid', [buildFtsQuery(text)[mode]])).map((r) => r.docid);
      assert.deepEqual(await ids('-secret'), [1], '"-" is not NOT: the word is searched for');
      assert.deepEqual(await ids('alpha NOT beta'), [1]);
      assert.deepEqual(await ids('cafe NAIVE'), [2], 'case and diacritics folded');
      assert.deepEqual(await ids('中文'), [2]);
      assert.deepEqual(await ids('हिन्दी'), [2]);
      assert.deepEqual(await ids('heading:deploy'), [1]);
      assert.deepEqual(await ids('alpha naive', 'or'), [1, 2]);
      assert.deepEqual(await ids('alpha naive'), []);
    } finally {
      await db.close();
    }
  });
});
