// Shared helpers for benchmarks: statistics and the one-JSON-file-per-figure record (format in DESIGN.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'results');

export function median(xs) { return percentile(xs, 50); }

export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}

const round = (x) => (Number.isFinite(x) ? Math.round(x * 1000) / 1000 : x);

/**
 * Writes bench/results/<name>.json and prints one line.
 * goal: a string for the record; pass: whether it holds (computed by the caller).
 * loadBefore: os.loadavg() taken when the measuring began (the load when recording is added), so a
 * figure from a busy machine can be told apart from a quiet one.
 */
export function record({ name, unit, value, reference = null, referenceValue = null, goal, pass, runs, statistic, corpus, extra, loadBefore }) {
  const ratio = referenceValue ? round(value / referenceValue) : null;
  const load = { ...(loadBefore ? { before: loadBefore.map(round) } : {}), after: os.loadavg().map(round), cores: os.cpus().length };
  const rec = { name, unit, value: round(value), reference, referenceValue: round(referenceValue), ratio, goal, pass, runs, statistic, corpus,
    date: new Date().toISOString().slice(0, 10), node: process.version, loadavg: load, ...(extra ? { extra } : {}) };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, `${name}.json`), JSON.stringify(rec, null, 2) + '\n');
  console.log(`${pass ? 'PASS' : 'MISS'} ${name}: ${rec.value} ${unit}${reference ? ` (reference ${reference}: ${rec.referenceValue}, ratio ${ratio})` : ''} goal ${goal} (load ${load.after.join(' ')})`);
  return rec;
}
