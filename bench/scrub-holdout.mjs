// The scrubber on the held-out secrets corpus (bench/secrets-holdout/), written by an outside red
// team that never read the scrubber, its rules or its tests: realistic tool output with true
// secrets planted (200+ token formats, 140 syntaxes) and look-alikes that must stay untouched.
// Records `scrub-holdout`: leaks (whole or second half of a secret surviving), by format and by
// syntax, and the share of clean lines changed. Needs the compiled output (out/, or PINCER_OUT).
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { record } from './lib/record.mjs';
import { buildCorpus, evaluate } from './secrets-holdout/generate.mjs';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, process.env.PINCER_OUT ?? 'out');
const { Scrubber } = require(path.join(outDir, 'src/core/guard/scrubber.js'));

function countBy(xs, key) {
  const m = {};
  for (const x of xs) m[x[key]] = (m[x[key]] ?? 0) + 1;
  return Object.fromEntries(Object.entries(m).sort((a, b) => b[1] - a[1]));
}

const loadBefore = os.loadavg();
const corpus = buildCorpus({ seed: 7, cleanBytes: 4 * 1024 * 1024 });
const megabytes = Math.round((corpus.documents.reduce((n, d) => n + d.bytes, 0) / 1048576) * 100) / 100;
const scrubber = new Scrubber();
const r = evaluate(corpus, (t) => scrubber.scrub(t));
const leaked = [...r.leaks, ...r.partial];
const plantedByFormat = {};
for (const d of corpus.documents) for (const i of d.items) if (i.type === 'secret') plantedByFormat[i.format] = (plantedByFormat[i.format] ?? 0) + 1;
const leaksByFormat = countBy(leaked, 'format');
const changed = r.changedClean.length + r.changedLookalikes.length;
const cleanLinesChangedPct = (changed / (r.cleanLines + r.lookalikeLines)) * 100;
record({
  name: 'scrub-holdout', unit: 'count', value: leaked.length, goal: '0 leaks; <= 0.05 % of clean lines changed',
  pass: leaked.length === 0 && cleanLinesChangedPct <= 0.05, runs: 1, statistic: 'count', loadBefore,
  corpus: `bench/secrets-holdout (seed ${corpus.seed}): ${megabytes} MB, ${corpus.secretCount} planted secrets in ${corpus.formatCount} formats x ${corpus.syntaxCount} syntaxes, ${corpus.lookalikeCount} look-alikes`,
  extra: {
    planted: corpus.secretCount, leaksWhole: r.leaks.length, leaksPartial: r.partial.length,
    leakPct: Math.round((10000 * leaked.length) / corpus.secretCount) / 100,
    cleanLines: r.cleanLines, lookalikeLines: r.lookalikeLines, changedCleanLines: r.changedClean.length, changedLookalikes: r.changedLookalikes.length,
    cleanLinesChangedPct: Math.round(cleanLinesChangedPct * 10000) / 10000, documentsRealigned: r.realigned,
    formatsWithLeaks: Object.keys(leaksByFormat).length,
    leaksByFormat: Object.fromEntries(Object.entries(leaksByFormat).map(([f, n]) => [f, `${n}/${plantedByFormat[f]}`])),
    leaksBySyntax: countBy(leaked, 'syntax'),
    changedLookalikesByKind: countBy(r.changedLookalikes, 'kind'),
    leakExamples: r.leaks.slice(0, 40).map((l) => `${l.format} (${l.syntax}): ${l.line}`),
    partialExamples: r.partial.slice(0, 15).map((l) => `${l.format} (${l.syntax}): ${l.after}`),
    changedExamples: [...r.changedLookalikes.slice(0, 25), ...r.changedClean.slice(0, 10)],
  },
});
