// Scrubber throughput: MB/s of Scrubber.scrub over 10 MB of mixed tool output (source code, logs,
// JSON, shell output, a sprinkling of secrets), median of several runs after warm-up. Reference in
// the same run: secretlint's recommended preset (a maintained scanner, in node_modules through
// @vscode/vsce) finding secrets in the same text — it only reports them, and knows far fewer formats.
// Beside it, the naive approach (each rule as its own global regex replace pass over the text) and
// the cold-start cost in fresh processes (load, construct, first scrub of a small text).
// A text this long is scrubbed on two threads (src/core/guard/scrub-split.ts: its chunks shared with
// a worker thread) unless the last split showed the machine busy (then a few texts go on one thread:
// splitCounts.paused): the figure is wall-clock, and the CPU time beside it (process CPU, both
// threads) is what it costs; the same scrub on one thread is timed in the same rounds (oneThread*).
// Needs the compiled output (`npm run bench` compiles first; alone: `npx tsc -p .` then run this).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, record } from './lib/record.mjs';
import { throughputCorpus } from './lib/throughput-corpus.mjs';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// The compiled output to measure: out/ by default, or a folder of one's own (PINCER_OUT=.out-x).
const outDir = path.join(root, process.env.PINCER_OUT ?? 'out');
const { Scrubber } = require(path.join(outDir, 'src/core/guard/scrubber.js'));
const { staticRules } = require(path.join(outDir, 'src/core/guard/scrub-patterns.js'));
const { combine } = require(path.join(outDir, 'src/core/guard/scrub-combine.js'));
const split = require(path.join(outDir, 'src/core/guard/scrub-split.js'));

const RUNS = 11;

/** Wall-clock and process CPU time (user + system) of one call. */
function time(fn, arg) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const out = fn(arg);
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000, out };
}

const text = throughputCorpus();
const mb = text.length / (1024 * 1024);
const scrubber = new Scrubber();
const combined = (t) => scrubber.scrub(t);
// The same scrub on the calling thread alone (what `scrub` did before long texts were split: one
// pass, same output), timed in the same rounds so the two-thread gain is read against the same load.
const oneThread = (t) => scrubber.scrubFrom(t, 0).output?.toString() ?? t;

// The naive reference: the same static rules, one global regex and replace pass each (each rule
// compiled alone, with its anchor and guard, so it matches exactly what it matches in the combined one).
const passes = staticRules('[REDACTED]').map((r) => combine([r]).re);
const separate = (t) => passes.reduce((acc, re) => acc.replace(re, '[REDACTED]'), t);

// Interleaved, so both see the same machine. The figure is wall-clock; the process's CPU time is
// recorded next to it because on a shared 2-core machine other processes take the CPU mid-run
// (runs of one build spread 150–520 MB/s here while other sessions were busy).
// secretlint, when installed: lintSource of its recommended preset on the same text.
let secretlint;
try {
  const { lintSource } = await import('@secretlint/core');
  const { creator } = await import('@secretlint/secretlint-rule-preset-recommend');
  const { version } = require('@secretlint/core/package.json');
  const options = { config: { rules: [{ id: creator.meta.id, rule: creator }] } };
  secretlint = {
    name: `secretlint ${version}, recommended preset (finds, does not redact)`,
    run: (t) => lintSource({ source: { content: t, filePath: 'tool-output.txt', ext: '.txt', contentType: 'text' }, options }),
  };
} catch (e) {
  console.log(`secretlint not available (${e.message}): the naive passes are the reference`);
}

/** time() for a function returning a promise. */
async function timeAsync(fn, arg) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const out = await fn(arg);
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000, out };
}

const loadBefore = os.loadavg();
const runs = { combined: [], separate: [], combinedWall: [], separateWall: [], secretlint: [], secretlintWall: [], oneThread: [], oneThreadWall: [] };
let secretlintFindings = null;
for (let i = 0; i < 2; i++) {
  combined(text);
  separate(text);
  if (secretlint) await secretlint.run(text);
}
// A long text's chunks are shared with a worker thread, started by the first long text; the timed
// rounds are taken once it is running and the text was scrubbed WARM texts more, untimed: the first
// splits run slower on both threads (their chunk-walk code is being optimized), and the split's
// backoff times one text on this thread alone before it compares (splitBackoff).
const WARM = 4;
const twoThreads = await split.whenSplitReady();
for (let i = 0; i < WARM; i++) combined(text);
const countsBefore = { ...split.splitCounts };
let out = '';
for (let i = 0; i < RUNS; i++) {
  const c = time(combined, text);
  const s = time(separate, text);
  out = c.out;
  runs.combined.push(mb / (c.cpuMs / 1000));
  runs.separate.push(mb / (s.cpuMs / 1000));
  runs.combinedWall.push(mb / (c.wallMs / 1000));
  const o = time(oneThread, text);
  if (o.out !== c.out) throw new Error('two threads and one gave different outputs');
  runs.oneThread.push(mb / (o.cpuMs / 1000));
  runs.oneThreadWall.push(mb / (o.wallMs / 1000));
  runs.separateWall.push(mb / (s.wallMs / 1000));
  if (secretlint) {
    const l = await timeAsync(secretlint.run, text);
    secretlintFindings = l.out.messages.length;
    runs.secretlint.push(mb / (l.cpuMs / 1000));
    runs.secretlintWall.push(mb / (l.wallMs / 1000));
  }
}
// Cold start, in fresh processes: the scrubber sits on the start-up path (the runtime constructs
// one, and the first tool call's result is its first scrub). Loading the module, constructing a
// Scrubber, and its first scrub of a tool result (package.json), which builds the pattern and has
// V8 compile it; median of COLD_RUNS processes. Beside it (`prepared`), the same first scrub when
// prepareScrubber() was called at construction and the tool took 50 ms (a command running): the
// compile then ran while the thread waited.
const COLD_RUNS = 15;
const coldScript = (prepared) => `const t0 = performance.now();
const m = require(${JSON.stringify(path.join(outDir, 'src/core/guard/scrubber.js'))});
const t1 = performance.now();
const s = new m.Scrubber();
${prepared ? 'm.prepareScrubber();' : ''}
const t2 = performance.now();
const text = require('node:fs').readFileSync(${JSON.stringify(path.join(root, 'package.json'))}, 'utf8');
(${prepared ? 'new Promise((r) => setTimeout(r, 50))' : 'Promise.resolve()'}).then(() => {
  const t3 = performance.now();
  s.scrub(text);
  const t4 = performance.now();
  process.stdout.write(JSON.stringify({ load: t1 - t0, construct: t2 - t1, firstScrub: t4 - t3 }));
});`;
const cold = [];
const coldPrepared = [];
for (let i = 0; i < COLD_RUNS; i++) {
  for (const [prepared, into] of [[false, cold], [true, coldPrepared]]) {
    const r = spawnSync(process.execPath, ['-e', coldScript(prepared)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cold run failed: ${r.stderr}`);
    into.push(JSON.parse(r.stdout));
  }
}
const coldMedian = (key, runs = cold) => Math.round(median(runs.map((c) => c[key])) * 100) / 100;

const value = median(runs.combinedWall);
const round = (xs) => xs.map((x) => Math.round(x));
const redactions = (out.match(/\[REDACTED\]/g) ?? []).length;
record({
  name: 'scrub-throughput', unit: 'MB/s', value, reference: secretlint ? secretlint.name : 'separate pass per pattern',
  referenceValue: median(secretlint ? runs.secretlintWall : runs.separateWall),
  goal: '>= 250 MB/s', pass: value >= 250, runs: RUNS, statistic: 'median', corpus: '10 MB mixed tool output', loadBefore,
  extra: {
    megabytes: Math.round(mb * 100) / 100, redactions, load: os.loadavg(), wallRuns: round(runs.combinedWall),
    ...(secretlint ? { secretlintFindings, secretlintWallRuns: round(runs.secretlintWall), secretlintCpuTimeMedian: Math.round(median(runs.secretlint)),
      separateWallMedian: Math.round(median(runs.separateWall)) } : {}),
    twoThreads, splitCounts: Object.fromEntries(Object.entries(split.splitCounts).map(([k, v]) => [k, v - countsBefore[k]])),
    oneThreadWallMedian: Math.round(median(runs.oneThreadWall)), oneThreadCpuTimeMedian: Math.round(median(runs.oneThread)),
    oneThreadWallRuns: round(runs.oneThreadWall),
    separateWallRuns: round(runs.separateWall), cpuTimeMedian: Math.round(median(runs.combined)),
    separateCpuTimeMedian: Math.round(median(runs.separate)), cpuTimeRuns: round(runs.combined),
    coldLoadMs: coldMedian('load'), coldConstructMs: coldMedian('construct'), coldFirstScrubMs: coldMedian('firstScrub'),
    coldFirstScrubPreparedMs: coldMedian('firstScrub', coldPrepared), coldRuns: COLD_RUNS,
  },
});
