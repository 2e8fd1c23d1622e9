// A check, not a timing: the scrubber's redactions on every corpus its tests and benches use are
// byte-identical whichever way the text is scrubbed. Corpora: the scrub-throughput text (10 MB), the
// seeded accuracy corpus behind scrub-leaks and scrub-false-positives (test/support/secrets, 10.5 MB
// of clean output, in its 64 KB documents), the red team's held-out corpus (bench/secrets-holdout/,
// in its documents) and the unit tests' corpora (test/unit/guard/scrub-corpus-*.ts).
// Compared with the one pass on this thread (runCombined):
//   - each document as its bench scrubs it (Scrubber.scrub);
//   - each corpus as one long text, scrubbed on two threads (scrub-split.ts; the run fails unless
//     the worker took part), and its chunks (scrub-chunks.ts) shared out between two walks in
//     several orders, as the two threads may take them;
//   - each long text cut at CUTS line breaks spread over it: the first part's scan stopped at the
//     cut (where it can) joined to a scan started fresh there (runFrom).
// With PINCER_OUT_BEFORE=<another build>, every output is also compared with that build's scrub
// (how a change to the scrubber proves it changed no redaction). Exits 1 on any difference.
// Needs the compiled output (out/, or PINCER_OUT) including the tests (test/support, test/unit).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { throughputCorpus } from './lib/throughput-corpus.mjs';
import { buildCorpus as buildHoldout, evaluate as evaluateHoldout } from './secrets-holdout/generate.mjs';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, process.env.PINCER_OUT ?? 'out');
const guard = (dir, m) => require(path.join(dir, 'src/core/guard', m));
const { Scrubber } = guard(outDir, 'scrubber.js');
const { runCombined, runFrom } = guard(outDir, 'scrub-combine.js');
const split = guard(outDir, 'scrub-split.js');
const { chunkBounds, ChunkWalk, joinChunks } = guard(outDir, 'scrub-chunks.js');
const { buildCorpus, evaluate } = require(path.join(outDir, 'test/support/secrets/corpus.js'));
const { SECRET_CASES } = require(path.join(outDir, 'test/unit/guard/scrub-corpus-secrets.js'));
const { CLEAN_CASES } = require(path.join(outDir, 'test/unit/guard/scrub-corpus-clean.js'));
const beforeDir = process.env.PINCER_OUT_BEFORE ? path.resolve(root, process.env.PINCER_OUT_BEFORE) : undefined;
const before = beforeDir ? new (guard(beforeDir, 'scrubber.js').Scrubber)() : undefined;

const CUTS = 24;
const PLACEHOLDER = '[REDACTED]';

/** The documents a bench hands the scrubber, caught by scrubbing them unchanged. */
function documentsOf(evaluateFn, corpus) {
  const docs = [];
  evaluateFn(corpus, (t) => {
    docs.push(t);
    return t;
  });
  return docs;
}

const corpora = [
  { name: 'scrub-throughput (10 MB)', docs: [throughputCorpus()] },
  { name: 'scrub-leaks / scrub-false-positives (seed 42, 10.5 MB)', docs: documentsOf(evaluate, buildCorpus({ seed: 42, cleanBytes: 10.5 * 1024 * 1024 })) },
  { name: 'scrub-holdout (bench/secrets-holdout, seed 7)', docs: documentsOf(evaluateHoldout, buildHoldout({ seed: 7, cleanBytes: 4 * 1024 * 1024 })) },
  { name: 'unit corpora (scrub-corpus-secrets, scrub-corpus-clean)', docs: [...SECRET_CASES, ...CLEAN_CASES].map((c) => c.text) },
];

const scrubber = new Scrubber();
// The worker compiles its rules when it starts; long texts scrubbed before that stay on one thread.
if (!(await split.whenSplitReady())) {
  console.error('the scrub worker could not start');
  process.exit(1);
}
// The rules' patterns, as Scrubber.scrub walks them (no registered values; a private static method, reached from JS).
const patterns = Scrubber.patterns(scrubber, ' ');

let failures = 0;
const fail = (what) => {
  failures += 1;
  if (failures <= 10) console.error(`DIFFERENT: ${what}`);
};
const digest = (xs) => createHash('sha256').update(xs.join('\u0000')).digest('hex').slice(0, 16);

for (const { name, docs } of corpora) {
  const expected = docs.map((d) => runCombined(patterns, d, PLACEHOLDER));
  let redactions = 0;
  docs.forEach((d, i) => {
    if (scrubber.scrub(d) !== expected[i]) fail(`${name}: document ${i} (${d.length} chars), scrub vs one pass`);
    if (before && before.scrub(d) !== expected[i]) fail(`${name}: document ${i}, this build vs ${beforeDir}`);
    redactions += expected[i].split(PLACEHOLDER).length - 1;
  });
  // The corpus as one long text: two threads.
  const whole = docs.join('\n');
  const wholeExpected = runCombined(patterns, whole, PLACEHOLDER);
  // Ends a pause a busy machine may have started (splitBackoff): this text must go to the worker.
  // The two threads share the text's chunks as each comes free, so on a busy machine this thread can
  // take them all before the worker claims one: tried again (each output checked) until the worker
  // answered a chunk, its claimed chunks waited for however long they take.
  await split.whenSplitReady();
  const patience = { ...split.splitPatience };
  Object.assign(split.splitPatience, { factor: 0, minMs: 60_000 });
  let usedWorker = 0;
  for (let tries = 0; tries < 10 && !usedWorker; tries++) {
    const counts = { ...split.splitCounts };
    if (scrubber.scrub(whole) !== wholeExpected) fail(`${name}: whole text on two threads vs one pass`);
    usedWorker = split.splitCounts.split - counts.split;
    if (whole.length < split.SPLIT_MIN) break;
  }
  Object.assign(split.splitPatience, patience);
  if (whole.length >= split.SPLIT_MIN && usedWorker !== 1) fail(`${name}: the whole text was not scrubbed on two threads (${JSON.stringify(split.splitCounts)})`);
  // Its chunks (about 40) shared out between two walks in rising order, as the threads may take them.
  let seed = 11;
  const plans = [(k) => k % 2, (k) => Math.floor(k / 3) % 2, () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 1];
  const bounds = chunkBounds(whole, Math.max(4096, Math.floor(whole.length / 40)));
  for (const [p, plan] of plans.entries()) {
    const walks = [new ChunkWalk(patterns, whole, PLACEHOLDER), new ChunkWalk(patterns, whole, PLACEHOLDER)];
    const over = [false, false];
    const results = [];
    for (let k = 0; k + 1 < bounds.length; k++) {
      const w = over[plan(k)] ? 1 - plan(k) : plan(k);
      if (over[w]) break;
      results[k] = walks[w].scan(bounds[k], bounds[k + 1]);
      if (!results[k].stopped) over[w] = true;
    }
    if (joinChunks(whole, bounds, results) !== wholeExpected) fail(`${name}: ${bounds.length - 1} chunks shared out by plan ${p}`);
  }
  if (before && before.scrub(whole) !== wholeExpected) fail(`${name}: whole text, this build vs ${beforeDir}`);
  // Cut at line breaks spread over the whole text.
  let stopped = 0;
  let cuts = 0;
  for (let k = 1; k <= CUTS; k++) {
    const nl = whole.indexOf('\n', Math.floor((whole.length * k) / (CUTS + 1)));
    if (nl < 0 || nl + 1 >= whole.length) continue;
    const cut = nl + 1;
    cuts += 1;
    const head = runFrom(patterns, whole, PLACEHOLDER, 0, cut);
    let got;
    if (head.stopped) {
      stopped += 1;
      const tail = runFrom(patterns, whole, PLACEHOLDER, cut);
      got = (head.output?.toString() ?? whole.slice(0, cut)) + (tail.output?.toString() ?? whole.slice(cut));
    } else {
      got = head.output?.toString() ?? whole;
    }
    if (got !== wholeExpected) fail(`${name}: cut at ${cut} (${head.stopped ? 'stopped there' : 'went on'})`);
  }
  console.log(`${name}: ${docs.length} documents, ${(whole.length / 1048576).toFixed(2)} M chars, ${redactions} redactions, ` +
    `output digest ${digest(expected)}; whole text on two threads: ${usedWorker ? 'yes' : 'no (short)'}; ` +
    `${cuts} cuts, ${stopped} stopped at the cut${before ? `; compared with ${beforeDir}` : ''}`);
}
split.stopSplitWorker();
if (failures) {
  console.error(`${failures} difference(s)`);
  process.exit(1);
}
console.log('scrub-identical: every output identical');
