import * as assert from 'node:assert/strict';
import { VectorIndex } from '../../../src/core/memory/vector-index';
import { wasmSimdAvailable } from '../../../src/core/memory/vector-kernel';
import { assertSameTopK, naiveRanking, randomVector, rng } from '../../support/vector-fixtures';

const KERNELS = ['wasm', 'js'] as const;

function filled(kernel: 'wasm' | 'js', dims: number, n: number, seed: number) {
  const next = rng(seed);
  const index = new VectorIndex(dims, { kernel });
  const mirror = new Map<number, Float32Array>();
  for (let i = 0; i < n; i++) {
    const id = i * 3 + 1; // ids unlike slots, so a slot/id mix-up shows
    const v = randomVector(next, dims);
    index.upsert(id, v);
    mirror.set(id, v);
  }
  return { index, mirror, next };
}

describe('memory vector index', () => {
  it('has WebAssembly SIMD on the supported Node versions, and auto picks it', () => {
    assert.equal(wasmSimdAvailable(), true);
    assert.equal(new VectorIndex(8).kernel, 'wasm');
    assert.equal(new VectorIndex(8, { kernel: 'js' }).kernel, 'js');
  });

  for (const kernel of KERNELS) {
    describe(`${kernel} kernel`, () => {
      it('finds the exact top k of random data at several sizes, dims and k (k 0, k > size)', () => {
        for (const [dims, n] of [[3, 0], [3, 1], [5, 7], [16, 100], [37, 500], [384, 1500]] as const) {
          const { index, mirror, next } = filled(kernel, dims, n, dims * 1000 + n);
          assert.equal(index.size, n);
          for (let t = 0; t < 3; t++) {
            const q = randomVector(next, dims);
            const ranking = naiveRanking(mirror, q);
            for (const k of [0, 1, 10, n, n + 5]) assertSameTopK(index.search(q, k), ranking, k, mirror, q);
          }
        }
      });

      it('stays exact through removals, re-upserts and growth past capacity', () => {
        const dims = 24;
        const next = rng(42);
        const index = new VectorIndex(dims, { kernel });
        const mirror = new Map<number, Float32Array>();
        const q = randomVector(next, dims);
        for (let step = 0; step < 3000; step++) {
          const id = Math.floor(next() * 800);
          if (next() < 0.3) {
            index.remove(id);
            mirror.delete(id);
          } else {
            const v = randomVector(next, dims);
            index.upsert(id, v);
            mirror.set(id, v);
          }
          if (step % 250 === 0 || step === 2999) {
            assert.equal(index.size, mirror.size);
            assertSameTopK(index.search(q, 15), naiveRanking(mirror, q), 15, mirror, q);
          }
        }
        for (const id of mirror.keys()) assert.ok(index.has(id));
        // Growth in one go from empty, well past the first capacities (64, 128, … 4096).
        const { index: big, mirror: bigMirror } = filled(kernel, 100, 5000, 7);
        const q2 = randomVector(next, 100);
        assertSameTopK(big.search(q2, 50), naiveRanking(bigMirror, q2), 50, bigMirror, q2);
      });

      it('removing the last, a middle and an absent id keeps the others findable', () => {
        const index = new VectorIndex(2, { kernel });
        index.upsert(10, new Float32Array([1, 0]));
        index.upsert(20, new Float32Array([0, 1]));
        index.upsert(30, new Float32Array([1, 1]));
        index.remove(99);
        index.remove(10); // a middle slot: 30 moves into it
        assert.equal(index.size, 2);
        assert.deepEqual(index.search(new Float32Array([1, 1]), 5).map((h) => h.id), [30, 20]);
        index.remove(20);
        index.remove(30);
        assert.equal(index.size, 0);
        assert.deepEqual(index.search(new Float32Array([1, 1]), 5), []);
      });

      it('filters with accept, asking only about would-be results', () => {
        const { index, mirror, next } = filled(kernel, 32, 2000, 9);
        const q = randomVector(next, 32);
        const even = (id: number) => id % 2 === 0;
        let asked = 0;
        const got = index.search(q, 10, (id) => (asked++, even(id)));
        assertSameTopK(got, naiveRanking(mirror, q, even), 10, mirror, q);
        assert.ok(got.every((h) => even(h.id)));
        assert.ok(asked < 2000 / 4, `accept was asked ${asked} times`);
        assert.deepEqual(index.search(q, 10, () => false), []);
      });

      it('scores by cosine: scale does not matter, a stored vector finds itself at 1', () => {
        const { index, mirror } = filled(kernel, 16, 50, 3);
        const [id, v] = [...mirror][17];
        const scaled = v.map((x) => x * 1000);
        const [best] = index.search(scaled, 1);
        assert.equal(best.id, id);
        assert.ok(Math.abs(best.score - 1) < 1e-5);
        index.upsert(id, v.map((x) => -x)); // replace: now the opposite direction
        assert.equal(index.size, 50);
        assert.notEqual(index.search(v, 1)[0].id, id);
        assert.ok(Math.abs(index.search(v, 50).at(-1)!.score + 1) < 1e-5);
      });

      it('puts the lower id first on equal scores', () => {
        const index = new VectorIndex(3, { kernel });
        for (const id of [9, 4, 7, 1]) index.upsert(id, new Float32Array([1, 2, 3]));
        index.upsert(5, new Float32Array([3, 2, 1]));
        assert.deepEqual(index.search(new Float32Array([1, 2, 3]), 3).map((h) => h.id), [1, 4, 7]);
      });

      it('keeps a zero vector at score 0 and finds nothing for a zero query', () => {
        const index = new VectorIndex(4, { kernel });
        index.upsert(1, new Float32Array(4));
        index.upsert(2, new Float32Array([0, 0, 0, 1]));
        index.upsert(3, new Float32Array([0, 0, 0, -1]));
        const hits = index.search(new Float32Array([0, 0, 0, 5]), 3);
        assert.deepEqual(hits.map((h) => h.id), [2, 1, 3]);
        assert.equal(hits[1].score, 0);
        assert.deepEqual(index.search(new Float32Array(4), 3), []);
      });

      it('rejects wrong dimensions, NaN, Infinity and bad ids with clear errors, storing nothing', () => {
        const index = new VectorIndex(3, { kernel });
        assert.throws(() => index.upsert(1, new Float32Array(4)), /has 4 dimensions, the index has 3/);
        assert.throws(() => index.upsert(1, new Float32Array([1, NaN, 0])), /non-finite value \(NaN\) at position 1/);
        assert.throws(() => index.upsert(1, new Float32Array([Infinity, 0, 0])), /non-finite/);
        assert.throws(() => index.upsert(1.5, new Float32Array(3)), /ids must be integers/);
        assert.throws(() => index.search(new Float32Array(2), 1), /query vector has 2 dimensions/);
        assert.throws(() => index.search(new Float32Array([0, NaN, 0]), 1), /non-finite/);
        assert.throws(() => index.search(new Float32Array(3), NaN), /k must be a number/);
        assert.equal(index.size, 0);
        assert.deepEqual(index.search(new Float32Array([1, 0, 0]), -1), []);
        for (const dims of [0, -1, 2.5, NaN, 1e6]) assert.throws(() => new VectorIndex(dims), /dims must be an integer/);
      });

      it('clear() empties the index and it works again afterwards', () => {
        const { index, next } = filled(kernel, 8, 300, 11);
        index.clear();
        assert.equal(index.size, 0);
        assert.equal(index.kernel, kernel);
        assert.deepEqual(index.search(randomVector(next, 8), 5), []);
        index.upsert(5, new Float32Array([1, 0, 0, 0, 0, 0, 0, 0]));
        assert.deepEqual(index.search(new Float32Array([1, 0, 0, 0, 0, 0, 0, 0]), 5).map((h) => h.id), [5]);
      });
    });
  }

  it('the wasm and JS kernels agree within 1e-5 on the same data', () => {
    for (const dims of [5, 20, 384]) {
      const a = filled('wasm', dims, 2000, dims);
      const b = filled('js', dims, 2000, dims);
      for (let t = 0; t < 3; t++) {
        const q = randomVector(a.next, dims);
        const wa = a.index.search(q, 2000);
        const js = b.index.search(q, 2000);
        assert.equal(wa.length, 2000);
        const jsScore = new Map(js.map((h) => [h.id, h.score]));
        let worst = 0;
        for (const h of wa) worst = Math.max(worst, Math.abs(h.score - jsScore.get(h.id)!));
        assert.ok(worst <= 1e-5, `worst difference ${worst}`);
        assertSameTopK(wa.slice(0, 20), js, 20, a.mirror, q);
      }
    }
  });
});
