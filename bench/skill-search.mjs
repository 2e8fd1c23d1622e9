// skill-search-1k: skill_search over 1,000 skills on disk (SKILL.md folders with generated names,
// descriptions and ~1 KB of instructions from a seeded vocabulary), each query a whole call through
// Registry.execute, as a model makes it. Reference, in the same run: a bare scan of the same skills
// for the query's words with String.includes (no ranking, no pipeline) — the floor of looking at
// every skill at all. Goal: p95 ≤ 5 ms. The cold read of the 1,000 folders is recorded beside it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMPILED = path.join(ROOT, process.env.PINCER_OUT ?? 'out');
const { PincerRuntime } = require(path.join(COMPILED, 'src/core/runtime.js'));
const { readConfig } = require(path.join(COMPILED, 'src/core/config.js'));
const { SkillCatalog } = require(path.join(COMPILED, 'src/core/skills/skill-catalog.js'));
const { createSkillTools } = require(path.join(COMPILED, 'src/core/skills/skill-tools.js'));
const { rng } = require(path.join(COMPILED, 'test/support/rng.js'));

const SKILLS = 1000;
const QUERIES = 500;
const WARMUP = 50;
const random = rng(18);
const pick = (xs) => xs[Math.floor(random() * xs.length)];
// A vocabulary shaped like real skills: verbs, objects, tools and filler words, so terms are shared
// across many skills (as "file", "test" or "git" are) and BM25's document frequencies matter.
const VERBS = ['write', 'review', 'fill', 'convert', 'deploy', 'migrate', 'summarise', 'check', 'format', 'release', 'debug', 'profile', 'translate', 'audit', 'package'];
const OBJECTS = ['pdf', 'form', 'changelog', 'schema', 'database', 'invoice', 'spreadsheet', 'docker', 'image', 'api', 'endpoint', 'test', 'commit', 'branch', 'diagram', 'report', 'slide', 'contract', 'budget', 'log'];
const TOOLS = ['git', 'npm', 'python', 'kubectl', 'terraform', 'jq', 'ffmpeg', 'pandoc', 'sqlite', 'make', 'cargo', 'gradle'];
const FILLER = 'the a of to and in for with then each when if before after use run read open save keep every file step check result output'.split(' ');
const words = (n, pools) => Array.from({ length: n }, () => pick(pick(pools))).join(' ');

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-bench-skills-'));
const skillTexts = [];
try {
  for (let i = 0; i < SKILLS; i++) {
    const name = `${pick(VERBS)}-${pick(OBJECTS)}-${i}`;
    const description = `${pick(VERBS)} ${pick(OBJECTS)} files with ${pick(TOOLS)}. ${words(12, [FILLER, OBJECTS, VERBS])}.`;
    const body = Array.from({ length: 8 }, () => `${words(20, [FILLER, FILLER, OBJECTS, VERBS, TOOLS])}.`).join('\n\n');
    const dir = path.join(home, '.pincer', 'skills', name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
    skillTexts.push(`${name}\n${description}\n${body}`.toLowerCase());
  }
  const queries = Array.from({ length: QUERIES + WARMUP }, () => `${pick(VERBS)} ${pick(OBJECTS)} ${random() < 0.5 ? pick(TOOLS) : ''}`.trim());

  const loadBefore = os.loadavg();
  const settings = { 'tools.profile': 'full', 'rateLimit.enabled': false, 'loopDetection.enabled': false };
  const rt = new PincerRuntime({ config: readConfig((k) => settings[k]) });
  const catalog = new SkillCatalog({ folders: () => [], home, trusted: () => true });
  const t0 = performance.now();
  const found = catalog.current().skills.length;
  const coldReadMs = performance.now() - t0;
  if (found !== SKILLS) throw new Error(`found ${found} skills, expected ${SKILLS}: ${catalog.current().problems[0]}`);
  for (const t of createSkillTools({ catalog, registry: () => rt.registry, home, files: () => ({ denyPaths: [], alwaysDeny: [], home }), maxChars: () => 50_000 })) rt.registry.register(t);
  const ctx = rt.context({ channel: 'bench', sessionKey: 'bench' });

  const timed = [];
  const scans = [];
  // CPU time of each call (this process): a busy machine stretches wall times far more than it.
  const cpu = [];
  let hits = 0;
  for (const [i, q] of queries.entries()) {
    const a = performance.now();
    const cpu0 = process.cpuUsage();
    const r = await rt.registry.execute('skill_search', { query: q, limit: 5 }, ctx);
    const used = process.cpuUsage(cpu0);
    const b = performance.now();
    const terms = q.split(' ');
    const scanned = skillTexts.filter((t) => terms.some((w) => t.includes(w))).length;
    const c = performance.now();
    if (r.isError) throw new Error(r.forLLM);
    if (i < WARMUP) continue;
    hits += r.details.found.length > 0 && scanned > 0 ? 1 : 0;
    timed.push(b - a);
    scans.push(c - b);
    cpu.push((used.user + used.system) / 1000);
  }
  const p95 = percentile(timed, 95);
  record({
    name: 'skill-search-1k', unit: 'ms', value: p95, reference: 'String.includes scan of the same 1,000 skills (no ranking, no pipeline), p95', referenceValue: percentile(scans, 95),
    goal: 'p95 <= 5 ms', pass: p95 <= 5, runs: timed.length, statistic: 'p95', loadBefore,
    corpus: `${SKILLS} SKILL.md folders, ~1 KB of instructions each, seeded vocabulary; ${QUERIES} 2-3 word queries, limit 5`,
    extra: { p50Ms: percentile(timed, 50), cpuP50Ms: percentile(cpu, 50), cpuP95Ms: percentile(cpu, 95), maxMs: Math.max(...timed), queriesWithHits: hits, coldReadOf1000SkillsMs: coldReadMs },
  });
} finally {
  fs.rmSync(home, { recursive: true, force: true });
}
