// Reciprocal rank fusion (Cormack, Clarke & Büttcher 2009): combines rankings whose scores are not
// comparable (BM25 vs cosine) by rank alone. score(id) = Σ over lists 1 / (k + rank), rank 1-based.
// The usual k = 60 damps the weight of the very first places so that agreement between lists counts
// for more than one list's top hit.

export interface RankedList {
  /** Name of the ranker ('bm25', 'vector'): the key in each result's `ranks`. */
  source: string;
  /** Best first; the position is the rank, the score is only carried through. */
  hits: { id: number; score: number }[];
}

export interface FusedHit {
  id: number;
  score: number;
  /** Per source that ranked this id: its 1-based rank and that ranker's own score. */
  ranks: Record<string, { rank: number; score: number }>;
}

export const RRF_K = 60;

/**
 * Fuses ranked lists, best first; equal fused scores put the lower id first. An id listed twice in
 * one list counts once, at its better rank.
 */
export function reciprocalRankFusion(lists: RankedList[], k: number = RRF_K): FusedHit[] {
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`reciprocalRankFusion: k must be a finite number ≥ 0, got ${k}`);
  const seenSources = new Set<string>();
  const fused = new Map<number, { ranks: Record<string, { rank: number; score: number }>; order: number[] }>();
  for (const { source, hits } of lists) {
    if (seenSources.has(source)) throw new RangeError(`reciprocalRankFusion: source "${source}" given twice`);
    seenSources.add(source);
    hits.forEach((hit, i) => {
      let entry = fused.get(hit.id);
      if (!entry) fused.set(hit.id, (entry = { ranks: {}, order: [] }));
      if (Object.hasOwn(entry.ranks, source)) return;
      entry.ranks[source] = { rank: i + 1, score: hit.score };
      entry.order.push(i + 1);
    });
  }
  const out: FusedHit[] = [];
  for (const [id, { ranks, order }] of fused) {
    // Summed in rank order, so ids holding the same ranks in different lists get bit-identical
    // scores (floating-point addition is not associative) and the id tie-break decides.
    order.sort((a, b) => a - b);
    let score = 0;
    for (const rank of order) score += 1 / (k + rank);
    out.push({ id, score, ranks });
  }
  return out.sort((a, b) => b.score - a.score || a.id - b.id);
}
