// Durable single-row INSERT latency of Pincer's storage on a ~30 MB database, with a snapshot
// happening during the run, against a bare append + fsync of the same bytes measured in the same
// run; and the longest block of the main thread's event loop meanwhile.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { percentile, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STORAGE = path.join(ROOT, 'out', 'src', 'core', 'storage');
const { Database } = require(path.join(STORAGE, 'database.js'));
const { encodeRecord } = require(path.join(STORAGE, 'journal-format.js'));
const { watchEventLoop } = require(path.join(ROOT, 'out', 'test', 'support', 'event-loop.js'));

const ROWS = 50_000;
const WRITES = 600;
const BODY = 500;
const INSERT = 'INSERT INTO docs(body) VALUES (?)';
// About 570 bytes a record: the journal crosses this once, around write 350.
const SNAPSHOT_THRESHOLD = 200_000;

const body = (i) => `${i}:`.padEnd(BODY, 'lorem ipsum dolor sit amet ');

function journalBase(dir) {
  const head = fs.readFileSync(path.join(dir, 'pincer.journal')).subarray(0, 40);
  return head.readDoubleLE(24);
}


/** The reference: the same record bytes appended and fsynced with nothing else around them. */
function bareAppend(dir, n, seq0) {
  const file = path.join(dir, 'bare.journal');
  const fd = fs.openSync(file, 'a');
  const times = [];
  for (let i = 0; i < n; i++) {
    const bytes = encodeRecord({ seq: seq0 + i, statements: [{ sql: INSERT, params: [body(i)] }] });
    const t = performance.now();
    fs.appendFileSync(fd, bytes);
    fs.fsyncSync(fd);
    times.push(performance.now() - t);
  }
  fs.closeSync(fd);
  return times;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-bench-storage-'));
try {
  const db = await Database.open({
    dir,
    workerPath: path.join(STORAGE, 'storage-worker.js'),
    migrations: [{ version: 1, name: 'docs', sql: 'CREATE TABLE docs(id INTEGER PRIMARY KEY, body TEXT NOT NULL)' }],
    snapshotThresholdBytes: SNAPSHOT_THRESHOLD,
  });
  await db.run(
    `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${ROWS}) ` +
      `INSERT INTO docs(body) SELECT substr(printf('%d:', i) || printf('%.${BODY}c', 'x'), 1, ${BODY}) FROM c`,
  );
  await db.snapshot();
  const dbMB = fs.statSync(path.join(dir, 'pincer.db')).size / 1e6;
  const baseBefore = journalBase(dir);

  const reference = bareAppend(dir, WRITES / 2, 1);

  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const stop = watchEventLoop();
  const times = [];
  for (let i = 0; i < WRITES; i++) {
    const t = performance.now();
    await db.run(INSERT, [body(i)]);
    times.push(performance.now() - t);
  }
  // Let a snapshot the last writes started finish while the loop is still watched.
  await db.query('SELECT count(*) AS n FROM docs');
  const maxBlock = stop();
  histogram.disable();
  const snapshotted = journalBase(dir) > baseBefore;

  reference.push(...bareAppend(dir, WRITES / 2, WRITES));
  const [count] = await db.query('SELECT count(*) AS n FROM docs');
  await db.close();
  if (count.n !== ROWS + WRITES) throw new Error(`expected ${ROWS + WRITES} rows, found ${count.n}`);

  const p95 = percentile(times, 95);
  const corpus = `${ROWS.toLocaleString('en')} rows × ${BODY} chars (${dbMB.toFixed(1)} MB db), ${WRITES} sequential writes, snapshot during the run: ${snapshotted ? 'yes' : 'NO'}`;
  record({
    name: 'storage-write-p95',
    unit: 'ms',
    value: p95,
    reference: 'fs.appendFileSync + fs.fsyncSync of the same record bytes',
    referenceValue: percentile(reference, 95),
    goal: '<= 25',
    pass: p95 <= 25 && snapshotted,
    runs: WRITES,
    statistic: 'p95',
    corpus,
    extra: { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.max(...times), referenceP50: percentile(reference, 50) },
  });
  record({
    name: 'storage-max-block',
    unit: 'ms',
    value: maxBlock,
    goal: '<= 50',
    pass: maxBlock <= 50,
    runs: 1,
    statistic: 'max',
    corpus,
    extra: { eventLoopDelayMaxMs: histogram.max / 1e6, eventLoopDelayP99Ms: histogram.percentile(99) / 1e6 },
  });
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
