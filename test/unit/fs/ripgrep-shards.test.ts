// A directory search split over several rg processes gives the answer of one process: the same
// matches in the same order (byte order of names, depth first), the same caps, ignore rules, globs
// and hidden denied paths; the split is planned where the entries are; and every process is gone
// when the consumer stops early.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { ripgrepArgs } from '../../../src/core/fs/ripgrep-args';
import { locateRipgrep } from '../../../src/core/fs/ripgrep-locate';
import { type RgEvent } from '../../../src/core/fs/ripgrep-output';
import { runRipgrep } from '../../../src/core/fs/ripgrep-run';
import { planShards } from '../../../src/core/fs/ripgrep-shards';
import { createGrepTool } from '../../../src/core/fs/tools/grep';
import type { PathGuardConfig } from '../../../src/core/fs/types';
import type { ToolContext, ToolResult } from '../../../src/core/tools/types';
import { makeGuard, makeWorkspace, removeTempDirs, type TreeSpec } from '../../support/fs-fixtures';

const RG = (fs.existsSync('/usr/bin/rg') ? '/usr/bin/rg' : locateRipgrep([])) as string;
const Q = { pattern: 'x', literal: false, ignoreCase: false, before: 0, after: 0, includeIgnored: false };

const ctx = (): ToolContext => ({ sessionKey: 's', agentId: 'a', channel: 'test', subagentDepth: 0, isOwner: true, workspaceTrusted: true, signal: new AbortController().signal, deadline: Date.now() + 60_000 });

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A tree whose byte order differs from a plain string sort of paths (`a-b` before `a/…`'s files in one, after in the other) and from case-folded order. */
function tree(): TreeSpec {
  const spec: TreeSpec = {
    '.gitignore': 'dist/\n*.log\n',
    '.github/ci.yml': 'value: 1\n',
    'README.md': 'value in readme\n',
    'a-b.txt': 'value a-b\n',
    'a/x.txt': 'value a/x\n',
    'B/upper.txt': 'value upper\n',
    'b/lower.txt': 'value lower\n',
    'dist/out.js': 'value ignored\n',
    'secrets/key.txt': 'value secret\n',
    'z.log': 'value log\n',
  };
  for (let p = 0; p < 16; p++) {
    spec[`packages/p${p}/.gitignore`] = 'gen/\n';
    spec[`packages/p${p}/gen/g.ts`] = 'value generated\n';
    for (let f = 0; f < 4; f++) spec[`packages/p${p}/src/f${f}.ts`] = `const value${f} = ${p};\n// no\nvalue again ${p}/${f}\n`;
  }
  spec['packages/p1/src/keep.log'] = 'value kept by name glob only\n';
  return spec;
}

function setup(files: TreeSpec, guardOver: Partial<PathGuardConfig> = {}) {
  const ws = makeWorkspace(files, 'rgshard');
  const wfs = new NodeWorkspaceFs();
  const guard = makeGuard([ws.root], guardOver);
  const run = (processes: number, args: Record<string, unknown>, onSpawn?: (pid: number) => void): Promise<ToolResult> => {
    const tool = createGrepTool({ guard, fs: wfs, reviewer: new AutoApplyReviewer(wfs) }, { rgPath: RG, denyPaths: guardOver.denyPaths, processes, onSpawn });
    return tool.execute(tool.parameters.parse(args), ctx());
  };
  return { ws, wfs, run };
}

describe('grep split over several rg processes', () => {
  after(removeTempDirs);

  it('plans ranges inside the folder that holds most of the tree, leaving .gitignored folders out of the weighing', async () => {
    const { ws, wfs } = setup(tree());
    const plan = await planShards({ fs: wfs, root: ws.root, relTarget: '', includeIgnored: false, shards: 2, sep: '/' });
    assert.ok(plan, 'no plan');
    assert.equal(plan.length, 2);
    // The first range ends inside packages/ and the last begins there; everything else is excluded whole.
    assert.ok(plan[0].includes('!/packages/p9'), plan[0].join(' '));
    assert.ok(!plan[0].includes('!/packages/p0'));
    assert.ok(plan[1].includes('!/packages/p0') && plan[1].includes('!/README.md') && plan[1].includes('!/a-b.txt'), plan[1].join(' '));
    assert.ok(!plan[1].includes('!/packages/p9'));
    // Every other top-level entry belongs to one range whole: the first if it sorts before packages (bytes: 'B' < 'R' < 'a'), else the last.
    for (const name of ['.github', 'B', 'a', 'b', 'dist']) assert.ok(!plan[0].includes(`!/${name}`) && plan[1].includes(`!/${name}`), name);
    for (const name of ['secrets', 'z.log']) assert.ok(plan[0].includes(`!/${name}`) && !plan[1].includes(`!/${name}`), name);
  });

  it('plans nothing for one process, a folder with no subfolder to split, or names a glob would misread', async () => {
    const { ws, wfs } = setup({ 'a.txt': 'x', 'b.txt': 'x', 'odd/[x].txt': 'x', 'odd/y/z.txt': 'x', 'odd/w/z.txt': 'x', 'we{ird}/a/x.txt': 'x', 'we{ird}/b/x.txt': 'x' });
    const plan = (relTarget: string, shards = 2) => planShards({ fs: wfs, root: ws.root, relTarget, includeIgnored: false, shards, sep: '/' });
    assert.equal(await plan('', 1), undefined);
    assert.equal(await plan('odd/y'), undefined);
    assert.equal(await plan('odd'), undefined);
    // A target whose own name a glob would misread (its subfolders alone would split).
    assert.equal(await plan('we{ird}'), undefined);
    // A name that is not UTF-8 (on Linux, where a name is any bytes) cannot be excluded by its decoded spelling.
    if (process.platform === 'linux') {
      fs.mkdirSync(ws.path('two/a'), { recursive: true });
      fs.mkdirSync(ws.path('two/b'));
      assert.ok(await plan('two'), 'two plain folders split');
      fs.writeFileSync(Buffer.from(`${ws.path('two')}/caf\xe9.txt`, 'latin1'), 'x');
      assert.equal(await plan('two'), undefined);
    }
  });

  for (const [label, args] of [
    ['a plain search', { pattern: 'value', limit: 1000 }],
    ['the default cap of 100 cutting inside the second range', { pattern: 'value' }],
    ['a cap that ends in the first range', { pattern: 'value', limit: 5 }],
    ['context lines', { pattern: 'no', context: 1, limit: 1000 }],
    ['a name glob', { pattern: 'value', glob: '*.log', limit: 1000 }],
    ['a path glob that names ignored files', { pattern: 'value', glob: 'packages/**/gen/*.ts', limit: 1000 }],
    ['an exclusion glob', { pattern: 'value', glob: '!**/src/**', limit: 1000 }],
    ['includeIgnored', { pattern: 'value', includeIgnored: true, limit: 1000 }],
    ['a subfolder', { pattern: 'value', path: 'packages', limit: 1000 }],
    ['no match', { pattern: 'nothing at all' }],
    ['a bad pattern', { pattern: '(unclosed' }],
  ] as const) {
    it(`gives one process's answer, in its order: ${label}`, async () => {
      const { run } = setup(tree(), { denyPaths: ['**/.git/**', 'secrets'] });
      const pids: number[] = [];
      const one = await run(1, args);
      const split = await run(3, args, (pid) => pids.push(pid));
      assert.equal(split.forLLM, one.forLLM);
      const { rgProcesses, ...rest } = split.details ?? {};
      assert.deepEqual(rest, one.details);
      assert.ok(pids.length > 1, `the search was not split (${pids.length} process)`);
      if (split.details?.engine === 'ripgrep') assert.equal(rgProcesses, pids.length);
      assert.doesNotMatch(split.forLLM, /secret/);
    });
  }

  it('searches a folder with glob syntax in its path in one process, with the same answer', async () => {
    const spec: TreeSpec = {};
    for (const d of ['a', 'b', 'c']) spec[`we[i]rd/pkgs/${d}/x.txt`] = `value in ${d}\n`;
    const { run } = setup(spec);
    const pids: number[] = [];
    const r = await run(3, { pattern: 'value', path: 'we[i]rd/pkgs' }, (pid) => pids.push(pid));
    assert.equal(pids.length, 1);
    assert.equal(r.details?.matches, 3);
    assert.equal(r.forLLM, (await run(1, { pattern: 'value', path: 'we[i]rd/pkgs' })).forLLM);
  });

  it('holds a later range\'s output while the first runs, however much it is, and reads it in order', async () => {
    // The second range prints megabytes (its pipe is paused while held); the first prints little.
    const big = 'x\n'.repeat(300_000);
    const { ws } = setup({ 'a/1.txt': 'x\n', 'b/2.txt': big, 'c/3.txt': 'x\n' });
    const base = ripgrepArgs({ query: Q, target: '.', denyGlobs: [] });
    const only = (keep: string) => ripgrepArgs({ query: Q, target: '.', denyGlobs: ['a', 'b', 'c'].filter((d) => d !== keep).map((d) => `!/${d}`) });
    const collect = async (args: string[], moreArgs?: string[][]) => {
      const files: string[] = [];
      let matches = 0;
      const r = await runRipgrep({ rgPath: RG, args, moreArgs, cwd: ws.root, signal: new AbortController().signal, onEvent: (ev: RgEvent) => {
        if (ev.type === 'begin') files.push(ev.path);
        if (ev.type === 'match') matches++;
        return true;
      } });
      return { files, matches, end: r.end, exitCode: r.exitCode };
    };
    const whole = await collect(base);
    const split = await collect(only('a'), [only('b'), only('c')]);
    assert.deepEqual(split, whole);
    assert.deepEqual(split.files, ['./a/1.txt', './b/2.txt', './c/3.txt']);
    assert.equal(split.matches, 300_002);
  });

  it('stops every process when the consumer has enough', async () => {
    const spec: TreeSpec = {};
    for (const d of ['a', 'b', 'c']) for (let f = 0; f < 20; f++) spec[`${d}/${f}.txt`] = 'x\n'.repeat(5000);
    const { ws } = setup(spec);
    const only = (keep: string) => ripgrepArgs({ query: Q, target: '.', denyGlobs: ['a', 'b', 'c'].filter((d) => d !== keep).map((d) => `!/${d}`) });
    const pids: number[] = [];
    let seen = 0;
    const r = await runRipgrep({ rgPath: RG, args: only('a'), moreArgs: [only('b'), only('c')], cwd: ws.root, signal: new AbortController().signal,
      onSpawn: (pid) => pids.push(pid), onEvent: (ev) => ev.type !== 'match' || ++seen < 10 });
    assert.equal(r.end, 'stopped');
    assert.equal(seen, 10);
    assert.equal(pids.length, 3);
    for (const pid of pids) assert.equal(alive(pid), false, `rg ${pid} is still running`);
  });
});
