// The exec judge: share of the hostile corpus denied or asked, share of the benign corpus denied
// (ask rate beside it), and the median time of parse + judge for a ~200-character command after
// warm-up, against the regex groups alone on the same string in the same run. `--speed` takes only
// the timing record (the corpus records stay as they are), `--corpora` only the corpus records (the
// timing record stays as it is: a timing wants a quiet machine). PINCER_OUT names the compiled output
// folder (default out/), so a helper can measure its own build.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, process.env.PINCER_OUT ?? 'out');
const EXEC = path.join(OUT, 'src', 'core', 'exec');
const SPEED_ONLY = process.argv.includes('--speed');
const CORPORA_ONLY = process.argv.includes('--corpora');
const { parseCommand } = require(path.join(EXEC, 'command-parse.js'));
const { judgeCommand, RULES } = require(path.join(EXEC, 'command-judge.js'));
const { unwrapInner } = require(path.join(EXEC, 'command-flow.js'));
const { viewOf } = require(path.join(EXEC, 'command-view.js'));
const { copyTree } = require(path.join(EXEC, 'command-syntax-node.js'));
const { dispatchOf } = require(path.join(EXEC, 'command-dispatch.js'));
const { plainTree } = require(path.join(EXEC, 'command-plain-tree.js'));
const { traitsOf } = require(path.join(EXEC, 'command-traits.js'));
const { DEFAULT_COMMAND_POLICY } = require(path.join(EXEC, 'command-policy.js'));
const { matchGroupPatterns } = require(path.join(EXEC, 'command-groups.js'));
const { bashParser } = require(path.join(EXEC, 'command-grammar.js'));
const { PathGuard, DEFAULT_DENY_PATHS } = require(path.join(OUT, 'src', 'core', 'fs', 'path-guard.js'));

const CORPUS = path.join(ROOT, 'test', 'unit', 'exec', 'corpus');
const lines = (name) => fs.readFileSync(path.join(CORPUS, `${name}.txt`), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-bench-exec-')));
const guard = new PathGuard({ roots: [root], workspaceOnly: true, allowPaths: [], denyPaths: [...DEFAULT_DENY_PATHS], alwaysDeny: [], home: os.homedir() });
const judge = async (c) => judgeCommand(await parseCommand(c), DEFAULT_COMMAND_POLICY, { cwd: root, guard });

try {
  if (!SPEED_ONLY) await corpora();
  if (!CORPORA_ONLY) await speed();
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}

async function corpora() {
  // Every corpus: the project's own and the two written from outside without reading the rules.
  const hostile = [...lines('hostile'), ...lines('hostile-classes')];
  const missed = [];
  for (const c of hostile) if ((await judge(c)).decision === 'allow') missed.push(c);
  const blocked = (100 * (hostile.length - missed.length)) / hostile.length;
  record({ name: 'exec-hostile-blocked', unit: '%', value: blocked, goal: '= 100', pass: blocked === 100, runs: 1, statistic: 'share denied or asked',
    corpus: `test/unit/exec/corpus/hostile.txt + hostile-classes.txt (${hostile.length} commands)`, extra: { missedCount: missed.length, missed } });

  const benign = [...lines('benign'), ...lines('benign-docs')];
  const denied = [];
  let asked = 0;
  for (const c of benign) {
    const v = await judge(c);
    if (v.decision === 'deny') denied.push(c);
    if (v.decision === 'ask') asked++;
  }
  const fp = (100 * denied.length) / benign.length;
  record({ name: 'exec-benign-false-positives', unit: '%', value: fp, goal: '<= 1', pass: fp <= 1, runs: 1, statistic: 'share denied',
    corpus: `test/unit/exec/corpus/benign.txt + benign-docs.txt (${benign.length} commands)`, extra: { askRate: Math.round((10000 * asked) / benign.length) / 100, asked, denied } });
}

async function speed() {
  // ~200 characters, a realistic compound command with a pipe, a redirect and a wrapper.
  const cmd = "cd packages/core && NODE_ENV=test timeout 120 npx mocha --reporter dot 'out/test/unit/**/*.test.js' 2>&1 | tee test-output.log | grep -E 'passing|failing|pending' ; git status --short | head -n 20";
  // Several rounds, each with its own median: the record is the median of the round medians, so
  // one round disturbed by another process cannot make the figure.
  const ROUNDS = 5;
  const PER_ROUND = 600;
  const N = ROUNDS * PER_ROUND;
  const WARMUP = 4000;
  const loadBefore = os.loadavg();
  // Warm-up: after 500 decisions the round medians were still falling (356 -> 286 us over the five
  // rounds, CPU per round 861 -> 306 us): the JIT was still compiling the judge's functions, and that
  // is start-up cost, not the steady price of a decision. Several thousand decisions let it settle.
  for (let i = 0; i < WARMUP; i++) await judge(cmd);
  const full = [];
  const roundMedians = [];
  // CPU time beside wall time: on a busy machine (other processes on both cores) the wall-clock
  // median includes time spent waiting for a core, the CPU time much less of it.
  const roundCpu = [];
  for (let r = 0; r < ROUNDS; r++) {
    const xs = [];
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < PER_ROUND; i++) {
      const t = performance.now();
      await judge(cmd);
      xs.push((performance.now() - t) * 1000);
    }
    const cpu = process.cpuUsage(cpu0);
    roundCpu.push((cpu.user + cpu.system) / PER_ROUND);
    roundMedians.push(median(xs));
    full.push(...xs);
  }
  const cpuUsPerDecision = Math.round(10 * median(roundCpu)) / 10;
  // Where the time goes: tree-sitter's own parse (the floor under parseCommand), the parser alone,
  // the judge without the path guard (writes checked lexically), and one resolve of the write target
  // (`tee test-output.log` after `cd packages/core`, neither of which exists: 3 missing levels) both
  // ways: resolveSync is what the judge uses, resolve (async) what the file tools use.
  const parsed = await parseCommand(cmd);
  const part = async (f) => { for (let i = 0; i < 300; i++) await f(); const xs = []; for (let i = 0; i < 1000; i++) { const t = performance.now(); await f(); xs.push((performance.now() - t) * 1000); } return median(xs); };
  const parser = await bashParser();
  const treeSitterOnly = await part(() => parser.parse(cmd).delete());
  const parseOnly = await part(() => parseCommand(cmd));
  const judgeNoGuard = await part(() => judgeCommand(parsed, DEFAULT_COMMAND_POLICY, { cwd: root }));
  const target = path.join(root, 'packages/core/test-output.log');
  const guardResolveSync = await part(() => { try { guard.resolveSync(target, 'write'); } catch { /* measured either way */ } });
  const guardResolve = await part(() => guard.resolve(target, 'write').catch(() => undefined));
  // The parse step beyond tree-sitter: copying its tree into plain objects (the walker is the rest).
  // A plain line like this one skips both: the fast path builds the same tree (plainTreeUs).
  const tree = parser.parse(cmd);
  const copyTreeUs = await part(() => { copyTree(tree, cmd); });
  tree.delete();
  const plainTreeUs = await part(() => { plainTree(cmd); });
  // Each per-argv rule over every argv the judge meets in this command (segments and the commands
  // inside wrappers), as the dispatch runs it (command-dispatch.ts): on an argv whose program the rule
  // concerns, always; on any other, only when the argv has a trait the rule's `when` gate needs
  // (command-traits.ts) and the gate accepts it, the gate's own time counted with the rule. gatesUs
  // is every gate so asked alone, gateCalls how many, rulesRun how many rule runs that makes.
  const views = parsed.segments.flatMap((s) => [viewOf(s), ...unwrapInner(s).map((a) => viewOf(s, a))]);
  const rulesUs = {};
  const gated = [];
  let rulesRun = 0;
  for (const r of RULES) {
    const rule = typeof r === 'function' ? r : r.rule;
    const met = [];
    for (const v of views) {
      const d = dispatchOf(v.name);
      const at = d.rules.indexOf(rule);
      if (at < 0) continue;
      const gate = d.when[at];
      // A gate is never asked of an argv without a trait it needs (the home's trait: this bench's home has a `/`).
      if (gate !== undefined && (traitsOf(v) & d.needs[at]) === 0) continue;
      met.push({ v, gate });
      if (gate !== undefined) gated.push({ v, gate });
      if (gate === undefined || gate(v)) rulesRun++;
    }
    rulesUs[rule.name] = Math.round(10 * (await part(() => { for (const m of met) if (m.gate === undefined || m.gate(m.v)) rule(m.v, false); }))) / 10;
  }
  const gatesUs = Math.round(10 * (await part(() => { for (const g of gated) g.gate(g.v); }))) / 10;
  const rulesTotalUs = Math.round(Object.values(rulesUs).reduce((a, b) => a + b, 0));
  const on = () => true;
  const segs = cmd.split(/\s*(?:&&|\||;)\s*/);
  for (let i = 0; i < 2000; i++) for (const s of segs) matchGroupPatterns(s, on);
  const regex = [];
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    for (const s of segs) matchGroupPatterns(s, on);
    regex.push((performance.now() - t) * 1000);
  }
  const m = median(roundMedians);
  record({ name: 'exec-policy-decision', unit: 'us', value: m, reference: 'regex groups alone on the same segments', referenceValue: median(regex),
    goal: '<= 100 median', pass: m <= 100, runs: N, statistic: `median of ${ROUNDS} round medians (${PER_ROUND} decisions each, after ${WARMUP} warm-up decisions)`, corpus: `${cmd.length}-char command`,
    extra: { p95: full.sort((a, b) => a - b)[Math.floor(N * 0.95)], roundMedians: roundMedians.map((x) => Math.round(x)), cpuUsPerDecision, cpuUsPerRound: roundCpu.map((x) => Math.round(x)),
      treeSitterParseUs: treeSitterOnly, copyTreeUs, plainTreeUs, parseOnlyUs: parseOnly, judgeWithoutGuardUs: judgeNoGuard, argvsJudged: views.length, rulesRun, gateCalls: gated.length, gatesUs, rulesTotalUs, rulesUs, oneGuardResolveSyncUs: guardResolveSync, oneGuardResolveUs: guardResolve }, loadBefore });
}
