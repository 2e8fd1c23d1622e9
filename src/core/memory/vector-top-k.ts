// The k best of n scores with a binary min-heap of size k: O(n log k) and no allocation per element,
// where a full sort of 50,000 scores would cost more than the SIMD scoring itself.

export interface ScoredId {
  id: number;
  score: number;
}

/**
 * The best `k` of scores[0..n) (slot i has id ids[i]), best first; equal scores put the lower id
 * first so results never depend on storage order. `accept` is asked only about candidates that would
 * enter the current top k, so a selective filter costs little and a broad one is not called n times.
 */
export function topK(
  scores: ArrayLike<number>,
  ids: ArrayLike<number>,
  n: number,
  k: number,
  accept?: (id: number) => boolean,
): ScoredId[] {
  k = Math.min(k, n);
  if (k <= 0) return [];
  const hs = new Float64Array(k); // heap of the kept scores; hs[0] is the worst kept
  const hi = new Float64Array(k);
  let size = 0;
  for (let i = 0; i < n; i++) {
    const s = scores[i];
    if (size === k) {
      // Cheap rejection first: most slots lose to the current worst.
      if (s < hs[0] || (s === hs[0] && ids[i] > hi[0])) continue;
      if (accept && !accept(ids[i])) continue;
      hs[0] = s;
      hi[0] = ids[i];
      siftDown(hs, hi, size, 0);
    } else {
      if (accept && !accept(ids[i])) continue;
      hs[size] = s;
      hi[size] = ids[i];
      siftUp(hs, hi, size++);
    }
  }
  const out: ScoredId[] = [];
  for (let j = 0; j < size; j++) out.push({ id: hi[j], score: hs[j] });
  return out.sort((a, b) => b.score - a.score || a.id - b.id);
}

/** a is worse than b: lower score, or the same score and a higher id. */
function worse(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa < sb || (sa === sb && ia > ib);
}

function swap(hs: Float64Array, hi: Float64Array, a: number, b: number): void {
  const s = hs[a];
  hs[a] = hs[b];
  hs[b] = s;
  const i = hi[a];
  hi[a] = hi[b];
  hi[b] = i;
}

function siftUp(hs: Float64Array, hi: Float64Array, at: number): void {
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (!worse(hs[at], hi[at], hs[parent], hi[parent])) return;
    swap(hs, hi, at, parent);
    at = parent;
  }
}

function siftDown(hs: Float64Array, hi: Float64Array, size: number, at: number): void {
  for (;;) {
    const l = 2 * at + 1;
    if (l >= size) return;
    const r = l + 1;
    const child = r < size && worse(hs[r], hi[r], hs[l], hi[l]) ? r : l;
    if (!worse(hs[child], hi[child], hs[at], hi[at])) return;
    swap(hs, hi, at, child);
    at = child;
  }
}
