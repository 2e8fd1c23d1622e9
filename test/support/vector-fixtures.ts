// Seeded random vectors and a naive exact cosine top-k to check VectorIndex against.
import * as assert from 'node:assert/strict';

export { rng } from './rng';

export function randomVector(next: () => number, dims: number): Float32Array {
  const v = new Float32Array(dims);
  for (let j = 0; j < dims; j++) v[j] = next() * 2 - 1;
  return v;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0, na = 0, nb = 0;
  for (let j = 0; j < a.length; j++) {
    dot += a[j] * b[j];
    na += a[j] * a[j];
    nb += b[j] * b[j];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Every accepted vector by exact cosine (full sort): best first, equal scores lower id first. */
export function naiveRanking(vectors: Map<number, Float32Array>, q: Float32Array, accept?: (id: number) => boolean) {
  const all = [...vectors].filter(([id]) => !accept || accept(id)).map(([id, v]) => ({ id, score: cosine(q, v) }));
  return all.sort((a, b) => b.score - a.score || a.id - b.id);
}

/**
 * got equals the first k of the full reference `ranking` up to float32 rounding: same length, the
 * same score at each place, every id holds (by the reference) the score it was reported with, and
 * ids differ only where two reference scores are within `tol` of each other.
 */
export function assertSameTopK(
  got: { id: number; score: number }[],
  ranking: { id: number; score: number }[],
  k: number,
  all: Map<number, Float32Array>,
  q: Float32Array,
  tol = 1e-5,
): void {
  const want = ranking.slice(0, Math.max(0, k));
  assert.equal(got.length, want.length, 'result count');
  assert.equal(new Set(got.map((h) => h.id)).size, got.length, 'ids are distinct');
  for (let i = 0; i < got.length; i++) {
    assert.ok(Math.abs(got[i].score - want[i].score) <= tol, `score at ${i}: ${got[i].score} vs ${want[i].score}`);
    const v = all.get(got[i].id);
    assert.ok(v, `id ${got[i].id} is stored`);
    assert.ok(Math.abs(cosine(q, v) - got[i].score) <= tol, `id ${got[i].id} really scores ${got[i].score}`);
    const nearTie = (j: number) => j >= 0 && j < ranking.length && Math.abs(ranking[j].score - ranking[i].score) <= tol;
    if (!nearTie(i - 1) && !nearTie(i + 1)) assert.equal(got[i].id, want[i].id, `id at ${i}`);
  }
}
