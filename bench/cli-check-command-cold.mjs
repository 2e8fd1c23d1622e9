// cli-check-command-cold: `pincer check-command 'git status' --json` as a whole process (the built
// dist/cli.js: start node, load the bundle, load the shell parser, judge, print, exit), against
// `node -e 0` in the same run, interleaved. Scripts, CI jobs and other agents' hooks pay this once per
// command. CPU time (user + system) comes from /usr/bin/time when it is installed. dist/cli.js loads
// dist/cli-main.js through V8's code cache in the person's cache directory: here a fresh temporary
// XDG_CACHE_HOME that the warm-up runs fill, as a person's first commands would.
// Goal: median wall time <= 200 ms.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile, record } from './lib/record.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// The build to measure: dist/ by default, or one of one's own (`node esbuild.mjs --outdir .out-x/dist`, PINCER_DIST=.out-x/dist).
const dist = path.resolve(root, process.env.PINCER_DIST ?? 'dist');
const cli = path.join(dist, 'cli.js');
if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first.`);

const N = Number(process.env.CLI_COLD_RUNS || 15);
const WARMUP = 2;
const timeBin = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const cwd = os.tmpdir();
const cacheHome = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-bench-cache-'));
process.on('exit', () => fs.rmSync(cacheHome, { recursive: true, force: true }));
const compileCache = typeof (await import('node:module')).default.enableCompileCache === 'function';

/**
 * NODE_EXTRA_CA_CERTS makes Node 20 parse that certificate bundle before any script runs (about
 * 90 ms here, where every process gets it; Node 22 and later read it when TLS first needs it). Both
 * sides pay it, so the figure keeps it; the record also gives both sides without it.
 */
const extraCa = process.env.NODE_EXTRA_CA_CERTS;
const withoutExtraCa = { ...process.env };
delete withoutExtraCa.NODE_EXTRA_CA_CERTS;

/** One process: wall milliseconds, and CPU milliseconds when /usr/bin/time can tell. */
function run(args, expectCode, env = process.env) {
  const argv = timeBin ? [timeBin, '-f', 'PINCER_CPU %U %S', process.execPath, ...args] : [process.execPath, ...args];
  const t = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { cwd, encoding: 'utf8', env: { ...env, XDG_CACHE_HOME: cacheHome } });
  const wall = performance.now() - t;
  if (r.status !== expectCode) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const m = /PINCER_CPU ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined, out: r.stdout };
}

const check = () => run([cli, 'check-command', 'git status', '--json'], 0);
const bare = () => run(['-e', '0'], 0);

const first = JSON.parse(check().out);
if (first.decision !== 'allow') throw new Error(`git status was judged ${first.decision}, not allow`);
for (let i = 0; i < WARMUP; i++) { check(); bare(); }
const loadBefore = os.loadavg();
const c = [], b = [];
// Interleaved, so a noisy neighbour slows both sides alike.
for (let i = 0; i < N; i++) { c.push(check()); b.push(bare()); }

const cNoCa = [], bNoCa = [];
if (extraCa) for (let i = 0; i < N; i++) { cNoCa.push(run([cli, 'check-command', 'git status', '--json'], 0, withoutExtraCa)); bNoCa.push(run(['-e', '0'], 0, withoutExtraCa)); }

const value = median(c.map((x) => x.wall));
const referenceValue = median(b.map((x) => x.wall));
const cpu = (xs) => (timeBin ? median(xs.map((x) => x.cpu)) : null);
record({
  name: 'cli-check-command-cold', unit: 'ms', value, reference: 'node -e 0', referenceValue,
  goal: '<= 200 ms wall (median)', pass: value <= 200, runs: N, statistic: 'median', loadBefore,
  corpus: `dist/cli.js + dist/cli-main.js ${((fs.statSync(cli).size + fs.statSync(path.join(dist, 'cli-main.js')).size) / 1024).toFixed(0)} KB through V8's code cache (Node's compile cache for later bundles ${compileCache ? 'on' : 'not available: Node < 22.1'}); ${N} processes each side after ${WARMUP} warm-up, interleaved${extraCa ? '; NODE_EXTRA_CA_CERTS set (extra: both sides without it)' : ''}`,
  extra: {
    checkP90: percentile(c.map((x) => x.wall), 90), bareP90: percentile(b.map((x) => x.wall), 90), checkCpuMs: cpu(c), bareCpuMs: cpu(b),
    ...(extraCa ? { withoutNodeExtraCaCerts: { checkMs: median(cNoCa.map((x) => x.wall)), bareMs: median(bNoCa.map((x) => x.wall)), checkCpuMs: cpu(cNoCa), bareCpuMs: cpu(bNoCa) } } : {}),
  },
});
