// grep-vs-ripgrep: the grep tool (caps raised so it returns every match) against the same ripgrep
// binary run directly with the tool's own command line (plain records: path, NUL, line number,
// column, text), spawned from node with stdout drained and discarded (a pipe, not /dev/null: rg
// notices /dev/null and stops at the first match). Median of RUNS interleaved runs, after a warm-up that also
// checks both sides find the same number of matches. The tool splits a directory search over one rg
// process per idle core (ripgrep-shards.ts: --sort path keeps one rg on one thread); how many each
// timed run used is recorded beside it (toolProcesses), since on a busy machine it uses one.
//   grep-vs-ripgrep      a search with ~800 matches, goal <= 1.15x
//   grep-vs-ripgrep-10k  a search with ~10,000 matches, goal <= 1.3x
// Corpus: bench/.corpus/grep-tree, generated once (deterministic: seeded PRNG, version marker), a
// monorepo-like tree of ~22,000 files of TypeScript-like source (~1 KB each) with root and nested
// .gitignore files and ignored dist/, generated/ and node_modules/ folders that also hold matches.
// The glob benchmark's corpus (bench/.corpus/glob-tree) is not reused: its files hold one 20-byte
// line each, which measures directory walking rather than searching.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { median, record } from './lib/record.mjs';
import { findRipgrep } from './lib/ripgrep.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const FS = path.join(here, '..', process.env.PINCER_OUT ?? 'out', 'src', 'core', 'fs');
const { NodeWorkspaceFs } = require(path.join(FS, 'node-fs.js'));
const { PathGuard, DEFAULT_DENY_PATHS } = require(path.join(FS, 'path-guard.js'));
const { createGrepTool } = require(path.join(FS, 'tools', 'grep.js'));
const { ripgrepArgs } = require(path.join(FS, 'ripgrep-args.js'));
const CORPUS = path.join(here, '.corpus', 'grep-tree');
const VERSION = 'grep-tree v2';
const RUNS = 7;


function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['value', 'result', 'index', 'config', 'handler', 'options', 'buffer', 'state', 'items', 'context', 'request', 'response', 'cache', 'token', 'stream'];

/** ~1 KB of plausible source; about 1 line in 600 is a TODO(perf), 1 in 42 a logger.debug call. */
function sourceFile(rand, id) {
  const w = () => WORDS[Math.floor(rand() * WORDS.length)];
  const lines = [`// module ${id}`, `import { ${w()}, ${w()} } from './${w()}';`, ''];
  const n = 18 + Math.floor(rand() * 10);
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.0017) lines.push(`  // TODO(perf): avoid copying ${w()} here`);
    else if (r < 0.0255) lines.push(`  logger.debug('${w()} changed', ${w()});`);
    else if (r < 0.3) lines.push(`export function ${w()}${i}(${w()}: number, ${w()}: string): number {`);
    else if (r < 0.6) lines.push(`  const ${w()}${i} = ${w()}.${w()}(${Math.floor(rand() * 1000)});`);
    else if (r < 0.85) lines.push(`  if (${w()} > ${Math.floor(rand() * 100)}) return ${w()};`);
    else lines.push('}');
  }
  return lines.join('\n') + '\n';
}

function generate() {
  const marker = path.join(CORPUS, '.corpus-version');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === VERSION) return;
  fs.rmSync(CORPUS, { recursive: true, force: true });
  const rand = mulberry32(20261122);
  let n = 0;
  const put = (rel, content) => {
    const abs = path.join(CORPUS, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
    n++;
  };
  put('.gitignore', 'node_modules/\ndist/\n*.log\n');
  put('.github/workflows/ci.yml', 'on: push\n');
  for (let p = 0; p < 40; p++) {
    const pkg = `packages/pkg-${p}`;
    put(`${pkg}/package.json`, `{ "name": "pkg-${p}" }\n`);
    put(`${pkg}/.gitignore`, 'generated/\n');
    for (let d = 0; d < 10; d++) {
      for (let s = 0; s < 5; s++) for (let f = 0; f < 9; f++) put(`${pkg}/src/mod${d}/sub${s}/file${f}.ts`, sourceFile(rand, `${p}/${d}/${s}/${f}`));
      put(`${pkg}/test/mod${d}.test.ts`, sourceFile(rand, `test ${p}/${d}`));
    }
    for (let g = 0; g < 20; g++) put(`${pkg}/generated/gen${g}.ts`, sourceFile(rand, `gen ${p}/${g}`));
    for (let g = 0; g < 20; g++) put(`${pkg}/dist/out${g}.js`, sourceFile(rand, `dist ${p}/${g}`));
    put(`${pkg}/debug.log`, 'logger.debug TODO(perf)\n');
  }
  for (let m = 0; m < 60; m++) for (let f = 0; f < 20; f++) put(`node_modules/dep-${m}/lib/f${f}.js`, sourceFile(rand, `dep ${m}/${f}`));
  fs.writeFileSync(marker, VERSION);
  console.log(`generated ${n} files under ${path.relative(process.cwd(), CORPUS)}`);
}

function countFiles(dir) {
  let n = 0;
  let bytes = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      const sub = countFiles(p);
      n += sub.n;
      bytes += sub.bytes;
    } else {
      n++;
      bytes += fs.statSync(p).size;
    }
  }
  return { n, bytes };
}

/** rg with the tool's own flags; stdout read and thrown away. */
function runRg(rg, args) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(rg, args, { cwd: CORPUS, stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    child.stdout.on('data', (c) => {
      for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`rg exited ${code}`));
      else resolve({ ms, matches: lines });
    });
  });
}

generate();
const loadBefore = os.loadavg();
const [rg, rgName] = findRipgrep();
if (!rg) { console.error('no ripgrep binary found'); process.exit(1); }

const root = fs.realpathSync(CORPUS);
const wsFs = new NodeWorkspaceFs();
const guard = new PathGuard({ roots: [root], workspaceOnly: true, allowPaths: [], denyPaths: [...DEFAULT_DENY_PATHS], alwaysDeny: [], home: os.homedir() });
const tool = createGrepTool({ guard, fs: wsFs, reviewer: { review: async () => [] } }, { rgPath: rg, denyPaths: [...DEFAULT_DENY_PATHS] });
// For the record only: the search split over one rg per core whatever the load (busy or not).
const splitTool = createGrepTool({ guard, fs: wsFs, reviewer: { review: async () => [] } }, { rgPath: rg, denyPaths: [...DEFAULT_DENY_PATHS], processes: os.cpus().length });
const ctx = () => ({ sessionKey: 'bench', agentId: 'bench', channel: 'bench', peerKind: 'direct', subagentDepth: 0, isOwner: true,
  signal: new AbortController().signal, deadline: Date.now() + 600_000, workspaceTrusted: true });
const RAISED = { limit: 100_000, maxLineChars: 1_000_000, maxBytes: 50_000_000 };

async function runTool(pattern, t = tool) {
  const t0 = process.hrtime.bigint();
  const r = await t.execute({ pattern, ...RAISED }, ctx());
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.isError || r.details.truncated) throw new Error(r.forLLM.slice(0, 500));
  return { ms, matches: r.details.matches, processes: r.details.rgProcesses ?? 1 };
}

const QUERY = { literal: false, ignoreCase: false, before: 0, after: 0, includeIgnored: false };

async function measure(pattern) {
  const args = ripgrepArgs({ query: { ...QUERY, pattern }, target: '.', denyGlobs: ['!**/.git'] });
  const warmTool = await runTool(pattern);
  const warmRg = await runRg(rg, args);
  const warmSplit = await runTool(pattern, splitTool);
  if (warmTool.matches !== warmRg.matches || warmSplit.matches !== warmRg.matches) {
    console.error(`match counts differ for ${pattern}: tool ${warmTool.matches}, split ${warmSplit.matches}, rg ${warmRg.matches}`);
    process.exit(1);
  }
  // For the record only: what --sort path (deterministic order; rg then searches on one thread) costs.
  const unsorted = args.filter((a, i) => a !== '--sort' && args[i - 1] !== '--sort');
  const toolMs = [], rgMs = [], unsortedMs = [], toolProcesses = [], splitMs = [];
  for (let i = 0; i < RUNS; i++) {
    const t = await runTool(pattern);
    toolMs.push(t.ms);
    toolProcesses.push(t.processes);
    rgMs.push((await runRg(rg, args)).ms);
    unsortedMs.push((await runRg(rg, unsorted)).ms);
    splitMs.push((await runTool(pattern, splitTool)).ms);
  }
  return { matches: warmTool.matches, args, toolMs, rgMs, unsortedMs, toolProcesses, splitMs };
}

const size = countFiles(CORPUS);
const corpus = `${size.n} files, ${(size.bytes / 1e6).toFixed(1)} MB generated in bench/.corpus/grep-tree (TypeScript-like source, root + nested .gitignore, ignored node_modules/dist/generated holding matches too)`;
for (const [name, pattern, goal, limit] of [['grep-vs-ripgrep', 'TODO\\((perf|speed)\\)', '<= 1.15x', 1.15], ['grep-vs-ripgrep-10k', 'logger\\.debug\\(', '<= 1.3x', 1.3]]) {
  const m = await measure(pattern);
  const value = median(m.toolMs);
  const ref = median(m.rgMs);
  record({
    name, unit: 'ms', value, reference: `${rgName} ${m.args.join(' ')} (spawned from node, output drained)`, referenceValue: ref,
    goal: `${goal} the rg process wall time`, pass: value / ref <= limit, runs: RUNS, statistic: 'median', corpus, loadBefore,
    extra: { pattern, matches: m.matches, toolRuns: m.toolMs.map((x) => Math.round(x)), toolProcesses: m.toolProcesses, rgRuns: m.rgMs.map((x) => Math.round(x)),
      rgWithoutSortMedianMs: median(m.unsortedMs), splitOverAllCoresMedianMs: median(m.splitMs), splitRuns: m.splitMs.map((x) => Math.round(x)), cores: os.cpus().length },
  });
}
