// A realistic, deterministic memory corpus for the memory benchmarks: markdown documents with a
// title, sections and subsections, paragraphs, lists and the odd code block, written in a
// vocabulary whose word frequencies follow Zipf's law (a few function words everywhere, a long
// tail of rare terms), so FTS doclists have the shapes real notes give them. Each section body is
// sized so the chunker makes about one ~530-character chunk of it.
//
// generateCorpus({ chunks, seed }) → { docs: [{ path, content }], sections, queries(n, terms) }
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The tests' seeded PRNG (compiled to out/ by `tsc -p .`), so every run indexes the same text.
const require = createRequire(import.meta.url);
const { rng } = require(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', process.env.PINCER_OUT ?? 'out', 'test', 'support', 'rng.js'));

const FUNCTION_WORDS = ('the of and to a in is that for it as was with be by on not he this are or his from at which but have an ' +
  'they you were her she there been one all we their has would when if so what no more out do up about them its then than into ' +
  'could only other new some these two may first any like now over such our very after also did many most where before through').split(' ');
const DOMAIN_WORDS = ('deploy release staging server database migration schema backup restore invoice customer meeting budget ' +
  'roadmap deadline review sprint ticket incident outage latency cache index query token session agent memory project design ' +
  'feedback contract vendor payment travel flight hotel doctor appointment birthday recipe garden train kernel compiler ' +
  'pipeline dashboard metric alert rollback branch merge commit pull request').split(' ');
const SYLLABLES = ('ka lo mi ren tu sa vor el in dra po qui ne ta ber mon gal fi ush tor pen ly za ro ve an cu dex mar ' +
  'sil ob tri nor ap hel yu ko ra').split(' ');

/** A vocabulary: function words first, then domain words, then invented words, ranked for Zipf. */
function vocabulary(size, random) {
  const words = [...FUNCTION_WORDS, ...DOMAIN_WORDS];
  const seen = new Set(words);
  while (words.length < size) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}

/** Samples ranks 0..n-1 with P(r) ∝ 1/(r+1)^s by inverting a precomputed CDF. */
function zipfSampler(n, s, random) {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) {
    sum += 1 / Math.pow(r + 1, s);
    cdf[r] = sum;
  }
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export function generateCorpus({ chunks = 50_000, seed = 20261122, vocabularySize = 30_000, sectionsPerDoc = 25 } = {}) {
  const random = rng(seed);
  const words = vocabulary(vocabularySize, random);
  const pick = zipfSampler(words.length, 1.07, random);
  const word = () => words[pick()];
  const cap = (w) => w[0].toUpperCase() + w.slice(1);
  const sentence = () => {
    const n = 6 + Math.floor(random() * 12);
    const ws = [];
    for (let i = 0; i < n; i++) ws.push(word());
    return `${cap(ws.join(' '))}.`;
  };
  const title = (n) => Array.from({ length: n }, () => cap(words[FUNCTION_WORDS.length + Math.floor(random() * 3000)])).join(' ');
  const body = (target) => {
    let out = '';
    const kind = random();
    if (kind < 0.15) {
      while (out.length < target) out += `- ${sentence()}\n`;
    } else if (kind < 0.2) {
      out += `${sentence()}\n\n\`\`\`ts\n`;
      while (out.length < target - 40) out += `const ${word()} = ${word()}(${word()}, ${Math.floor(random() * 100)});\n`;
      out += '```\n';
    } else {
      let para = 0;
      let breakAt = 180 + Math.floor(random() * 200);
      while (out.length < target) {
        const s = sentence();
        out += para ? ` ${s}` : s;
        para += s.length + 1;
        if (para >= breakAt && out.length < target) {
          out += '\n\n';
          para = 0;
          breakAt = 180 + Math.floor(random() * 200);
        }
      }
    }
    return out.trimEnd();
  };

  const docs = [];
  let made = 0;
  for (let d = 0; made < chunks; d++) {
    const n = Math.min(sectionsPerDoc, chunks - made);
    let content = `# ${title(3)}\n\n`;
    for (let s = 0; s < n; s++) {
      const sub = s % 4 === 3;
      content += `${sub ? '###' : '##'} ${title(2 + (s % 2))}\n\n${body(420 + Math.floor(random() * 90))}\n\n`;
    }
    const folder = ['projects', 'people', 'journal', 'ops', 'reading'][d % 5];
    docs.push({ path: d === 0 ? 'MEMORY.md' : `memory/${folder}/${String(d).padStart(5, '0')}-${words[FUNCTION_WORDS.length + (d % 500)]}.md`, content });
    made += n;
  }

  /**
   * n queries of `terms` words taken together from one random section of the corpus (so the AND
   * query has at least one hit), skipping function words, as a person would search.
   */
  const queries = (count, terms = 2, qseed = seed + 1) => {
    const r = rng(qseed);
    const out = [];
    while (out.length < count) {
      const doc = docs[Math.floor(r() * docs.length)].content;
      const at = Math.floor(r() * doc.length);
      const window = doc.slice(at, at + 400).toLowerCase().match(/[a-z]+/g) ?? [];
      const candidates = [...new Set(window.filter((w) => w.length > 3 && !FUNCTION_WORDS.includes(w)))];
      if (candidates.length < terms) continue;
      const chosen = [];
      while (chosen.length < terms) {
        const w = candidates[Math.floor(r() * candidates.length)];
        if (!chosen.includes(w)) chosen.push(w);
      }
      out.push(chosen.join(' '));
    }
    return out;
  };

  return { docs, sections: made, queries };
}
