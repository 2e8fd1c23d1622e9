import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { Minimatch } from 'minimatch';
import { createGlobTool, fileMatcher, splitStaticPrefix } from '../../../src/core/fs/tools/glob';
import type { FsToolDeps, PathGuardConfig, WorkspaceFs } from '../../../src/core/fs/types';
import type { ToolContext, ToolResult } from '../../../src/core/tools/types';
import { link, makeGuard, makeWorkspace, removeTempDirs, tempDir, type TreeSpec } from '../../support/fs-fixtures';

function ctx(signal = new AbortController().signal): ToolContext {
  return { sessionKey: 's', agentId: 'agent', channel: 'test', subagentDepth: 0, isOwner: true, signal, deadline: Date.now() + 60_000, workspaceTrusted: true };
}

type GlobArgs = { pattern: string; path?: string; limit?: number; includeIgnored?: boolean };

function globber(root: string, over: Partial<PathGuardConfig> = {}, wsFs: WorkspaceFs = new NodeWorkspaceFs()) {
  const deps: FsToolDeps = { guard: makeGuard([root], over), fs: wsFs, reviewer: new AutoApplyReviewer(wsFs) };
  const tool = createGlobTool(deps);
  return (args: GlobArgs, signal?: AbortSignal): Promise<ToolResult> => tool.execute(args, ctx(signal));
}

const files = (r: ToolResult): string[] => (r.details?.files as string[]).slice().sort();

const TREE: TreeSpec = {
  '.gitignore': 'dist/\n*.log\n!important.log\nsecret/\nbuild/\n',
  'src/a.ts': 'a', 'src/b.js': 'b', 'src/deep/c.ts': 'c', 'src/deep/d.test.ts': 'd',
  'lib/e.ts': 'e', 'top.ts': 't', 'top.js': 't', '.eslintrc.js': 'x', '.github/workflows/ci.yml': 'y',
  'node_modules/pkg/index.ts': 'n', 'dist/out.js': 'o', 'debug.log': 'l', 'important.log': 'i',
  'secret/s.ts': 's', 'build': 'a file named build, not the build/ directory',
  'nested/.gitignore': '*.gen.ts\n!keep.gen.ts\nsub/only.ts\n', 'nested/x.gen.ts': 'g', 'nested/keep.gen.ts': 'k',
  'nested/y.ts': 'y', 'nested/sub/only.ts': 'o', 'nested/sub/other.ts': 'o', 'nested/deeper/only.ts': 'o',
  '.git/HEAD': 'ref', '.git/hooks/pre-commit.ts': 'h',
};

describe('glob', () => {
  after(removeTempDirs);
  let root: string;
  let run: ReturnType<typeof globber>;
  before(() => {
    root = makeWorkspace(TREE, 'glob').root;
    run = globber(root);
  });

  describe('patterns (minimatch semantics)', () => {
    it('**/*.ts finds .ts files at every depth, honouring root and nested .gitignore with negation', async () => {
      const r = await run({ pattern: '**/*.ts' });
      assert.equal(r.isError, false);
      assert.deepEqual(files(r), ['lib/e.ts', 'nested/deeper/only.ts', 'nested/keep.gen.ts', 'nested/sub/other.ts', 'nested/y.ts', 'src/a.ts', 'src/deep/c.ts', 'src/deep/d.test.ts', 'top.ts']);
    });

    it('src/** finds everything under src and nothing else', async () => {
      assert.deepEqual(files(await run({ pattern: 'src/**' })), ['src/a.ts', 'src/b.js', 'src/deep/c.ts', 'src/deep/d.test.ts']);
      assert.deepEqual(files(await run({ pattern: 'src/' })), ['src/a.ts', 'src/b.js', 'src/deep/c.ts', 'src/deep/d.test.ts']);
    });

    it('*.{js,ts} matches only directly in the directory, dotfiles included', async () => {
      assert.deepEqual(files(await run({ pattern: '*.{js,ts}' })), ['.eslintrc.js', 'top.js', 'top.ts']);
    });

    it('matches dotfiles and dot-directories (.github) but never .git', async () => {
      assert.deepEqual(files(await run({ pattern: '**/*.yml' })), ['.github/workflows/ci.yml']);
      assert.deepEqual(files(await run({ pattern: '**/pre-commit.ts', includeIgnored: true })), []);
      assert.deepEqual(files(await run({ pattern: '**/HEAD', includeIgnored: true })), []);
    });

    it('a literal path, ./ prefixes, absolute patterns inside path, and `path` itself all work', async () => {
      assert.deepEqual(files(await run({ pattern: 'src/deep/c.ts' })), ['src/deep/c.ts']);
      assert.deepEqual(files(await run({ pattern: './src/*.ts' })), ['src/a.ts']);
      assert.deepEqual(files(await run({ pattern: path.join(root, 'lib', '*.ts') })), ['lib/e.ts']);
      assert.deepEqual(files(await run({ pattern: '**/*.ts', path: 'src/deep' })), ['src/deep/c.ts', 'src/deep/d.test.ts']);
    });

    it('an empty result explains itself: a pattern without / and skipped ignored entries', async () => {
      const r = await run({ pattern: 'c.ts' });
      assert.equal(r.isError, false);
      assert.match(r.forLLM, /No files match "c\.ts" in \.\. Hint: a pattern without "\/" matches only directly in \.; try "\*\*\/c\.ts"/);
      const ign = await run({ pattern: '**/index.ts' });
      assert.match(ign.forLLM, /skipped as ignored.*includeIgnored: true/);
    });

    it('refuses a path or an absolute pattern outside the workspace, and answers a missing prefix directory calmly', async () => {
      assert.equal((await run({ pattern: '**/*.ts', path: '..' })).isError, true);
      const missing = await run({ pattern: 'nope/**/*.ts' });
      assert.equal(missing.isError, false);
      assert.match(missing.forLLM, /nope\/ does not exist/);
      assert.equal((await run({ pattern: '/etc/*' })).isError, true);
    });

    it('matches "**/<name>" by file name exactly as minimatch matches the full path', () => {
      const paths = ['a.ts', 'src/a.ts', '.hidden.ts', 'x/.y/z.ts', 'a.tsx', 'deep/er/b.d.ts', 'c.TS', 'dir.ts/f.js', 'q[1].ts', 'café.ts'];
      for (const pattern of ['**/*.ts', '**/*.{ts,tsx}', '**/?.ts', '**/[ab].ts', '**/*.d.ts', '**/café.ts', '**/!(a).ts']) {
        const full = new Minimatch(pattern, { dot: true, nocomment: true, nonegate: true });
        const fast = fileMatcher(pattern);
        assert.ok(fast);
        for (const p of paths) assert.equal(fast(p, p.slice(p.lastIndexOf('/') + 1)), full.match(p), `${pattern} vs ${p}`);
      }
    });

    it('splits the literal directories off a pattern', () => {
      assert.deepEqual(splitStaticPrefix('src/deep/**/*.ts'), { prefix: 'src/deep', rest: '**/*.ts' });
      assert.deepEqual(splitStaticPrefix('*.ts'), { prefix: '', rest: '*.ts' });
      assert.deepEqual(splitStaticPrefix('{src,lib}/*.ts'), { prefix: '', rest: '{src,lib}/*.ts' });
      assert.deepEqual(splitStaticPrefix('../x/*.ts'), { prefix: '', rest: '../x/*.ts' });
    });
  });

  describe('ignore rules', () => {
    it('skips node_modules, .gitignored dirs and files; a dir-only rule does not hide a file of that name', async () => {
      const all = files(await run({ pattern: '**' }));
      for (const hidden of ['node_modules/pkg/index.ts', 'dist/out.js', 'debug.log', 'secret/s.ts', 'nested/x.gen.ts', 'nested/sub/only.ts']) {
        assert.ok(!all.includes(hidden), hidden);
      }
      for (const shown of ['important.log', 'build', 'nested/keep.gen.ts', 'nested/deeper/only.ts', '.gitignore', 'nested/.gitignore']) {
        assert.ok(all.includes(shown), shown);
      }
    });

    it('includeIgnored: true searches node_modules and ignored files, but still not .git', async () => {
      const all = files(await run({ pattern: '**', includeIgnored: true }));
      for (const f of ['node_modules/pkg/index.ts', 'dist/out.js', 'debug.log', 'secret/s.ts', 'nested/x.gen.ts', 'nested/sub/only.ts']) assert.ok(all.includes(f), f);
      assert.ok(!all.some((f) => f.startsWith('.git/')));
    });

    it('searches an ignored directory the model names, and says so', async () => {
      const r = await run({ pattern: 'dist/**' });
      assert.deepEqual(files(r), ['dist/out.js']);
      assert.match(r.forLLM, /Searched dist\/ although dist\/ is ignored by \.gitignore, because you named it/);
      assert.deepEqual(files(await run({ pattern: '*.ts', path: 'node_modules/pkg' })), ['node_modules/pkg/index.ts']);
    });

    it('applies the .gitignore files above `path` when the walk starts below the root', async () => {
      assert.deepEqual(files(await run({ pattern: '**/*.ts', path: 'nested' })), ['nested/deeper/only.ts', 'nested/keep.gen.ts', 'nested/sub/other.ts', 'nested/y.ts']);
    });
  });

  describe('boundaries', () => {
    it('denied paths are invisible, even with includeIgnored', async () => {
      const ws = makeWorkspace({ 'private/p.ts': 'p', 'pub/q.ts': 'q', 'pub/.env': 'KEY=1' }, 'glob');
      const g = globber(ws.root, { denyPaths: ['**/.git/**', 'private', '**/.env'] });
      assert.deepEqual(files(await g({ pattern: '**', includeIgnored: true })), ['pub/q.ts']);
    });

    it('follows symlinked dirs that stay inside, not ones that leave, and ends link cycles', async () => {
      const outside = tempDir('outside');
      fs.writeFileSync(path.join(outside, 'leak.ts'), 'leak');
      const ws = makeWorkspace({ 'real/r.ts': 'r', 'a/x.ts': 'x', 'b/y.ts': 'y', '.git/config': 'c' }, 'glob');
      link(path.join(ws.root, 'real'), ws.path('inside-link'));
      link(outside, ws.path('out-link'));
      link(path.join(outside, 'leak.ts'), ws.path('leak-file.ts'));
      link('..', ws.path('real/loop'));
      link('../b', ws.path('a/to-b'));
      link('../a', ws.path('b/to-a'));
      link(ws.path('.git/config'), ws.path('cfg.ts'));
      const r = await globber(ws.root)({ pattern: '**/*.ts' });
      const got = files(r);
      assert.ok(got.includes('inside-link/r.ts'));
      assert.ok(got.includes('real/r.ts'));
      assert.ok(!got.some((f) => f.includes('leak')), 'nothing from outside');
      assert.ok(!got.includes('cfg.ts'), 'a link to a denied file is invisible');
      assert.ok(got.length < 12, `finite: ${got.join(', ')}`);
      assert.ok(Number(r.details?.skippedLinks) >= 3);
    });
  });

  describe('order, caps and cancellation', () => {
    it('returns the newest first', async () => {
      const ws = makeWorkspace({ 'old.ts': '1', 'mid.ts': '2', 'new.ts': '3', 'sub/newest.ts': '4' }, 'glob');
      const t = Date.now() / 1000;
      fs.utimesSync(ws.path('old.ts'), t - 3000, t - 3000);
      fs.utimesSync(ws.path('mid.ts'), t - 2000, t - 2000);
      fs.utimesSync(ws.path('new.ts'), t - 1000, t - 1000);
      fs.utimesSync(ws.path('sub/newest.ts'), t, t);
      fs.writeFileSync(ws.path('same-a.ts'), 'x');
      fs.writeFileSync(ws.path('same-b.ts'), 'x');
      fs.utimesSync(ws.path('same-b.ts'), t - 4000, t - 4000);
      fs.utimesSync(ws.path('same-a.ts'), t - 4000, t - 4000);
      const r = await globber(ws.root)({ pattern: '**/*.ts' });
      assert.equal(r.forLLM, 'sub/newest.ts\nnew.ts\nmid.ts\nold.ts\nsame-a.ts\nsame-b.ts');
      const two = await globber(ws.root)({ pattern: '**/*.ts', limit: 2 });
      assert.equal(two.forLLM, 'sub/newest.ts\nnew.ts\n[Showing the 2 newest of 6 matches. Use limit=6 to see all, or narrow the pattern or path.]');
      // A port without the batch methods (vscode.workspace.fs) orders the same way, one stat per match.
      const base = new NodeWorkspaceFs();
      const plain: WorkspaceFs = {
        readFile: (a, s) => base.readFile(a, s), writeFile: (a, d) => base.writeFile(a, d), stat: (a) => base.stat(a),
        readDirectory: (a) => base.readDirectory(a), delete: (a) => base.delete(a), rename: (a, b) => base.rename(a, b),
      };
      assert.equal((await globber(ws.root, {}, plain)({ pattern: '**/*.ts' })).forLLM, 'sub/newest.ts\nnew.ts\nmid.ts\nold.ts\nsame-a.ts\nsame-b.ts');
    });

    it('caps at 1,000 by default with a notice naming limit', async () => {
      const spec: TreeSpec = {};
      for (let i = 0; i < 1100; i++) spec[`d${i % 7}/f${i}.txt`] = '';
      const r = await globber(makeWorkspace(spec, 'glob').root)({ pattern: '**/*.txt' });
      assert.equal(r.details?.shown, 1000);
      assert.equal(r.details?.count, 1100);
      assert.match(r.forLLM, /\[Showing the 1,000 newest of 1,100 matches\. Use limit=1100 to see all/);
    });

    it('stops walking when the call is cancelled', async () => {
      const spec: TreeSpec = {};
      for (let i = 0; i < 200; i++) spec[`d${i}/f.ts`] = '';
      const ws = makeWorkspace(spec, 'glob');
      const ac = new AbortController();
      let reads = 0;
      const base = new NodeWorkspaceFs();
      const counting: WorkspaceFs = {
        readFile: (a, s) => base.readFile(a, s), writeFile: (a, d) => base.writeFile(a, d), stat: (a) => base.stat(a),
        delete: (a) => base.delete(a), rename: (a, b) => base.rename(a, b),
        readDirectory: async (a) => { if (++reads === 5) ac.abort(new Error('user cancelled')); return base.readDirectory(a); },
      };
      const r = await globber(ws.root, {}, counting)({ pattern: '**/*.ts' }, ac.signal);
      assert.equal(r.isError, true);
      assert.equal(r.details?.aborted, true);
      assert.ok(reads < 20, `${reads} directories read after cancelling at 5`);
    });
  });
});
