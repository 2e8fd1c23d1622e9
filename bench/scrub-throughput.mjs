// Scrubber throughput: MB/s of Scrubber.scrub over 10 MB of mixed tool output (source code, logs,
// JSON, shell output, a sprinkling of secrets), median of several runs after warm-up. Reference in
// the same run: secretlint's recommended preset (a maintained scanner, in node_modules through
// @vscode/vsce) finding secrets in the same text — it only reports them, and knows far fewer formats.
// Beside it, the naive approach (each rule as its own global regex replace pass over the text) and
// the cold-start cost in fresh processes (load, construct, first scrub of a small text).
// Needs the compiled output (`npm run bench` compiles first; alone: `npx tsc -p .` then run this).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// The compiled output to measure: out/ by default, or a folder of one's own (PINCER_OUT=.out-x).
const outDir = path.join(root, process.env.PINCER_OUT ?? 'out');
const { Scrubber } = require(path.join(outDir, 'src/core/guard/scrubber.js'));
const { staticRules } = require(path.join(outDir, 'src/core/guard/scrub-patterns.js'));
const { combine } = require(path.join(outDir, 'src/core/guard/scrub-combine.js'));

const TARGET = 10 * 1024 * 1024;
const RUNS = 11;

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const hex = (n) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
const alnum = (n) => Array.from({ length: n }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(rand() * 62)]).join('');
const words = ['user', 'order', 'config', 'request', 'handler', 'session', 'payload', 'result', 'cache', 'item', 'token', 'client'];

const blocks = [
  () => `export async function load${pick(words)}(id: string, opts: Options = {}): Promise<${pick(words)}Result> {\n` +
    `  const token = await getToken(opts);\n  const res = await fetch(\`\${base}/api/${pick(words)}/\${id}\`, { headers: { Authorization: \`Bearer \${token}\` } });\n` +
    `  if (!res.ok) throw new HttpError(res.status, await res.text());\n  return (await res.json()) as ${pick(words)}Result;\n}\n`,
  () => `def ${pick(words)}_view(request, pk=None):\n    password = request.POST.get("password")\n    user = authenticate(username=request.user, password=password)\n    return JsonResponse({"ok": True, "id": ${Math.floor(rand() * 1e6)}})\n`,
  () => `func (s *Server) handle${pick(words)}(w http.ResponseWriter, r *http.Request) {\n\ttoken := r.Header.Get("Authorization")\n\tif token == "" {\n\t\thttp.Error(w, "unauthorized", 401)\n\t\treturn\n\t}\n}\n`,
  () => `2024-05-${10 + Math.floor(rand() * 19)}T12:${10 + Math.floor(rand() * 49)}:07.${Math.floor(rand() * 999)}Z INFO  [worker-${Math.floor(rand() * 8)}] processed ${pick(words)} id=${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)} in ${Math.floor(rand() * 900)}ms status=200\n`,
  () => `{"id":"${hex(24)}","type":"${pick(words)}","attributes":{"name":"${pick(words)} ${Math.floor(rand() * 100)}","created_at":"2024-01-02T03:04:05Z","tags":["a","b"],"count":${Math.floor(rand() * 1e4)}},"links":{"self":"https://api.example.com/v1/${pick(words)}/${hex(8)}"}}\n`,
  () => `commit ${hex(40)}\nAuthor: Dev ${pick(words)} <dev@example.com>\nDate:   Tue May 14 10:2${Math.floor(rand() * 9)}:00 2024 +0200\n\n    fix(${pick(words)}): handle empty response\n\n`,
  () => `"node_modules/${pick(words)}-lib": {\n  "version": "1.${Math.floor(rand() * 20)}.0",\n  "resolved": "https://registry.npmjs.org/${pick(words)}-lib/-/${pick(words)}-lib-1.0.0.tgz",\n  "integrity": "sha512-${alnum(86)}=="\n},\n`,
  () => `${pick(words)}-api-7d9f8c-x2v   1/1   Running   0   ${Math.floor(rand() * 60)}m   10.0.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)}   image@sha256:${hex(64)}\n`,
  () => `drwxr-xr-x  5 dev staff   160 May 14 10:21 ${pick(words)}\n-rw-r--r--  1 dev staff  ${Math.floor(rand() * 9e4)} May 14 10:21 ${pick(words)}.ts\n`,
  () => `export function ${pick(words)}List({ items, onSelect }: Props): JSX.Element {\n  const [filter, setFilter] = useState('');\n` +
    `  const visible = useMemo(() => items.filter((i) => i.name.includes(filter)), [items, filter]);\n` +
    `  return <ul className="list">{visible.map((i) => <li key={i.id} onClick={() => onSelect(i)}>{i.name}</li>)}</ul>;\n}\n`,
  () => `def summarize_${pick(words)}(rows: list[dict], limit: int = ${Math.floor(rand() * 100)}) -> dict:\n    totals = defaultdict(int)\n` +
    `    for row in rows[:limit]:\n        totals[row["kind"]] += row.get("count", 0)\n    return {"total": sum(totals.values()), "kinds": len(totals)}\n`,
  () => `@@ -${Math.floor(rand() * 300)},7 +${Math.floor(rand() * 300)},8 @@ export class ${pick(words)}Service {\n   private readonly cache = new Map<string, Entry>();\n` +
    `-  private ttl = 60_000;\n+  private ttl = 120_000;\n+  private hits = 0;\n   constructor(private readonly clock: Clock) {}\n`,
  () => `  ✔ ${pick(words)} handles an empty ${pick(words)} (${Math.floor(rand() * 40)}ms)\n  ✔ rejects a ${pick(words)} without id\n` +
    `  1) ${pick(words)} retries on timeout:\n     AssertionError: expected 3 to equal 2\n      at Context.<anonymous> (out/test/unit/${pick(words)}.test.js:${Math.floor(rand() * 200)}:14)\n`,
  () => `## ${pick(words)} settings\n\nThe ${pick(words)} module reads its options once at start-up. Set \`retries\` to a small number; ` +
    `a value of 0 disables retrying, and the default (3) is right for most setups. See the table below for the rest.\n\n`,
];
const secrets = [
  () => `OPENAI_API_KEY=sk-proj-${alnum(40)}\n`,
  () => `DATABASE_URL=postgres://app:${alnum(16)}@db.internal:5432/app\n`,
  () => `> Authorization: Bearer ${alnum(20)}.${alnum(30)}\n`,
  () => `  "password": "${alnum(14)}",\n`,
  () => `remote.origin.url=https://x-access-token:ghs_${alnum(36)}@github.com/acme/app.git\n`,
  () => `GET /download?X-Amz-Credential=AKIA${alnum(16).toUpperCase()}&X-Amz-Signature=${hex(64)}&page=2\n`,
];

function corpus() {
  const parts = [];
  let size = 0;
  while (size < TARGET) {
    const s = rand() < 0.02 ? pick(secrets)() : pick(blocks)();
    parts.push(s);
    size += s.length;
  }
  return parts.join('');
}

/** Wall-clock and process CPU time (user + system) of one call. */
function time(fn, arg) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const out = fn(arg);
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const c = process.cpuUsage(c0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000, out };
}

const text = corpus();
const mb = text.length / (1024 * 1024);
const scrubber = new Scrubber();
const combined = (t) => scrubber.scrub(t);

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
const runs = { combined: [], separate: [], combinedWall: [], separateWall: [], secretlint: [], secretlintWall: [] };
let secretlintFindings = null;
for (let i = 0; i < 2; i++) {
  combined(text);
  separate(text);
  if (secretlint) await secretlint.run(text);
}
let out = '';
for (let i = 0; i < RUNS; i++) {
  const c = time(combined, text);
  const s = time(separate, text);
  out = c.out;
  runs.combined.push(mb / (c.cpuMs / 1000));
  runs.separate.push(mb / (s.cpuMs / 1000));
  runs.combinedWall.push(mb / (c.wallMs / 1000));
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
// Scrubber, and its first scrub of a small tool result (package.json), which builds the pattern and
// has V8 compile it; median of COLD_RUNS processes.
const COLD_RUNS = 5;
const coldScript = `const t0 = performance.now();
const { Scrubber } = require(${JSON.stringify(path.join(outDir, 'src/core/guard/scrubber.js'))});
const t1 = performance.now();
const s = new Scrubber();
const t2 = performance.now();
s.scrub(require('node:fs').readFileSync(${JSON.stringify(path.join(root, 'package.json'))}, 'utf8'));
const t3 = performance.now();
process.stdout.write(JSON.stringify({ load: t1 - t0, construct: t2 - t1, firstScrub: t3 - t2 }));`;
const cold = [];
for (let i = 0; i < COLD_RUNS; i++) {
  const r = spawnSync(process.execPath, ['-e', coldScript], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cold run failed: ${r.stderr}`);
  cold.push(JSON.parse(r.stdout));
}
const coldMedian = (key) => Math.round(median(cold.map((c) => c[key])) * 100) / 100;

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
    separateWallRuns: round(runs.separateWall), cpuTimeMedian: Math.round(median(runs.combined)),
    separateCpuTimeMedian: Math.round(median(runs.separate)), cpuTimeRuns: round(runs.combined),
    coldLoadMs: coldMedian('load'), coldConstructMs: coldMedian('construct'), coldFirstScrubMs: coldMedian('firstScrub'),
  },
});
