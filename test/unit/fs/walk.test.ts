import * as assert from 'node:assert/strict';
import ignore from 'ignore';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { IgnoreRules, rulesAbove } from '../../../src/core/fs/ignore-rules';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import type { WorkspaceFs } from '../../../src/core/fs/types';
import { walk, type WalkFile } from '../../../src/core/fs/walk';
import { link, makeGuard, makeWorkspace, removeTempDirs, tempDir, type TreeSpec } from '../../support/fs-fixtures';

/** The same port without its batch methods: the walk's one-directory-per-call path. */
function plainFs(base: NodeWorkspaceFs): WorkspaceFs {
  return {
    readFile: (a, s) => base.readFile(a, s), writeFile: (a, d) => base.writeFile(a, d), stat: (a) => base.stat(a),
    readDirectory: (a) => base.readDirectory(a), delete: (a) => base.delete(a), rename: (a, b) => base.rename(a, b),
  };
}

async function walkAll(root: string, spec: { ignore?: boolean; descend?: (rel: string) => boolean; fs?: WorkspaceFs } = {}) {
  const files: WalkFile[] = [];
  const stats = await walk({
    fs: spec.fs ?? new NodeWorkspaceFs(), guard: makeGuard([root]), base: root, baseRootRel: '',
    ignore: spec.ignore === false ? undefined : IgnoreRules.none(), descend: spec.descend, onFile: (f) => { files.push(f); },
  });
  return { files: files.map((f) => f.rel).sort(), stats };
}

describe('walk and ignore rules', () => {
  after(removeTempDirs);

  describe('IgnoreRules', () => {
    it('lets the deepest .gitignore with a say win, in both directions', () => {
      const rules = IgnoreRules.none().with('', '*.log\n!keep/*.log\n').with('sub', '!*.log\nlocal.txt\n').with('sub/x', 'again.log\n');
      assert.equal(rules.ignores('a.log', false), true);
      assert.equal(rules.ignores('keep/a.log', false), false);
      assert.equal(rules.ignores('sub/a.log', false), false, 'nested negation re-includes');
      assert.equal(rules.ignores('sub/x/again.log', false), true, 'deeper rule ignores again');
      assert.equal(rules.ignores('local.txt', false), false, 'a nested rule does not reach above its directory');
      assert.equal(rules.ignores('sub/local.txt', false), true);
    });

    it('matches dir-only rules against directories only, and anchors slashed patterns to their own directory', () => {
      const rules = IgnoreRules.none().with('', 'build/\n/top.txt\n').with('pkg', 'gen/out.js\n');
      assert.equal(rules.ignores('build', true), true);
      assert.equal(rules.ignores('build', false), false);
      assert.equal(rules.ignores('x/build', true), true);
      assert.equal(rules.ignores('top.txt', false), true);
      assert.equal(rules.ignores('d/top.txt', false), false);
      assert.equal(rules.ignores('pkg/gen/out.js', false), true);
      assert.equal(rules.ignores('pkg/other/gen/out.js', false), false);
    });

    it('gives the same verdicts through the by-name cache as the ignore package on full paths', () => {
      const content = 'node_modules/\n*.log\n!keep.log\nbuild\n\\!bang\n# c\n';
      const direct = ignore().add(content);
      const rules = IgnoreRules.none().with('', content);
      const names = ['a.log', 'keep.log', 'build', 'node_modules', 'x.ts', '!bang', 'bang'];
      for (const dir of ['', 'src/', 'src/deep/']) {
        for (const name of names) {
          for (const isDir of [false, true]) {
            const p = dir + name;
            // Twice: the second answer comes from the cache.
            for (let k = 0; k < 2; k++) assert.equal(rules.ignores(p, isDir), direct.ignores(isDir ? p + '/' : p), `${p} dir=${isDir}`);
          }
        }
      }
    });

    it('survives odd names and comments without throwing', () => {
      const rules = IgnoreRules.none().with('', '# comment\n\n\\#hash\n...\n');
      assert.equal(rules.ignores('#hash', false), true);
      assert.equal(rules.ignores('...', false), true);
      assert.equal(rules.ignores('# comment', false), false);
    });

    it('rulesAbove loads the .gitignore files above a directory and says why it would be skipped', async () => {
      const ws = makeWorkspace({ '.gitignore': 'gen/\n', 'a/.gitignore': '*.tmp\n', 'a/b/c/f.txt': '', 'a/gen/x/y': '', 'node_modules/p/q': '' });
      const fs = new NodeWorkspaceFs();
      const above = await rulesAbove(fs, ws.root, 'a/b/c', path.sep);
      assert.equal(above.skippedBecause, undefined);
      assert.equal(above.rules.ignores('a/b/c/x.tmp', false), true);
      assert.match((await rulesAbove(fs, ws.root, 'a/gen/x', path.sep)).skippedBecause ?? '', /a\/gen\/ is ignored by \.gitignore/);
      assert.match((await rulesAbove(fs, ws.root, 'node_modules/p', path.sep)).skippedBecause ?? '', /inside node_modules/);
    });
  });

  describe('walk', () => {
    it('visits every visible file once and reports ignored entries', async () => {
      const spec: TreeSpec = { '.gitignore': '*.o\n', 'a/1.c': '', 'a/1.o': '', 'b/c/2.c': '', 'node_modules/x/i.js': '', '.git/HEAD': '' };
      const { files, stats } = await walkAll(makeWorkspace(spec, 'walk').root);
      assert.deepEqual(files, ['.gitignore', 'a/1.c', 'b/c/2.c']);
      assert.equal(stats.ignored, 2);
      const raw = await walkAll(makeWorkspace(spec, 'walk').root, { ignore: false });
      assert.deepEqual(raw.files, ['.gitignore', 'a/1.c', 'a/1.o', 'b/c/2.c', 'node_modules/x/i.js']);
    });

    it('prunes directories that descend() rejects without reading them', async () => {
      const { files, stats } = await walkAll(makeWorkspace({ 'keep/a': '', 'skip/b': '', 'skip/deep/c': '' }, 'walk').root, { descend: (rel) => rel.startsWith('keep') });
      assert.deepEqual(files, ['keep/a']);
      assert.equal(stats.dirs, 2);
    });

    it('stays linear on a fan of links (each level links twice to the next: 2^12 paths naively)', async () => {
      const spec: TreeSpec = {};
      for (let i = 0; i <= 12; i++) spec[`d${i}/f${i}.txt`] = '';
      const ws = makeWorkspace(spec, 'walk');
      for (let i = 0; i < 12; i++) {
        link(`../d${i + 1}`, ws.path(`d${i}/l1`));
        link(`../d${i + 1}`, ws.path(`d${i}/l2`));
      }
      const { files, stats } = await walkAll(ws.root);
      assert.ok(stats.dirs <= 2 * 13 + 1, `${stats.dirs} directories read`);
      assert.ok(files.length <= 2 * 13, `${files.length} files`);
      for (let i = 0; i <= 12; i++) assert.ok(files.includes(`d${i}/f${i}.txt`));
    });

    it('drops files accept() rejects before anything else, and keeps walking directories', async () => {
      const ws = makeWorkspace({ 'a.ts': '', 'b.js': '', 'd/c.ts': '', 'd/e.md': '' }, 'walk');
      const seen: string[] = [];
      const stats = await walk({
        fs: new NodeWorkspaceFs(), guard: makeGuard([ws.root]), base: ws.root, baseRootRel: '',
        accept: (rel) => rel.endsWith('.ts'), onFile: (f) => { seen.push(f.rel); },
      });
      assert.deepEqual(seen.sort(), ['a.ts', 'd/c.ts']);
      assert.equal(stats.dirs, 2);
    });

    it('gives the same answer through readDirectories as one readDirectory per folder, links and ignores included', async () => {
      const outside = tempDir('outside');
      fs.writeFileSync(path.join(outside, 'leak.ts'), 'leak');
      const spec: TreeSpec = { '.gitignore': 'gen/\n*.o\n', 'a/x.ts': '', 'a/x.o': '', 'a/gen/g.ts': '', 'b/.gitignore': '!*.o\n', 'b/y.o': '', 'b/c/d/e/f.ts': '', 'node_modules/m/i.js': '' };
      // Enough folders for several batches in flight at once.
      for (let i = 0; i < 90; i++) spec[`many/d${i % 9}/e${i}/${i % 2 ? 'gen' : 'src'}/f${i}.${i % 3 ? 'ts' : 'o'}`] = '';
      const ws = makeWorkspace(spec, 'walk');
      link('../b', ws.path('a/to-b'));
      link(outside, ws.path('a/out'));
      link(path.join(outside, 'leak.ts'), ws.path('leak.ts'));
      link('..', ws.path('b/c/up'));
      const fast = await walkAll(ws.root);
      const plain = await walkAll(ws.root, { fs: plainFs(new NodeWorkspaceFs()) });
      assert.deepEqual(fast.files, plain.files);
      assert.deepEqual({ ...fast.stats }, { ...plain.stats });
      assert.equal(fast.files.filter((f) => f.startsWith('many/')).length, 30, 'src/ files that are not .o');
      assert.ok(fast.files.includes('a/to-b/y.o') && fast.files.includes('b/y.o') && !fast.files.includes('a/x.o'));
      assert.ok(!fast.files.some((f) => f.includes('leak') || f.startsWith('a/out')), 'nothing from outside');
      assert.ok(fast.stats.skippedLinks >= 2);
    });

    it('gives the event loop a turn between batches, and stops reading when the signal aborts', async () => {
      const spec: TreeSpec = {};
      for (let i = 0; i < 100; i++) spec[`d${i}/e/f.ts`] = '';
      const ws = makeWorkspace(spec, 'walk');
      let turns = 0;
      let spinning = true;
      const spin = (): void => { if (spinning) { turns++; setImmediate(spin); } };
      setImmediate(spin);
      const chain = await walk({ fs: new NodeWorkspaceFs(), guard: makeGuard([ws.root]), base: ws.root, baseRootRel: '', sliceMs: 0, onFile: () => undefined });
      spinning = false;
      assert.equal(chain.files, 100);
      assert.ok(turns >= 3, `${turns} turns of the event loop during the walk`);

      const ac = new AbortController();
      const nfs = new NodeWorkspaceFs();
      let listed = 0;
      const counting = Object.assign(Object.create(nfs) as NodeWorkspaceFs, {
        readDirectories: async (dirs: readonly string[]) => {
          listed += dirs.length;
          if (listed > 40) ac.abort(new Error('cancelled'));
          return nfs.readDirectories(dirs);
        },
      });
      const stats = await walk({ fs: counting, guard: makeGuard([ws.root]), base: ws.root, baseRootRel: '', signal: ac.signal, onFile: () => undefined });
      assert.equal(stats.aborted, true);
      assert.ok(listed < 100, `${listed} folders listed after cancelling past 40`);
    });

    it('stops when onFile returns false', async () => {
      const spec: TreeSpec = {};
      for (let i = 0; i < 50; i++) spec[`f${i}`] = '';
      const ws = makeWorkspace(spec, 'walk');
      let seen = 0;
      const stats = await walk({ fs: new NodeWorkspaceFs(), guard: makeGuard([ws.root]), base: ws.root, baseRootRel: '', onFile: () => ++seen < 10 });
      assert.equal(seen, 10);
      assert.equal(stats.stopped, true);
    });
  });
});
