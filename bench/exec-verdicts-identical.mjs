// A check, not a timing: the command judge's verdicts on every command corpus the tests and benches
// use (test/unit/exec/corpus/, bench/holdout*/) stay the same. Each line is judged under two policies
// (the default, and an allowlist policy with every group on and package installs denied) from two
// working folders of a workspace that holds links to the home folder, /etc, inside and nowhere, so the
// path guard's answers are part of what is compared. A verdict here is its decision, group, reason,
// every segment's decision, group, reason and argv, and the parse problems.
// Always: every line judged twice in this process, the second time after the judge has seen them all,
// gives the same verdict (no state carried from one decision to the next; warm code answers as cold).
// With PINCER_OUT_BEFORE=<another build>: every verdict is also compared with that build's (how a
// change made for speed proves it changed no answer). Exits 1 on any difference.
// Needs the compiled output (out/, or PINCER_OUT).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

function judgeOf(outDir) {
  const exec = (m) => require(path.join(outDir, 'src/core/exec', m));
  const { parseCommand } = exec('command-parse.js');
  const { judgeCommand } = exec('command-judge.js');
  const { DEFAULT_COMMAND_POLICY, allGroups } = exec('command-policy.js');
  const { PathGuard, DEFAULT_DENY_PATHS } = require(path.join(outDir, 'src/core/fs/path-guard.js'));
  const guard = new PathGuard({ roots: [ws], workspaceOnly: true, allowPaths: [], denyPaths: [...DEFAULT_DENY_PATHS], alwaysDeny: [], home: os.homedir() });
  const policies = [DEFAULT_COMMAND_POLICY, {
    security: 'allowlist', ask: 'off', denyGroups: allGroups(true), groupActions: { package_install: 'deny' },
    allowlist: [{ executable: 'git' }, { executable: 'npm', args: 'test' }, { executable: 'ls' }],
  }];
  return async (line, policyIndex, cwd) => {
    try {
      const v = await judgeCommand(await parseCommand(line), policies[policyIndex], { cwd, guard, home: os.homedir() });
      return JSON.stringify([v.decision, v.group, v.reason, v.segments.map((s) => [s.decision, s.group, s.reason, s.segment.argv.map((w) => w.text)]), v.problems]);
    } catch (e) {
      return `threw: ${e instanceof Error ? e.message : String(e)}`;
    }
  };
}

const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-verdicts-')));
try {
  fs.mkdirSync(path.join(ws, 'src/lib'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'packages/core'), { recursive: true });
  fs.mkdirSync(path.join(ws, '.git/hooks'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.git/config'), '[remote "origin"]\n\turl = https://github.com/example/project.git\n');
  fs.writeFileSync(path.join(ws, 'package.json'), '{"name":"w","scripts":{"test":"mocha"},"devDependencies":{"mocha":"10","typescript":"5"}}');
  fs.writeFileSync(path.join(ws, 'src/a.ts'), 'export {};\n');
  fs.symlinkSync(os.homedir(), path.join(ws, 'homelink'));
  fs.symlinkSync('/etc', path.join(ws, 'etclink'));
  fs.symlinkSync(path.join(ws, 'src'), path.join(ws, 'srclink'));
  fs.symlinkSync('/nonexistent/dangling', path.join(ws, 'dangling'));

  const corpusDir = path.join(root, 'test/unit/exec/corpus');
  const files = [
    ...fs.readdirSync(corpusDir).filter((f) => f.endsWith('.txt')).map((f) => path.join(corpusDir, f)),
    ...['holdout', 'holdout-2', 'holdout-3'].flatMap((d) => ['benign.txt', 'hostile.txt'].map((f) => path.join(root, 'bench', d, f))).filter((f) => fs.existsSync(f)),
  ];
  const lines = files.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#')));
  const cases = lines.flatMap((line) => [0, 1].flatMap((p) => [ws, path.join(ws, 'src')].map((cwd) => ({ line, p, cwd }))));

  const now = judgeOf(path.join(root, process.env.PINCER_OUT ?? 'out'));
  const before = process.env.PINCER_OUT_BEFORE ? judgeOf(path.resolve(process.env.PINCER_OUT_BEFORE)) : undefined;
  const first = [];
  for (const c of cases) first.push(await now(c.line, c.p, c.cwd));
  const differences = [];
  const differ = (what, c, a, b) => differences.length < 20 && differences.push(`${what}: ${JSON.stringify(c.line)} (policy ${c.p}, cwd ${path.relative(ws, c.cwd) || '.'})\n  ${a}\n  ${b}`);
  let count = 0;
  for (const [i, c] of cases.entries()) {
    const again = await now(c.line, c.p, c.cwd);
    if (again !== first[i]) { count++; differ('judged again', c, first[i], again); }
    if (before) {
      const old = await before(c.line, c.p, c.cwd);
      if (old !== first[i]) { count++; differ('against PINCER_OUT_BEFORE', c, old, first[i]); }
    }
  }
  console.log(`${cases.length} verdicts (${lines.length} lines from ${files.length} files, 2 policies, 2 working folders)${before ? ', compared with PINCER_OUT_BEFORE too' : ''}: ${count} differences`);
  for (const d of differences) console.log(d);
  process.exitCode = count ? 1 : 0;
} finally {
  fs.rmSync(ws, { recursive: true, force: true });
}
