// The int8 pre-scan of VectorIndex: on data like the memory bench's (bag-of-words vectors of the
// generated corpus, 2-word queries) it answers most searches and its answers equal the full float
// scan's exactly (ids, order and scores), with and without a filter, after removals and rewrites;
// on data where it cannot prove its answer (ties everywhere) it falls back to the full scan.
import * as assert from 'node:assert/strict';
import { VectorIndex } from '../../../src/core/memory/vector-index';
import { wasmSimdAvailable } from '../../../src/core/memory/vector-kernel';
import { embedText } from '../../support/embeddings-server';
import { rng } from '../../support/vector-fixtures';

const DIMS = 384;
const ROWS = 6000;

const WORDS = ('deploy release staging server database migration schema backup restore invoice customer meeting budget roadmap deadline review ' +
  'sprint ticket incident outage latency cache index query token session agent memory project design feedback contract vendor payment').split(' ');
const FILLER = 'the of and to a in is that for it as was with be by on not this are or from at which but have'.split(' ');

/** A paragraph as the corpus has them: mostly function words, some domain words, a marker of its own. */
function paragraph(r: () => number, i: number): string {
  const words: string[] = [];
  for (let j = 0; j < 60; j++) words.push(r() < 0.6 ? FILLER[Math.floor(r() * FILLER.length)] : WORDS[Math.floor(r() * WORDS.length)]);
  return `${words.join(' ')} marker${i}`;
}

function build(prescan: boolean, texts: string[]): VectorIndex {
  const idx = new VectorIndex(DIMS, { prescan });
  texts.forEach((t, i) => idx.upsert(i + 1, embedText(t, DIMS)));
  return idx;
}

describe('memory vector index: int8 pre-scan', () => {
  it('runs on the WebAssembly SIMD kernel, which the supported Node versions have', () => {
    assert.ok(wasmSimdAvailable());
  });

  const r = rng(7);
  const texts = Array.from({ length: ROWS }, (_, i) => paragraph(r, i));
  const queries = Array.from({ length: 120 }, () => `${WORDS[Math.floor(r() * WORDS.length)]} ${WORDS[Math.floor(r() * WORDS.length)]}`);

  it('equals the full scan exactly on bag-of-words data, for the k the hybrid search asks (120) and for 8', () => {
    const fast = build(true, texts);
    const full = build(false, texts);
    let prescans = 0;
    for (const text of queries) {
      const q = embedText(text, DIMS);
      for (const k of [120, 8]) {
        assert.deepEqual(fast.search(q, k), full.search(q, k), `${text}, k ${k}`);
        if (fast.lastSearch === 'prescan') prescans++;
        assert.equal(full.lastSearch, 'full');
      }
    }
    assert.ok(prescans > queries.length, `the pre-scan answered ${prescans} of ${queries.length * 2} searches`);
  });

  it('equals the full scan with a filter, and after removals and rewrites', () => {
    const fast = build(true, texts);
    const full = build(false, texts);
    const r2 = rng(11);
    for (let i = 0; i < 800; i++) {
      const id = 1 + Math.floor(r2() * ROWS);
      if (r2() < 0.5) {
        fast.remove(id);
        full.remove(id);
      } else {
        const v = embedText(paragraph(r2, id), DIMS);
        fast.upsert(id, v);
        full.upsert(id, v);
      }
    }
    const even = (id: number) => id % 2 === 0;
    for (const text of queries.slice(0, 40)) {
      const q = embedText(text, DIMS);
      assert.deepEqual(fast.search(q, 120), full.search(q, 120), text);
      assert.deepEqual(fast.search(q, 30, even), full.search(q, 30, even), `${text}, filtered`);
    }
  });

  it('falls back to the full scan when it cannot prove its answer: every row scores the same', () => {
    const same = Array.from({ length: ROWS }, () => 'identical words in every row');
    const fast = build(true, same);
    const full = build(false, same);
    const q = embedText('identical rows', DIMS);
    const got = fast.search(q, 50);
    assert.equal(fast.lastSearch, 'full');
    assert.deepEqual(got, full.search(q, 50));
    assert.deepEqual(got.map((h) => h.id), Array.from({ length: 50 }, (_, i) => i + 1), 'ties: lower ids first');
  });

  it('a small index is scanned whole', () => {
    const fast = build(true, texts.slice(0, 500));
    fast.search(embedText(queries[0], DIMS), 8);
    assert.equal(fast.lastSearch, 'full');
  });
});
