// The path guard on ordinary input: no false alarms, every accepted spelling, and refusal
// messages that name the setting that widens the boundary.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PathGuard } from '../../../src/core/fs/path-guard';
import { PathError } from '../../../src/core/fs/types';
import { guardConfig, link, makeGuard, makeWorkspace, removeTempDirs, tempDir, writeTree, type Workspace } from '../../support/fs-fixtures';

async function refusal(p: Promise<unknown>): Promise<PathError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof PathError, String(err));
    return err;
  }
  assert.fail('expected a PathError');
}

describe('path guard: benign paths', () => {
  let ws: Workspace;
  let guard: PathGuard;

  before(() => {
    ws = makeWorkspace({
      'src/a.ts': 'a',
      'a..b/file.txt': 'dots',
      '..foo': 'leading dots',
      'foo..': 'trailing dots',
      'with space/\u00fc file.txt': 'unicode',
      'emoji/\u{1F980}.md': 'crab',
      '.gitignore': 'out/\n',
      '.gitattributes': '* text=auto\n',
      '.gitmodules': '',
      '.git-blame-ignore-revs': '',
      '.github/workflows/ci.yml': 'on: push\n',
      '.gitlab/ci.yml': '',
      'foo.git/HEAD': 'not a repo',
      '.git/config': '[core]\n',
      '@scope/pkg.json': '{}',
      'node_modules/.pnpm/pkg@1/index.js': 'module.exports = 1;\n',
    });
    link('src/a.ts', ws.path('link-in-file'));
    link('src', ws.path('link-in-dir'));
    link('../src/a.ts', ws.path('nested/up-link'));
    link('src/not-yet.ts', ws.path('dangling-in'));
    fs.mkdirSync(ws.path('node_modules/pkg'));
    fs.linkSync(ws.path('node_modules/.pnpm/pkg@1/index.js'), ws.path('node_modules/pkg/index.js'));
    guard = makeGuard([ws.root], { home: ws.root });
  });

  after(removeTempDirs);

  it('a relative path joins the root; rel uses forward slashes', async () => {
    const r = await guard.resolve('src/a.ts', 'read');
    assert.deepEqual(r, { abs: ws.path('src/a.ts'), root: ws.root, rel: 'src/a.ts', input: 'src/a.ts', exists: true });
  });

  it('cleans ./, // and a/../ and accepts the root itself', async () => {
    assert.equal((await guard.resolve('./src//../src/./a.ts', 'read')).abs, ws.path('src/a.ts'));
    const root = await guard.resolve('.', 'list');
    assert.equal(root.abs, ws.root);
    assert.equal(root.rel, '');
  });

  it('a nested new file resolves through its deepest existing folder', async () => {
    const r = await guard.resolve('src/deep/er/new.ts', 'write');
    assert.equal(r.abs, ws.path('src/deep/er/new.ts'));
    assert.equal(r.exists, false);
    assert.equal(r.rel, 'src/deep/er/new.ts');
  });

  it('absolute paths, file:// URIs (percent-decoded), @mentions, ~ and trailing line breaks', async () => {
    const want = ws.path('with space/\u00fc file.txt');
    assert.equal((await guard.resolve(want, 'read')).abs, want);
    assert.equal((await guard.resolve(pathToFileURL(want).href, 'read')).abs, want);
    assert.equal((await guard.resolve('@src/a.ts', 'read')).abs, ws.path('src/a.ts'));
    assert.equal((await guard.resolve('~/src/a.ts', 'read')).abs, ws.path('src/a.ts'));
    assert.equal((await guard.resolve('src/a.ts\n', 'read')).abs, ws.path('src/a.ts'));
  });

  it('a real @scope folder at the root wins over the mention syntax', async () => {
    assert.equal((await guard.resolve('@scope/pkg.json', 'read')).abs, ws.path('@scope/pkg.json'));
  });

  it('names with dots, spaces, unicode and emoji stay what they are', async () => {
    for (const name of ['a..b/file.txt', '..foo', 'foo..', 'with space/\u00fc file.txt', 'emoji/\u{1F980}.md']) {
      const r = await guard.resolve(name, 'read');
      assert.equal(r.abs, ws.path(name));
      assert.ok(r.exists, name);
    }
  });

  it('a decomposed (NFD) name is its own file on a file system that keeps bytes', async () => {
    const nfd = 'with space/u\u0308 file.txt';
    const r = await guard.resolve(nfd, 'write');
    assert.ok(r.abs.startsWith(ws.root + path.sep));
    assert.equal(r.exists, fs.existsSync(ws.path(nfd)));
    if (!r.exists) assert.equal(path.basename(r.abs), 'u\u0308 file.txt');
  });

  it('symlinks that stay inside resolve to their targets', async () => {
    assert.equal((await guard.resolve('link-in-file', 'read')).abs, ws.path('src/a.ts'));
    assert.equal((await guard.resolve('link-in-dir/a.ts', 'write')).abs, ws.path('src/a.ts'));
    assert.equal((await guard.resolve('link-in-dir/new.ts', 'write')).abs, ws.path('src/new.ts'));
    assert.equal((await guard.resolve('nested/up-link', 'read')).abs, ws.path('src/a.ts'));
    const dangling = await guard.resolve('dangling-in', 'write');
    assert.equal(dangling.abs, ws.path('src/not-yet.ts'));
    assert.equal(dangling.exists, false);
  });

  it('.gitignore, .github/, .gitattributes and foo.git are not .git internals', async () => {
    for (const name of ['.gitignore', '.gitattributes', '.gitmodules', '.git-blame-ignore-revs', '.github/workflows/ci.yml', '.gitlab/ci.yml', 'foo.git/HEAD']) {
      assert.ok((await guard.resolve(name, 'write')).abs.endsWith(name.split('/').join(path.sep)), name);
      assert.equal(guard.isDenied(ws.path(name)), false, name);
    }
    assert.ok(guard.isDenied(ws.path('.git')));
    assert.ok(guard.isDenied(ws.path('.git/config')));
  });

  it('a hard-linked file inside the workspace (pnpm) can be read, but not written', async () => {
    const r = await guard.resolve('node_modules/pkg/index.js', 'read');
    assert.equal(r.abs, ws.path('node_modules/pkg/index.js'));
    const e = await refusal(guard.resolve('node_modules/pkg/index.js', 'write'));
    assert.equal(e.code, 'hardlink');
    assert.match(e.message, /2 hard links/);
  });

  it('.GIT is .git only where the file system ignores case', async () => {
    const probe = makeWorkspace({ '.git/config': 'x' }, 'case');
    const insensitive = fs.existsSync(probe.path('.GIT/config'));
    if (!insensitive) writeTree(probe.root, { '.GIT/config': 'a different file' });
    const g = makeGuard([probe.root]);
    const attempt = g.resolve('.GIT/config', 'read');
    if (insensitive) assert.equal((await refusal(attempt)).code, 'denied');
    else assert.equal((await attempt).abs, probe.path('.GIT/config'));
    assert.equal(g.isDenied(probe.path('.GIT/config')), insensitive);
  });

  it('a workspace folder that is itself a symlink works, and roots are canonical', async () => {
    const alias = path.join(tempDir('alias'), 'ws-link');
    fs.symlinkSync(ws.root, alias);
    const g = makeGuard([alias]);
    assert.deepEqual(g.roots, [ws.root]);
    assert.equal((await g.resolve('src/a.ts', 'read')).abs, ws.path('src/a.ts'));
    assert.equal((await g.resolve(path.join(alias, 'src', 'a.ts'), 'read')).abs, ws.path('src/a.ts'));
    assert.equal((await refusal(g.resolve(path.join(alias, '.git', 'config'), 'read'))).code, 'denied');
  });

  it('/workspace/… maps to the first root when /workspace does not exist here', async () => {
    const attempt = guard.resolve('/workspace/src/a.ts', 'read');
    if (fs.existsSync('/workspace')) assert.ok((await refusal(attempt)).code !== 'denied');
    else assert.equal((await attempt).abs, ws.path('src/a.ts'));
  });

  it('multi-root: a path may start with a folder name; a real folder of that name in the first root wins', async () => {
    const a = makeWorkspace({ 'x.txt': 'a', 'shared/x.txt': 'a-shared' }, 'ra');
    const b = makeWorkspace({ 'x.txt': 'b' }, 'rb');
    const g = new PathGuard(guardConfig([a.root, b.root], { rootNames: ['front', 'back'] }));
    const r = await g.resolve('back/x.txt', 'read');
    assert.equal(r.abs, b.path('x.txt'));
    assert.equal(r.root, b.root);
    assert.equal((await g.resolve('back', 'list')).rel, '');
    assert.equal((await g.resolve('x.txt', 'read')).abs, a.path('x.txt'));
    const shadow = new PathGuard(guardConfig([a.root, b.root], { rootNames: ['front', 'shared'] }));
    assert.equal((await shadow.resolve('shared/x.txt', 'read')).abs, a.path('shared/x.txt'));
    assert.equal((await g.resolve(b.path('x.txt'), 'read')).root, b.root);
  });

  it('allowPaths adds roots (also as ~/…); the innermost root is reported', async () => {
    const extra = makeWorkspace({ 'ok.txt': 'ok', 'inner/y.txt': 'y' }, 'extra');
    const g = makeGuard([ws.root], { allowPaths: [extra.root, extra.path('inner')] });
    assert.deepEqual(g.roots, [ws.root, extra.root, extra.path('inner')]);
    assert.equal((await g.resolve(extra.path('ok.txt'), 'read')).root, extra.root);
    assert.equal((await g.resolve(extra.path('inner/y.txt'), 'read')).rel, 'y.txt');
    const byHome = makeGuard([ws.root], { home: path.dirname(extra.root), allowPaths: [`~/${path.basename(extra.root)}`] });
    assert.equal((await byHome.resolve(extra.path('ok.txt'), 'write')).root, extra.root);
  });

  it('workspaceOnly off: outside paths are fine, deny rules still hold', async () => {
    const other = makeWorkspace({ 'o.txt': 'o', '.git/config': 'x' }, 'other');
    const store = makeWorkspace({ 'db.sqlite': 'db' }, 'store');
    const g = makeGuard([ws.root], { workspaceOnly: false, alwaysDeny: [store.root] });
    const r = await g.resolve(other.path('o.txt'), 'write');
    assert.equal(r.abs, other.path('o.txt'));
    assert.equal(r.root, path.parse(r.abs).root);
    assert.equal((await refusal(g.resolve(store.path('db.sqlite'), 'read'))).code, 'denied');
    assert.equal((await refusal(g.resolve(ws.path('.git/config'), 'read'))).code, 'denied');
  });
});

describe('path guard: refusal messages', () => {
  let ws: Workspace;

  before(() => {
    ws = makeWorkspace({ 'a.txt': 'a', '.git/config': 'x', '.env': 'K=v' });
  });

  after(removeTempDirs);

  it('outside names both settings that widen the boundary', async () => {
    const e = await refusal(makeGuard([ws.root]).resolve('../elsewhere.txt', 'read'));
    assert.equal(e.code, 'outside');
    assert.match(e.message, /pincer\.fs\.allowPaths/);
    assert.match(e.message, /pincer\.fs\.workspaceOnly/);
  });

  it('denied names the rule and pincer.fs.denyPaths but never a way around it', async () => {
    const g = makeGuard([ws.root], { denyPaths: ['**/.git/**', '**/.env'] });
    for (const p of ['.git/config', '.env']) {
      const e = await refusal(g.resolve(p, 'read'));
      assert.equal(e.code, 'denied');
      assert.match(e.message, /pincer\.fs\.denyPaths/);
      assert.doesNotMatch(e.message, /allowPaths|workspaceOnly|remove|turn off/i);
    }
  });

  it("Pincer's storage is refused without naming any setting", async () => {
    const store = tempDir('store');
    const e = await refusal(makeGuard([ws.root], { alwaysDeny: [store] }).resolve(path.join(store, 'x.db'), 'read'));
    assert.equal(e.code, 'denied');
    assert.match(e.message, /Pincer's own storage/);
    assert.doesNotMatch(e.message, /pincer\.fs\./);
  });

  it('no workspace folder: relative paths are explained, absolute ones are outside', async () => {
    const g = makeGuard([]);
    assert.match((await refusal(g.resolve('a.txt', 'read'))).message, /no workspace folder is open/);
    assert.equal((await refusal(g.resolve(ws.path('a.txt'), 'read'))).code, 'outside');
  });

  it('a NUL byte and an empty path are invalid with a clear message', async () => {
    const g = makeGuard([ws.root]);
    assert.match((await refusal(g.resolve('a\0b', 'read'))).message, /NUL byte/);
    assert.match((await refusal(g.resolve('', 'read'))).message, /The path is empty/);
  });
});
