// Scrubber accuracy on the seeded secrets corpus (test/support/secrets): every token format in every
// syntax, bare where it has a prefix, structural secrets and PEM keys, look-alikes, planted in
// >= 10 MB of realistic clean tool output, scrubbed in 64 KB documents. Records `scrub-leaks`
// (planted secrets still present, goal 0) and `scrub-false-positives` (% of clean lines changed,
// goal <= 0.05 %). Needs the compiled output (`npx tsc -p .`).
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// The compiled output to measure: out/ by default, or a folder of one's own (PINCER_OUT=.out-x).
const outDir = path.join(root, process.env.PINCER_OUT ?? 'out');
const { Scrubber } = require(path.join(outDir, 'src/core/guard/scrubber.js'));
const { buildCorpus, evaluate } = require(path.join(outDir, 'test/support/secrets/corpus.js'));

const corpus = buildCorpus({ seed: 42, cleanBytes: 10.5 * 1024 * 1024 });
const megabytes = Math.round(corpus.lines.reduce((n, l) => n + l.length + 1, 0) / 1048576 * 100) / 100;
const scrubber = new Scrubber();
const r = evaluate(corpus, (t) => scrubber.scrub(t));
const corpusText = `${megabytes} MB: ${corpus.formatCount} token formats x ${corpus.syntaxCount} syntaxes planted in realistic tool output (seed 42)`;
const extra = { megabytes, formats: corpus.formatCount, syntaxes: corpus.syntaxCount, planted: r.secretCount,
  lookalikes: corpus.lookalikes.size, cleanLines: r.cleanLineCount, load: os.loadavg() };
record({ name: 'scrub-leaks', unit: 'count', value: r.leaks.length, goal: '0', pass: r.leaks.length === 0, runs: 1, statistic: 'count',
  corpus: corpusText, extra: { ...extra, leaked: r.leaks.slice(0, 20).map((l) => `${l.id} (${l.syntax})`) } });
const changed = r.changedClean.length + r.changedLookalikes.length;
const pct = (changed / r.cleanLineCount) * 100;
record({ name: 'scrub-false-positives', unit: '%', value: pct, goal: '<= 0.05 % of clean lines changed', pass: pct <= 0.05, runs: 1,
  statistic: 'share', corpus: corpusText,
  extra: { ...extra, changedLines: changed, changedLookalikes: r.changedLookalikes.length, examples: [...r.changedLookalikes, ...r.changedClean].slice(0, 10) } });
