// mulberry32: a small seeded PRNG, so randomised tests and benchmark corpora are the same on every
// run and a failing case can be rerun as it was. (Benchmarks load the compiled copy from out/.)
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A deterministic pseudo-random string over `alphabet` from a tiny LCG (its high bits: the low bits
 * repeat with a short period), so token-shaped test cases are the same on every run.
 */
export function lcgString(n: number, alphabet: string, seed: number): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += alphabet[(x >>> 16) % alphabet.length];
  }
  return out;
}
