import * as assert from 'node:assert/strict';
import { reciprocalRankFusion, RRF_K } from '../../../src/core/memory/rank-fusion';

const hits = (...ids: number[]) => ids.map((id, i) => ({ id, score: 10 - i }));

describe('memory rank fusion (RRF)', () => {
  it('matches a hand-computed example with k = 60 and 1-based ranks', () => {
    const fused = reciprocalRankFusion([
      { source: 'bm25', hits: hits(1, 2, 3) },
      { source: 'vector', hits: hits(3, 1, 4) },
    ]);
    assert.equal(RRF_K, 60);
    assert.deepEqual(fused.map((h) => h.id), [1, 3, 2, 4]);
    assert.equal(fused[0].score, 1 / 61 + 1 / 62); // id 1: bm25 #1, vector #2
    assert.equal(fused[1].score, 1 / 61 + 1 / 63); // id 3: vector #1, bm25 #3
    assert.equal(fused[2].score, 1 / 62);
    assert.equal(fused[3].score, 1 / 63);
    assert.deepEqual(fused[0].ranks, { bm25: { rank: 1, score: 10 }, vector: { rank: 2, score: 9 } });
    assert.deepEqual(fused[3].ranks, { vector: { rank: 3, score: 8 } });
  });

  it('breaks ties by the lower id, with bit-identical scores for the same ranks in any lists', () => {
    const fused = reciprocalRankFusion([
      { source: 'a', hits: hits(7, 5, 9) },
      { source: 'b', hits: hits(5, 9, 7) },
      { source: 'c', hits: hits(9, 7, 5) },
    ]);
    // Each id holds ranks {1, 2, 3} once: equal scores whatever order the sums run in.
    assert.deepEqual(fused.map((h) => h.id), [5, 7, 9]);
    assert.equal(fused[0].score, fused[1].score);
    assert.equal(fused[1].score, fused[2].score);
    const single = reciprocalRankFusion([{ source: 'a', hits: hits(4) }, { source: 'b', hits: hits(2) }]);
    assert.deepEqual(single.map((h) => h.id), [2, 4]);
  });

  it('fuses disjoint lists by interleaving ranks', () => {
    const fused = reciprocalRankFusion([
      { source: 'bm25', hits: hits(10, 11) },
      { source: 'vector', hits: hits(20, 21) },
    ]);
    assert.deepEqual(fused.map((h) => h.id), [10, 20, 11, 21]);
    assert.ok(fused.every((h) => Object.keys(h.ranks).length === 1));
  });

  it('takes k, counts an id once per list at its best rank, and handles empty input', () => {
    const fused = reciprocalRankFusion([{ source: 'bm25', hits: hits(1, 2, 1) }], 0);
    assert.deepEqual(fused.map((h) => [h.id, h.score, h.ranks.bm25.rank]), [[1, 1, 1], [2, 0.5, 2]]);
    assert.deepEqual(reciprocalRankFusion([]), []);
    assert.deepEqual(reciprocalRankFusion([{ source: 'x', hits: [] }]), []);
  });

  it('rejects a bad k and a source given twice', () => {
    for (const k of [-1, NaN, Infinity]) assert.throws(() => reciprocalRankFusion([], k), /k must be a finite number/);
    assert.throws(() => reciprocalRankFusion([{ source: 's', hits: [] }, { source: 's', hits: [] }]), /source "s" given twice/);
  });
});
