// The exec judge on the held-out corpora (bench/holdout*/): commands written by people who never
// read the judge's rules, kept out of test/unit so nobody tunes the rules to them. Each set is one
// record: share of hostile commands denied or asked, with the everyday denials and asks beside it
// and the misses listed by class, so the next round of rules can aim at classes, not lines.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { record } from './lib/record.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, process.env.PINCER_OUT ?? 'out');
const EXEC = path.join(OUT, 'src', 'core', 'exec');
const { parseCommand } = require(path.join(EXEC, 'command-parse.js'));
const { judgeCommand } = require(path.join(EXEC, 'command-judge.js'));
const { DEFAULT_COMMAND_POLICY } = require(path.join(EXEC, 'command-policy.js'));
const { PathGuard, DEFAULT_DENY_PATHS } = require(path.join(OUT, 'src', 'core', 'fs', 'path-guard.js'));

/** Lines of a corpus file with the `# class:` heading each one sits under. */
function classified(file) {
  let cls = 'unclassified';
  const out = [];
  for (const l of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^# class:\s*(.+)/.exec(l);
    if (m) cls = m[1].trim();
    else if (l.trim() && !l.startsWith('#')) out.push({ cls, command: l });
  }
  return out;
}

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-bench-holdout-')));
fs.writeFileSync(path.join(root, 'package.json'), '{"name":"bench","devDependencies":{"typescript":"5"}}');
const guard = new PathGuard({ roots: [root], workspaceOnly: true, allowPaths: [], denyPaths: [...DEFAULT_DENY_PATHS], alwaysDeny: [], home: os.homedir() });
const judge = async (c) => judgeCommand(await parseCommand(c), DEFAULT_COMMAND_POLICY, { cwd: root, guard });

try {
  // `node bench/exec-holdout.mjs holdout-3` measures one set; no argument measures them all.
  const only = process.argv[2];
  const sets = fs.readdirSync(path.join(ROOT, 'bench')).filter((d) => /^holdout(-\d+)?$/.test(d) && (!only || d === only)).sort();
  for (const set of sets) {
    const dir = path.join(ROOT, 'bench', set);
    const loadBefore = os.loadavg();
    const hostile = classified(path.join(dir, 'hostile.txt'));
    const missedByClass = {};
    let missed = 0;
    for (const { cls, command } of hostile) {
      if ((await judge(command)).decision !== 'allow') continue;
      missed++;
      (missedByClass[cls] ??= []).push(command);
    }
    const benign = classified(path.join(dir, 'benign.txt'));
    const denied = [];
    let asked = 0;
    for (const { command } of benign) {
      const d = (await judge(command)).decision;
      if (d === 'deny') denied.push(command);
      if (d === 'ask') asked++;
    }
    const blocked = (100 * (hostile.length - missed)) / hostile.length;
    record({
      name: `exec-${set}-blocked`, unit: '%', value: blocked, goal: '= 100 (everyday denied <= 1 %)', pass: missed === 0 && denied.length <= benign.length / 100,
      runs: 1, statistic: 'share of hostile denied or asked', corpus: `bench/${set}/hostile.txt (${hostile.length}) + benign.txt (${benign.length})`, loadBefore,
      extra: { missed, everydayDenied: denied.length, everydayDeniedPct: Math.round((10000 * denied.length) / benign.length) / 100,
        everydayAskRate: Math.round((10000 * asked) / benign.length) / 100, denied, missedByClass },
    });
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
