// Memory search on 50,000 chunks of ~530 characters (bench/lib/memory-corpus.mjs): how fast the
// store takes them in (against bare INSERTs of the same rows into a plain table, in the same run; the
// full-text index follows off the write path and its catch-up time is recorded beside the rate),
// the longest block of the main thread's event loop meanwhile (indexing and a snapshot), and the
// latency of ranked 2-term AND queries through MemoryStore.search (against a bare FTS4 MATCH
// without ranking, in the same run). Writes memory-index-rate, memory-index-max-block and
// memory-search-bm25-50k to bench/results/. CPU times (every thread of the process) are recorded
// beside the wall times: a busy machine inflates them far less.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from './lib/memory-corpus.mjs';
import { percentile, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMPILED = path.join(ROOT, process.env.PINCER_OUT ?? 'out');
const OUT = path.join(COMPILED, 'src', 'core');
const { Database } = require(path.join(OUT, 'storage', 'database.js'));
const { MemoryStore } = require(path.join(OUT, 'memory', 'memory-store.js'));
const { MEMORY_MIGRATIONS } = require(path.join(OUT, 'memory', 'memory-schema.js'));
const { chunkMarkdown } = require(path.join(OUT, 'memory', 'chunker.js'));
const { buildFtsQuery } = require(path.join(OUT, 'memory', 'fts-query.js'));
const WORKER = path.join(OUT, 'storage', 'storage-worker.js');
const { watchEventLoop } = require(path.join(COMPILED, 'test', 'support', 'event-loop.js'));

const CHUNKS = 50_000;
const QUERIES = 300;
const WARMUP = 30;
const SCOPE = { agentId: 'bench', userId: '' };
const BATCH_CHARS = 1024 * 1024; // what MemoryStore.writeMany puts in one transaction
/** CPU milliseconds the process (every thread) has used. */
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};


const tmp = (label) => fs.mkdtempSync(path.join(os.tmpdir(), `pincer-bench-${label}-`));

/** The reference: the same chunk rows, as bare multi-row INSERTs into a plain table, in ~1 MB transactions. */
async function bareInserts(rows) {
  const cpu0 = cpuMs();
  const dir = tmp('memory-bare');
  try {
    const db = await Database.open({
      dir, workerPath: WORKER,
      migrations: [{ version: 1, name: 'plain', sql: 'CREATE TABLE plain(id INTEGER PRIMARY KEY, path TEXT, seq INTEGER, heading TEXT, text TEXT, start_line INTEGER, end_line INTEGER)' }],
    });
    const t = performance.now();
    let batch = [];
    let chars = 0;
    const flush = async () => {
      const statements = [];
      for (let i = 0; i < batch.length; i += 1000) {
        const part = batch.slice(i, i + 1000);
        statements.push({ sql: `INSERT INTO plain(path, seq, heading, text, start_line, end_line) VALUES ${part.map(() => '(?,?,?,?,?,?)').join(',')}`, params: part.flat() });
      }
      await db.transaction(statements);
      batch = [];
      chars = 0;
    };
    for (const r of rows) {
      batch.push(r);
      chars += r[3].length;
      if (chars >= BATCH_CHARS) await flush();
    }
    if (batch.length) await flush();
    const ms = performance.now() - t;
    const cpu = cpuMs() - cpu0;
    await db.close();
    return { ms, cpu };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const loadBefore = os.loadavg();
const corpus = generateCorpus({ chunks: CHUNKS });
const rows = [];
for (const d of corpus.docs) for (const c of chunkMarkdown(d.content)) rows.push([d.path, c.seq, c.heading, c.text, c.startLine, c.endLine]);
if (rows.length !== CHUNKS) throw new Error(`the corpus chunks into ${rows.length} chunks, not ${CHUNKS}`);
const contentMB = corpus.docs.reduce((n, d) => n + d.content.length, 0) / 1e6;
const avgChunk = Math.round(rows.reduce((n, r) => n + r[3].length, 0) / rows.length);

const dir = tmp('memory');
try {
  const db = await Database.open({ dir, workerPath: WORKER, migrations: MEMORY_MIGRATIONS });
  const store = new MemoryStore(db);

  // Index: every document through the store, as an import would; then a snapshot of the result.
  const stop = watchEventLoop();
  const c0 = cpuMs();
  const t0 = performance.now();
  await store.writeMany(SCOPE, corpus.docs);
  const indexMs = performance.now() - t0;
  const indexCpuMs = cpuMs() - c0;
  // The full-text index follows the writes off the write path (memory-fts-index.ts): how long until
  // every chunk is in it too, i.e. until a search needs no indexing of its own.
  const c2 = cpuMs();
  const t2 = performance.now();
  await store.ftsSettled();
  const ftsCatchUpMs = performance.now() - t2;
  const ftsCatchUpCpuMs = cpuMs() - c2;
  await db.snapshot();
  const maxBlock = stop();
  const dbMB = fs.statSync(path.join(dir, 'pincer.db')).size / 1e6;
  const [{ n }] = await db.query('SELECT count(*) AS n FROM memory_chunks');
  if (n !== CHUNKS) throw new Error(`indexed ${n} chunks, expected ${CHUNKS}`);
  const { ms: referenceMs, cpu: referenceCpuMs } = await bareInserts(rows);
  // The floor set by FTS4 itself in this sql.js build: rebuilding the full-text index of the same chunks.
  const c1 = cpuMs();
  const t1 = performance.now();
  await db.run("INSERT INTO memory_fts(memory_fts) VALUES ('rebuild')");
  const ftsRebuildMs = performance.now() - t1;
  const ftsRebuildCpuMs = cpuMs() - c1;

  const corpusText = `${CHUNKS.toLocaleString('en')} chunks (avg ${avgChunk} chars) in ${corpus.docs.length.toLocaleString('en')} markdown documents, ${contentMB.toFixed(1)} MB; db ${dbMB.toFixed(1)} MB`;
  const rate = (CHUNKS / indexMs) * 1000;
  const refRate = (CHUNKS / referenceMs) * 1000;
  record({
    name: 'memory-index-rate',
    unit: 'chunks/s',
    value: rate,
    reference: 'bare multi-row INSERTs of the same chunk rows into a plain table (same storage, same ~1 MB transactions)',
    referenceValue: refRate,
    goal: '>= 20000',
    pass: rate >= 20_000,
    runs: 1,
    statistic: 'total',
    corpus: corpusText,
    loadBefore,
    // The rate is of MemoryStore.writeMany: documents and chunks stored, durable and readable; the
    // full-text index follows off the write path (ftsCatchUp: from the end of the writes until every
    // chunk is indexed; a search in that window indexes what is left before it runs, so it still sees
    // every document). ftsRebuild: FTS4 indexing the same chunks on its own, in one statement.
    // The CPU figures: every thread, so the main thread's chunking and the worker's SQL add up.
    extra: { indexMs, referenceMs, ftsCatchUpMs, ftsCatchUpCpuMs, searchableChunksPerSec: (CHUNKS / (indexMs + ftsCatchUpMs)) * 1000,
      ftsRebuildMs, ftsRebuildChunksPerSec: (CHUNKS / ftsRebuildMs) * 1000,
      indexCpuMs, referenceCpuMs, ftsRebuildCpuMs, cpuRatio: indexCpuMs / referenceCpuMs },
  });
  record({
    name: 'memory-index-max-block',
    unit: 'ms',
    value: maxBlock,
    goal: '<= 50',
    pass: maxBlock <= 50,
    runs: 1,
    statistic: 'max',
    corpus: `${corpusText}; MemoryStore.writeMany of every document, the full-text index catching up, then a snapshot`,
    loadBefore,
  });

  // Search: 2-term queries sampled from the corpus (each has at least one all-terms hit).
  const queries = corpus.queries(QUERIES + WARMUP, 2);
  const ranked = [];
  const rankedCpu = [];
  const withFallback = [];
  const bare = [];
  let hits = 0;
  let fellBack = 0;
  for (const [i, q] of queries.entries()) {
    const match = buildFtsQuery(q).and;
    let t = performance.now();
    await db.query('SELECT docid FROM memory_fts WHERE memory_fts MATCH ?', [match]);
    const b = performance.now() - t;
    const c = cpuMs();
    t = performance.now();
    const r = await store.search(SCOPE, q, { limit: 8, fallback: false });
    const s = performance.now() - t;
    const sc = cpuMs() - c;
    t = performance.now();
    const f = await store.search(SCOPE, q, { limit: 8 });
    const sf = performance.now() - t;
    if (i < WARMUP) continue;
    bare.push(b);
    ranked.push(s);
    rankedCpu.push(sc);
    withFallback.push(sf);
    hits += r.hits.length;
    if (f.hits.length > r.hits.length) fellBack++;
  }
  const p95 = percentile(ranked, 95);
  record({
    name: 'memory-search-bm25-50k',
    unit: 'ms',
    value: p95,
    reference: 'bare FTS4 MATCH of the same AND expression, no ranking (db.query)',
    referenceValue: percentile(bare, 95),
    goal: '<= 5',
    pass: p95 <= 5,
    runs: QUERIES,
    statistic: 'p95',
    corpus: corpusText,
    loadBefore,
    extra: {
      p50: percentile(ranked, 50),
      max: Math.max(...ranked),
      cpuMsP50: percentile(rankedCpu, 50),
      cpuMsP95: percentile(rankedCpu, 95),
      referenceP50: percentile(bare, 50),
      meanHits: hits / QUERIES,
      // What memory_search does by default: the any-term fallback when all terms find fewer than 8.
      withOrFallbackP50: percentile(withFallback, 50),
      withOrFallbackP95: percentile(withFallback, 95),
      queriesThatFellBack: fellBack,
    },
  });
  await db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
