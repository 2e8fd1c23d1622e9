// BM25 over FTS4's matchinfo('pcnalx'). It runs inside the storage worker as the SQL functions
// bm25() and bm25_matched() (registered by sql-exec's configureConnection), so ORDER BY score LIMIT n
// happens next to the data and only the top rows cross to the main thread. Pure, no imports: the
// worker bundle pulls this file in and must stay small.
//
// The blob is an array of native-endian (little-endian in wasm) 32-bit unsigned integers:
//   p, c, n, a[c] (average tokens per column), l[c] (tokens of this row per column),
//   then for each phrase i and column j three values: hits in this row, hits in all rows, rows with hits.
// Score = Σ_columns w_j · Σ_phrases idf_ij · tf·(k1+1) / (tf + k1·(1 − b + b·len_j/avg_j)),
// with idf = ln(1 + (N − df + 0.5)/(df + 0.5)) (the Lucene form: never negative, so a term found in
// most rows still counts a little instead of pushing a row down). Higher is better.

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/**
 * One term's score in one column: `tf` hits in a column of `len` tokens (the average `avg`), the term
 * in `df` of `n` rows. Also used outside SQL (mcp_tool_search ranks tools in memory with it).
 */
export function bm25Term(tf: number, df: number, n: number, len: number, avg: number): number {
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  return (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * len) / (avg || 1)));
}

function u32(info: Uint8Array, i: number): number {
  const o = i * 4;
  return (info[o] | (info[o + 1] << 8) | (info[o + 2] << 16) | (info[o + 3] << 24)) >>> 0;
}

/** BM25 of one row from matchinfo(t, 'pcnalx'); weights[j] scales column j (missing: 1). */
export function bm25FromMatchinfo(info: Uint8Array, weights: readonly number[] = []): number {
  if (info.byteLength < 12) return 0;
  const p = u32(info, 0);
  const c = u32(info, 1);
  const n = u32(info, 2);
  if (info.byteLength < 4 * (3 + 2 * c + 3 * p * c)) throw new Error("bm25() needs matchinfo(table, 'pcnalx')");
  const x = 3 + 2 * c;
  let score = 0;
  for (let j = 0; j < c; j++) {
    const w = weights[j] ?? 1;
    if (w === 0) continue;
    const avg = u32(info, 3 + j);
    const len = u32(info, 3 + c + j);
    let col = 0;
    for (let i = 0; i < p; i++) {
      const at = x + 3 * (i * c + j);
      const tf = u32(info, at);
      if (tf === 0) continue;
      col += bm25Term(tf, u32(info, at + 2), n, len, avg);
    }
    score += w * col;
  }
  return score;
}

/** How many of the query's phrases occur in this row (any column), from matchinfo(t, 'pcnalx'). */
export function matchedPhrases(info: Uint8Array): number {
  if (info.byteLength < 12) return 0;
  const p = u32(info, 0);
  const c = u32(info, 1);
  const x = 3 + 2 * c;
  let matched = 0;
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < c; j++) {
      if (u32(info, x + 3 * (i * c + j)) > 0) {
        matched++;
        break;
      }
    }
  }
  return matched;
}

/**
 * Rows holding more of the phrases first, then by BM25, as one number (one call per row instead of
 * two: on an OR query over thousands of rows the calls are most of the cost). A score never reaches
 * MATCHED_STEP (at most (k1+1)·ln(1+2N)·phrases·Σweights, under 2,000 for 12 phrases and 10^9 rows).
 */
export const MATCHED_STEP = 10_000;

export function bm25Matched(info: Uint8Array, weights: readonly number[] = []): number {
  return matchedPhrases(info) * MATCHED_STEP + bm25FromMatchinfo(info, weights);
}

/** What configureConnection needs: a sql.js Database's create_function. */
interface FunctionHost {
  create_function(name: string, fn: (...args: never[]) => unknown): unknown;
}

const asBlob = (v: unknown): Uint8Array | null => (v instanceof Uint8Array ? v : null);
const asWeight = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 1);

/**
 * Registers bm25(matchinfo), bm25(matchinfo, w0, w1) and bm25_matched(matchinfo, w0, w1). sql.js takes a
 * function's arity from its declared parameters, so each arity is its own registration.
 */
export function registerBm25Functions(db: FunctionHost): void {
  db.create_function('bm25', (info: unknown) => {
    const b = asBlob(info);
    return b ? bm25FromMatchinfo(b) : 0;
  });
  db.create_function('bm25', (info: unknown, w0: unknown, w1: unknown) => {
    const b = asBlob(info);
    return b ? bm25FromMatchinfo(b, [asWeight(w0), asWeight(w1)]) : 0;
  });
  db.create_function('bm25_matched', (info: unknown, w0: unknown, w1: unknown) => {
    const b = asBlob(info);
    return b ? bm25Matched(b, [asWeight(w0), asWeight(w1)]) : 0;
  });
}
