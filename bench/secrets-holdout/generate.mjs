// The held-out secrets corpus: realistic tool output with true secrets planted in it (every token
// format in every keyed syntax, bare where the format has a prefix, plus private keys, JWTs, URL and
// command-line credentials and credential files) and look-alikes that must stay untouched. Seeded
// and deterministic. Written by the outside red team without reading the scrubber or its tests.
//   node bench/secrets-holdout/generate.mjs [outDir]   writes corpus.txt + manifest.json
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanBlocks } from './clean-output.mjs';
import { FORMATS } from './formats.mjs';
import { lookalikes } from './lookalikes.mjs';
import { createRandom } from './random.mjs';
import { GENERIC_FORMATS, structuralPlants } from './structural.mjs';
import { BARE_SYNTAXES, KEYED_SYNTAXES } from './syntaxes.mjs';

export const ALL_FORMATS = [...FORMATS, ...GENERIC_FORMATS];

function secretPlants(r) {
  const plants = [];
  for (const f of ALL_FORMATS) {
    for (const s of KEYED_SYNTAXES) {
      const v = f.gen(r);
      const needle = s.id === 'url-query' ? encodeURIComponent(v) : v;
      plants.push({ format: f.id, syntax: s.id, text: s.render(f.key, v, r), needles: [needle] });
    }
    if (!f.prefixed) continue;
    for (const s of BARE_SYNTAXES) {
      const v = f.gen(r);
      plants.push({ format: f.id, syntax: s.id, text: s.render(v, r), needles: [v] });
    }
  }
  const tokenOf = (id) => ALL_FORMATS.find((f) => f.id === id).gen(r);
  return [...plants, ...structuralPlants(r, tokenOf)];
}

/**
 * Builds the corpus: documents of about `docBytes` each, every one a mix of clean output blocks,
 * planted secrets and look-alikes. Each item records where its lines sit in its document.
 */
export function buildCorpus({ seed = 7, cleanBytes = 4 * 1024 * 1024, docBytes = 64 * 1024 } = {}) {
  const r = createRandom(seed);
  const specials = [
    ...secretPlants(r).map((p) => ({ type: 'secret', ...p })),
    ...lookalikes(r).map((l) => ({ type: 'lookalike', kind: l.kind, text: l.text })),
  ];
  for (let i = specials.length - 1; i > 0; i--) { const j = r.int(i + 1); [specials[i], specials[j]] = [specials[j], specials[i]]; }
  const blocks = [...cleanBlocks(r, cleanBytes)];
  const perBlock = specials.length / blocks.length;
  const documents = [];
  let doc = { lines: [], items: [], bytes: 0 };
  const push = (item, lines) => {
    doc.items.push({ ...item, start: doc.lines.length, count: lines.length });
    for (const l of lines) { doc.lines.push(l); doc.bytes += l.length + 1; }
    if (doc.bytes >= docBytes) { documents.push(doc); doc = { lines: [], items: [], bytes: 0 }; }
  };
  let next = 0;
  blocks.forEach((lines, i) => {
    push({ type: 'clean' }, lines);
    const upTo = Math.min(specials.length, Math.round((i + 1) * perBlock));
    for (; next < upTo; next++) push(specials[next], specials[next].text.split('\n'));
  });
  for (; next < specials.length; next++) push(specials[next], specials[next].text.split('\n'));
  if (doc.lines.length) documents.push(doc);
  const secrets = specials.filter((s) => s.type === 'secret');
  return {
    seed,
    documents,
    formatCount: new Set(secrets.map((s) => s.format)).size,
    syntaxCount: new Set(secrets.map((s) => s.syntax)).size,
    secretCount: secrets.length,
    lookalikeCount: specials.length - secrets.length,
  };
}

/** The tail of a needle that, if it survives, still hands most of the secret over. */
const tailOf = (needle) => (needle.length >= 16 ? needle.slice(Math.floor(needle.length / 2)) : null);

/**
 * Runs `scrub` over every document and classifies each item: a secret leaks when a needle survives
 * whole, or partly when its second half does; a clean or look-alike line counts when it changed.
 */
export function evaluate(corpus, scrub) {
  const result = { leaks: [], partial: [], changedClean: [], changedLookalikes: [], cleanLines: 0, lookalikeLines: 0, realigned: 0 };
  for (const doc of corpus.documents) {
    let out = scrub(doc.lines.join('\n')).split('\n');
    const perItem = out.length !== doc.lines.length;
    if (perItem) result.realigned++;
    for (const item of doc.items) {
      const before = doc.lines.slice(item.start, item.start + item.count);
      const after = perItem ? scrub(before.join('\n')).split('\n') : out.slice(item.start, item.start + item.count);
      const afterText = after.join('\n');
      if (item.type === 'secret') {
        const whole = item.needles.filter((n) => afterText.includes(n));
        if (whole.length) result.leaks.push({ format: item.format, syntax: item.syntax, line: before.join('\\n').slice(0, 160) });
        else if (item.needles.some((n) => tailOf(n) && afterText.includes(tailOf(n)))) result.partial.push({ format: item.format, syntax: item.syntax, after: afterText.slice(0, 160) });
        continue;
      }
      const changed = before.map((l, i) => [l, after[i]]).filter(([a, b]) => a !== b);
      if (item.type === 'lookalike') {
        result.lookalikeLines += before.length;
        if (changed.length) result.changedLookalikes.push({ kind: item.kind, before: before.join('\\n').slice(0, 120), after: afterText.slice(0, 120) });
      } else {
        result.cleanLines += before.length;
        for (const [a, b] of changed) result.changedClean.push({ before: a.slice(0, 120), after: String(b).slice(0, 120) });
      }
    }
    out = null;
  }
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ?? path.join(os.tmpdir(), 'pincer-secrets-holdout');
  const corpus = buildCorpus();
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'corpus.txt'), corpus.documents.map((d) => d.lines.join('\n')).join('\n'));
  const manifest = corpus.documents.flatMap((d, di) => d.items.filter((i) => i.type !== 'clean').map((i) => ({ doc: di, start: i.start, count: i.count, type: i.type, format: i.format, syntax: i.syntax, kind: i.kind, needles: i.needles })));
  fs.writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify({ seed: corpus.seed, formats: corpus.formatCount, syntaxes: corpus.syntaxCount, secrets: corpus.secretCount, lookalikes: corpus.lookalikeCount, items: manifest }, null, 1));
  console.log(`wrote ${outDir}: ${corpus.secretCount} secrets (${corpus.formatCount} formats, ${corpus.syntaxCount} syntaxes), ${corpus.lookalikeCount} look-alikes, ${corpus.documents.length} documents`);
}
