import * as assert from 'node:assert/strict';
import { bm25FromMatchinfo, matchedPhrases } from '../../../src/core/memory/bm25';
import { Database } from '../../../src/core/storage/database';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';

// A corpus small enough to rank by hand (unicode61 tokens; heading weight 2, text weight 1):
//
//   docid  heading  text                                        tokens (heading, text)
//   1      deploy   alpha beta                                  1, 2
//   2      notes    deploy deploy gamma                         1, 3
//   3      notes    deploy alpha beta gamma delta epsilon       1, 6
//   4      misc     alpha                                       1, 1
//
// N = 4; average tokens: heading 4/4 = 1, text 12/4 = 3. idf = ln(1 + (N − df + 0.5)/(df + 0.5)),
// tf part = tf·2.2 / (tf + 1.2·(0.25 + 0.75·len/avg)).
//
// "deploy":  heading df 1 → idf 1.203973; text df 2 → idf ln 2 = 0.693147.
//   doc 1: heading tf 1, len 1: 1·2.2/(1 + 1.2) = 1 → 2 · 1.203973 · 1        = 2.407946
//   doc 2: text tf 2, len 3:   2·2.2/(2 + 1.2) = 1.375 → 0.693147 · 1.375    = 0.953077
//   doc 3: text tf 1, len 6:   2.2/(1 + 2.1) = 0.709677 → 0.693147 · 0.709677 = 0.491911
// "alpha beta" (AND): alpha df 3 → idf 0.356675; beta df 2 → idf 0.693147; sum 1.049822.
//   doc 1: len 2: 2.2/(1 + 0.9) = 1.157895 → 1.215584;  doc 3: len 6: 0.709677 → 0.745035
// "alpha OR delta", rows holding both terms first:
//   doc 3: alpha 0.356675 · 0.709677 + delta (df 1, idf 1.203973) · 0.709677 = 1.107556
//   doc 4: alpha, len 1: 2.2/(1 + 0.6) = 1.375 → 0.490428   (shorter, so above doc 1)
//   doc 1: alpha, len 2: 1.157895 → 0.412993
const CORPUS: [number, string, string][] = [
  [1, 'deploy', 'alpha beta'],
  [2, 'notes', 'deploy deploy gamma'],
  [3, 'notes', 'deploy alpha beta gamma delta epsilon'],
  [4, 'misc', 'alpha'],
];

async function openCorpus(dir = tempDir('bm25')): Promise<Database> {
  const db = await Database.open({
    dir, workerPath: STORAGE_WORKER,
    migrations: [{ version: 1, name: 'fts', sql: 'CREATE VIRTUAL TABLE t USING fts4(heading, text, tokenize=unicode61 "remove_diacritics=2")' }],
  });
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*) AS n FROM t');
  if (n === 0) await db.transaction(CORPUS.map(([id, h, t]) => ({ sql: 'INSERT INTO t(docid, heading, text) VALUES (?, ?, ?)', params: [id, h, t] })));
  return db;
}

type Ranked = { docid: number; score: number };
const rank = (db: Database, match: string, fn = 'bm25'): Promise<Ranked[]> =>
  db.query<Ranked>(`SELECT docid, ${fn}(matchinfo(t, 'pcnalx'), 2, 1) AS score FROM t WHERE t MATCH ? ORDER BY score DESC`, [match]);

function assertRanking(got: Ranked[], want: [number, number][]): void {
  assert.deepEqual(got.map((r) => r.docid), want.map((w) => w[0]));
  got.forEach((r, i) => assert.ok(Math.abs(r.score - want[i][1]) < 1e-5, `doc ${r.docid}: ${r.score} vs ${want[i][1]}`));
}

/** A matchinfo('pcnalx') blob from its numbers, as FTS4 lays it out (little-endian u32s). */
function blob(values: number[]): Uint8Array {
  const b = new Uint8Array(values.length * 4);
  values.forEach((v, i) => new DataView(b.buffer).setUint32(i * 4, v, true));
  return b;
}

describe('BM25 from FTS4 matchinfo', () => {
  after(removeTempDirs);

  it('ranks the hand-checked corpus inside the storage worker, heading matches weighted up', async () => {
    const db = await openCorpus();
    try {
      assertRanking(await rank(db, '"deploy"'), [[1, 2.407946], [2, 0.953077], [3, 0.491911]]);
      assertRanking(await rank(db, '"alpha" "beta"'), [[1, 1.215584], [3, 0.745035]]);
      const or = await db.query<Ranked>(
        "SELECT docid, bm25_matched(matchinfo(t, 'pcnalx'), 2, 1) AS score FROM t WHERE t MATCH '\"alpha\" OR \"delta\"' ORDER BY score DESC");
      assertRanking(or.map((r) => ({ docid: r.docid, score: r.score % 10_000 })), [[3, 1.107556], [4, 0.490428], [1, 0.412993]]);
      assert.deepEqual(or.map((r) => Math.floor(r.score / 10_000)), [2, 1, 1], 'the number of matched terms leads');
      // Unweighted, the heading counts like the text: doc 1's score halves.
      const [plain] = await db.query<{ s: number }>("SELECT bm25(matchinfo(t, 'pcnalx')) AS s FROM t WHERE t MATCH 'deploy' AND docid = 1");
      assert.ok(Math.abs(plain.s - 1.203973) < 1e-5);
    } finally {
      await db.close();
    }
  });

  it('the functions survive a snapshot and a reopen (they are registered on every connection)', async () => {
    const dir = tempDir('bm25-reopen');
    let db = await openCorpus(dir);
    await db.snapshot();
    assertRanking(await rank(db, '"deploy"'), [[1, 2.407946], [2, 0.953077], [3, 0.491911]]);
    await db.close();
    db = await openCorpus(dir);
    try {
      assertRanking(await rank(db, '"deploy"'), [[1, 2.407946], [2, 0.953077], [3, 0.491911]]);
    } finally {
      await db.close();
    }
  });

  it('scores a hand-built matchinfo blob, and refuses a blob that is not pcnalx', () => {
    // p=1, c=1, n=10, a=[5], l=[5], x: row hits 3, all hits 4, rows with hits 2.
    const info = blob([1, 1, 10, 5, 5, 3, 4, 2]);
    const idf = Math.log(1 + (10 - 2 + 0.5) / (2 + 0.5));
    const expected = (idf * 3 * 2.2) / (3 + 1.2);
    assert.ok(Math.abs(bm25FromMatchinfo(info) - expected) < 1e-12);
    assert.ok(Math.abs(bm25FromMatchinfo(info, [3]) - 3 * expected) < 1e-12);
    assert.equal(bm25FromMatchinfo(info, [0]), 0);
    assert.equal(matchedPhrases(info), 1);
    assert.equal(bm25FromMatchinfo(new Uint8Array(4)), 0, 'too short to hold a header: no score');
    assert.throws(() => bm25FromMatchinfo(blob([2, 2, 10, 5, 5])), /pcnalx/);
    // An average of 0 (every value empty) must not divide by zero.
    assert.ok(Number.isFinite(bm25FromMatchinfo(blob([1, 1, 10, 0, 0, 1, 1, 1]))));
  });
});
