// Exact cosine top-10 over 50,000 × 384-dim vectors with VectorIndex (WebAssembly SIMD kernel),
// against the plain-JS 4-way unrolled dot-product loop over the same normalised rows (plus the same
// kind of top-10 heap) measured in the same run. Also records VectorIndex's own JS fallback, and the
// same figures under Node 24 when a Node 24 binary is found (PINCER_NODE24, or VS Code's test host).
//   node bench/vector-search.mjs            records bench/results/vector-search-50k.json
//   node bench/vector-search.mjs --child    prints the figures as JSON (used for the Node 24 run)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { VectorIndex } = require(path.join(ROOT, 'out', 'src', 'core', 'memory', 'vector-index.js'));
const { topK } = require(path.join(ROOT, 'out', 'src', 'core', 'memory', 'vector-top-k.js'));
const { randomVector, rng } = require(path.join(ROOT, 'out', 'test', 'support', 'vector-fixtures.js'));

const N = 50_000;
const DIMS = 384;
const K = 10;
const WARMUP = 10;
const QUERIES = 100;


function normalise(v) {
  let ss = 0;
  for (const x of v) ss += x * x;
  return v.map((x) => x / Math.sqrt(ss));
}

/** The reference: contiguous normalised rows, 4-way unrolled dot products, a top-k heap. */
function referenceSearch(matrix, ids, q, out) {
  for (let i = 0, o = 0; i < N; i++, o += DIMS) {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (let j = 0; j < DIMS; j += 4) {
      s0 += q[j] * matrix[o + j];
      s1 += q[j + 1] * matrix[o + j + 1];
      s2 += q[j + 2] * matrix[o + j + 2];
      s3 += q[j + 3] * matrix[o + j + 3];
    }
    out[i] = s0 + s1 + s2 + s3;
  }
  return topK(out, ids, N, K);
}

function time(fn, queries) {
  const times = [];
  let sink = 0;
  queries.forEach((q, i) => {
    const t = performance.now();
    const hits = fn(q);
    const dt = performance.now() - t;
    sink += hits[0].id;
    if (i >= WARMUP) times.push(dt);
  });
  if (sink < 0) console.log(sink);
  return times;
}

function measure() {
  const next = rng(2024);
  const wasm = new VectorIndex(DIMS);
  const js = new VectorIndex(DIMS, { kernel: 'js' });
  const matrix = new Float32Array(N * DIMS);
  const ids = new Float64Array(N);
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const v = randomVector(next, DIMS);
    wasm.upsert(i, v);
    js.upsert(i, v);
    matrix.set(normalise(v), i * DIMS);
    ids[i] = i;
  }
  const buildMs = (performance.now() - t0) / 3;
  const queries = Array.from({ length: WARMUP + QUERIES }, () => normalise(randomVector(next, DIMS)));
  // Same answers from all three, or the timings mean nothing.
  const out = new Float64Array(N);
  for (const q of queries.slice(0, 5)) {
    const want = referenceSearch(matrix, ids, q, out).map((h) => h.id).join();
    if (wasm.search(q, K).map((h) => h.id).join() !== want || js.search(q, K).map((h) => h.id).join() !== want) {
      throw new Error('VectorIndex and the reference disagree on the top 10');
    }
  }
  // Interleaved per path in blocks, so drift from the shared machine hits all three alike.
  const ours = [], reference = [], fallback = [];
  for (let block = 0; block < 2; block++) {
    ours.push(...time((q) => wasm.search(q, K), queries));
    reference.push(...time((q) => referenceSearch(matrix, ids, q, out), queries));
    fallback.push(...time((q) => js.search(q, K), queries));
  }
  return {
    node: process.version,
    kernel: wasm.kernel,
    median: median(ours),
    p95: percentile(ours, 95),
    referenceMedian: median(reference),
    referenceP95: percentile(reference, 95),
    jsFallbackMedian: median(fallback),
    jsFallbackP95: percentile(fallback, 95),
    upsertMsPer1k: (buildMs / N) * 1000,
    runs: ours.length,
  };
}

function node24() {
  const candidates = [process.env.PINCER_NODE24, path.join(os.homedir(), '.cache', 'vscode-host', 'node_modules', 'node', 'bin', 'node')];
  for (const bin of candidates) {
    if (!bin || !fs.existsSync(bin)) continue;
    const v = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (v.startsWith('v24.') && v !== process.version) return bin;
  }
  return null;
}

const round = (x) => Math.round(x * 1000) / 1000;

if (process.argv.includes('--child')) {
  console.log(JSON.stringify(measure()));
} else {
  const m = measure();
  const bin24 = node24();
  let n24 = null;
  if (bin24) {
    const r = spawnSync(bin24, [fileURLToPath(import.meta.url), '--child'], { encoding: 'utf8' });
    n24 = r.status === 0 ? JSON.parse(r.stdout.trim().split('\n').at(-1)) : { error: r.stderr.slice(0, 500) };
  }
  const ratio = m.median / m.referenceMedian;
  record({
    name: 'vector-search-50k',
    unit: 'ms/query',
    value: m.median,
    reference: 'plain-JS 4-way unrolled dot-product loop over the same normalised Float32Array rows + the same top-10 heap, same run',
    referenceValue: m.referenceMedian,
    goal: 'ratio <= 0.5 (at least twice as fast as the plain-JS loop)',
    pass: m.kernel === 'wasm' && ratio <= 0.5,
    runs: m.runs,
    statistic: 'median',
    corpus: `${N.toLocaleString('en')} × ${DIMS}-dim random unit vectors, exact cosine top-${K}, ${m.runs} queries after ${WARMUP} warm-up`,
    extra: {
      kernel: m.kernel,
      p95: round(m.p95),
      referenceP95: round(m.referenceP95),
      jsFallbackMedian: round(m.jsFallbackMedian),
      jsFallbackP95: round(m.jsFallbackP95),
      upsertMsPer1k: round(m.upsertMsPer1k),
      ...(n24 && !n24.error
        ? { node24: { node: n24.node, kernel: n24.kernel, median: round(n24.median), p95: round(n24.p95), referenceMedian: round(n24.referenceMedian),
          referenceP95: round(n24.referenceP95), ratio: round(n24.median / n24.referenceMedian), jsFallbackMedian: round(n24.jsFallbackMedian) } }
        : { node24: n24 ? n24.error : 'no Node 24 binary found (set PINCER_NODE24)' }),
    },
  });
}
