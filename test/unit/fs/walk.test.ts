import * as assert from 'node:assert/strict';
import ignore from 'ignore';
import * as path from 'node:path';
import { IgnoreRules, rulesAbove } from '../../../src/core/fs/ignore-rules';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { walk, type WalkFile } from '../../../src/core/fs/walk';
import { link, makeGuard, makeWorkspace, removeTempDirs, type TreeSpec } from '../../support/fs-fixtures';

async function walkAll(root: string, spec: { ignore?: boolean; descend?: (rel: string) => boolean } = {}) {
  const files: WalkFile[] = [];
  const stats = await walk({
    fs: new NodeWorkspaceFs(), guard: makeGuard([root]), base: root, baseRootRel: '',
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
      const t0 = Date.now();
      const { files, stats } = await walkAll(ws.root);
      assert.ok(stats.dirs <= 2 * 13 + 1, `${stats.dirs} directories read`);
      assert.ok(files.length <= 2 * 13, `${files.length} files`);
      for (let i = 0; i <= 12; i++) assert.ok(files.includes(`d${i}/f${i}.txt`));
      assert.ok(Date.now() - t0 < 3000);
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
