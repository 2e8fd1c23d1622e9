// glob-vs-ripgrep: the glob tool (caps raised so it returns every match, newest-first ordering
// included) against `rg --files -g '*.ts'` run directly, on a generated tree of > 20,000 files with
// .gitignore files (root and nested) and ignored folders. Same ignore rules on both sides: rg gets
// --hidden (glob matches dotfiles) and --no-require-git (the corpus is not a git repository), and
// the corpus ignores folders only, never .ts files by name (rg's -g whitelist overrides .gitignore
// for the files it names). Both sides must return the same set of paths. Goal: ratio <= 1.0.
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
const { createGlobTool } = require(path.join(FS, 'tools', 'glob.js'));
const { walk } = require(path.join(FS, 'walk.js'));
const { rulesAbove } = require(path.join(FS, 'ignore-rules.js'));

const CORPUS = path.join(here, '.corpus', 'glob-tree');
const VERSION = 'glob-tree v1';
const RUNS = 7;


/** A monorepo-like tree: packages with src/test/docs, dotfolders, and ignored build output and node_modules. */
function generate() {
  const marker = path.join(CORPUS, '.corpus-version');
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === VERSION) return;
  fs.rmSync(CORPUS, { recursive: true, force: true });
  let n = 0;
  const put = (rel, content = '') => {
    const abs = path.join(CORPUS, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
    n++;
  };
  put('.gitignore', 'node_modules/\ndist/\ncoverage/\n*.log\n.cache/\n');
  put('.github/workflows/ci.yml', 'on: push\n');
  put('.vscode/settings.ts', 'export {}\n');
  const exts = ['.ts', '.ts', '.ts', '.tsx', '.js', '.json', '.md', '.css'];
  for (let p = 0; p < 46; p++) {
    const pkg = `packages/pkg-${p}`;
    put(`${pkg}/package.json`, '{}\n');
    put(`${pkg}/.gitignore`, 'generated/\ntmp/\n');
    for (let d = 0; d < 12; d++) {
      for (let s = 0; s < 4; s++) {
        for (let f = 0; f < 9; f++) put(`${pkg}/src/mod${d}/sub${s}/file${f}${exts[(p + d + s + f) % exts.length]}`, `export const v${f} = ${f};\n`);
      }
      put(`${pkg}/test/mod${d}.test.ts`, 'test\n');
    }
    for (let g = 0; g < 30; g++) put(`${pkg}/generated/gen${g}.ts`, 'gen\n');
    for (let g = 0; g < 30; g++) put(`${pkg}/dist/out${g}.js`, 'out\n');
    put(`${pkg}/debug.log`, 'log\n');
    put(`${pkg}/docs/readme.md`, '# doc\n');
  }
  for (let m = 0; m < 150; m++) for (let f = 0; f < 20; f++) put(`node_modules/dep-${m}/lib/f${f}.${f % 2 ? 'js' : 'd.ts'}`, 'x\n');
  fs.writeFileSync(marker, VERSION);
  console.log(`generated ${n} files under ${path.relative(process.cwd(), CORPUS)}`);
}

function countFiles(dir) {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? countFiles(path.join(dir, e.name)) : 1;
  return n;
}

function runRg(rg) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(rg, ['--files', '--hidden', '--no-require-git', '-g', '*.ts'], { cwd: CORPUS });
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`rg exited ${code}`));
      else resolve({ ms, files: Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean) });
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
const tool = createGlobTool({ guard, fs: wsFs, reviewer: { review: async () => [] } });
const ctx = () => ({ sessionKey: 'bench', agentId: 'bench', channel: 'bench', peerKind: 'direct', subagentDepth: 0, isOwner: true,
  signal: new AbortController().signal, deadline: Date.now() + 600_000, workspaceTrusted: true });

async function runGlob() {
  const t0 = process.hrtime.bigint();
  const r = await tool.execute({ pattern: '**/*.ts', limit: 1e9 }, ctx());
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.isError) throw new Error(r.forLLM);
  return { ms, files: r.details.files };
}

/** The walk alone (no mtime ordering), for the record: NodeWorkspaceFs.readDirectories, guard.isDenied, .gitignore rules. */
async function runWalk() {
  const { rules } = await rulesAbove(wsFs, root, '', path.sep);
  const re = /^(?:.*\/)?[^/]*\.ts$/;
  let count = 0;
  const t0 = process.hrtime.bigint();
  await walk({ fs: wsFs, guard, base: root, baseRootRel: '', ignore: rules, accept: (rel) => re.test(rel), onFile: () => { count++; } });
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, count };
}

/** The newest-first ordering's share: one lstat per match, through the port's batch method. */
async function runStats(files) {
  const abs = files.map((f) => path.join(root, f));
  const t0 = process.hrtime.bigint();
  await wsFs.statMany(abs);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

// Warm the page cache and both code paths, and check both sides agree on the answer.
const first = await runGlob();
const firstRg = await runRg(rg);
const a = [...first.files].sort();
const b = firstRg.files.map((f) => f.split(path.sep).join('/')).sort();
if (a.length !== b.length || a.some((f, i) => f !== b[i])) {
  const onlyGlob = a.filter((f) => !b.includes(f)).slice(0, 5);
  const onlyRg = b.filter((f) => !a.includes(f)).slice(0, 5);
  console.error(`result sets differ: glob ${a.length}, rg ${b.length}; only glob: ${onlyGlob}; only rg: ${onlyRg}`);
  process.exit(1);
}
await runWalk();

const globMs = [], rgMs = [], walkMs = [], statMs = [];
for (let i = 0; i < RUNS; i++) {
  globMs.push((await runGlob()).ms);
  rgMs.push((await runRg(rg)).ms);
}
// The breakdown, in its own loop so its garbage does not land in the timed glob runs.
for (let i = 0; i < RUNS; i++) {
  walkMs.push((await runWalk()).ms);
  statMs.push(await runStats(a));
}
const value = median(globMs);
const ref = median(rgMs);
record({
  name: 'glob-vs-ripgrep', unit: 'ms', value, reference: `${rgName} --files --hidden --no-require-git -g '*.ts' (spawned from node)`, referenceValue: ref,
  goal: '<= 1.0x the rg process wall time', pass: value / ref <= 1.0, runs: RUNS, statistic: 'median', loadBefore,
  corpus: `${countFiles(CORPUS)} files generated in bench/.corpus/glob-tree (root + nested .gitignore, ignored node_modules/dist/generated), ${a.length} matches of **/*.ts`,
  extra: { matches: a.length, walkOnlyMedianMs: median(walkMs), statManyMedianMs: median(statMs), globRuns: globMs.map(Math.round), rgRuns: rgMs.map(Math.round), walkRuns: walkMs.map(Math.round), cores: os.cpus().length },
});
