// Deny rules on their own (the matcher behind PathGuard.isDenied) and through the guard: pattern
// forms, the .git prefix trap, case and Unicode spellings, absolute entries and walkers' use.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { DEFAULT_DENY_PATHS, DenyRules } from '../../../src/core/fs/path-deny';
import { PathError } from '../../../src/core/fs/types';
import { link, makeGuard, makeWorkspace, removeTempDirs, tempDir } from '../../support/fs-fixtures';

const ROOT = path.resolve(path.sep, 'ws');
const at = (rel: string) => path.join(ROOT, ...rel.split('/'));

function rules(deny: string[], opts: { nocase?: boolean; always?: string[]; home?: string } = {}): DenyRules {
  return new DenyRules(deny, opts.always ?? [], opts.home ?? path.resolve(path.sep, 'home', 'u'), [{ root: ROOT, nocase: opts.nocase ?? false }]);
}

describe('deny rules', () => {
  after(removeTempDirs);

  it('the default hides every .git folder and all inside it, and nothing that merely starts with .git', () => {
    const r = rules([...DEFAULT_DENY_PATHS]);
    for (const p of ['.git', '.git/config', '.git/objects/ab/cdef', 'vendor/lib/.git', 'vendor/lib/.git/HEAD']) assert.ok(r.match(at(p)), p);
    for (const p of ['.gitignore', '.github', '.github/workflows/ci.yml', '.gitattributes', '.gitmodules', '.git2/x', '.gitx', 'foo.git/HEAD', 'src/git/x', 'a/.github/.git-x']) {
      assert.equal(r.match(at(p)), undefined, p);
    }
  });

  it('a rule hides its folder and everything below, whatever the spelling of the pattern', () => {
    for (const pattern of ['secrets', 'secrets/', './secrets', 'secrets/**', './secrets/**/']) {
      const r = rules([pattern]);
      assert.ok(r.match(at('secrets')), pattern);
      assert.ok(r.match(at('secrets/deep/key.pem')), pattern);
      assert.equal(r.match(at('secrets2/x')), undefined, pattern);
      assert.equal(r.match(at('src/secrets')), undefined, `${pattern} is anchored at the root`);
    }
  });

  it('**/name matches at any depth, including the root; dotfiles match without special syntax', () => {
    const r = rules(['**/.env', '*.pem']);
    for (const p of ['.env', 'a/.env', 'a/b/c/.env', 'key.pem', '.hidden.pem']) assert.ok(r.match(at(p)), p);
    for (const p of ['.env.example', 'a/.envrc', 'a/key.pem', 'env']) assert.equal(r.match(at(p)), undefined, p);
  });

  it('the hit names the rule as written', () => {
    assert.deepEqual(rules(['./secrets/**']).match(at('secrets/a')), { rule: './secrets/**', configurable: true });
  });

  it('on a case-insensitive root, any casing of a denied name is denied; on a sensitive one it is another file', () => {
    const insensitive = rules([...DEFAULT_DENY_PATHS, '**/.env'], { nocase: true });
    const sensitive = rules([...DEFAULT_DENY_PATHS, '**/.env'], { nocase: false });
    for (const p of ['.GIT/config', '.Git/HEAD', 'sub/.gIt/config', '.ENV', 'a/.Env']) {
      assert.ok(insensitive.match(at(p)), p);
      assert.equal(sensitive.match(at(p)), undefined, p);
    }
    assert.equal(insensitive.match(at('.GITIGNORE')), undefined);
  });

  it('NFC and NFD spellings of a denied name are both denied, whichever the rule uses', () => {
    for (const pattern of ['caf\u00e9/**', 'cafe\u0301/**']) {
      const r = rules([pattern]);
      assert.ok(r.match(at('caf\u00e9/menu.txt')), pattern);
      assert.ok(r.match(at('cafe\u0301/menu.txt')), pattern);
      assert.equal(r.match(at('cafe/menu.txt')), undefined, pattern);
    }
  });

  it('fullwidth and lookalike characters are not folded into the names they resemble', () => {
    const r = rules([...DEFAULT_DENY_PATHS]);
    assert.equal(r.match(at('\uff0egit/config')), undefined);
    assert.ok(r.match(at('.git/config')));
  });

  it('absolute entries: a folder (with a separator-aware prefix), a glob, and ~/', () => {
    const home = path.resolve(path.sep, 'home', 'u');
    const r = rules([path.resolve(path.sep, 'srv', 'keys'), `${path.resolve(path.sep, 'data')}${path.sep}*.sqlite`, '~/.ssh'], { home });
    assert.ok(r.match(path.resolve(path.sep, 'srv', 'keys')));
    assert.ok(r.match(path.resolve(path.sep, 'srv', 'keys', 'id_rsa')));
    assert.equal(r.match(path.resolve(path.sep, 'srv', 'keys2', 'x')), undefined);
    assert.ok(r.match(path.resolve(path.sep, 'data', 'app.sqlite')));
    assert.ok(r.match(path.resolve(path.sep, 'data', 'app.sqlite', 'inner')));
    assert.equal(r.match(path.resolve(path.sep, 'data', 'sub', 'app.sqlite')), undefined);
    assert.ok(r.match(path.join(home, '.ssh', 'id_ed25519')));
    assert.equal(r.match(path.join(home, '.sshx')), undefined);
  });

  it('always-denied folders are not configurable and hold outside any root', () => {
    const store = path.resolve(path.sep, 'var', 'pincer');
    const r = rules([], { always: [store] });
    assert.deepEqual(r.match(path.join(store, 'db')), { rule: store, configurable: false });
    assert.equal(r.match(`${store}-other`), undefined);
  });

  it('relative rules apply inside roots only', () => {
    const r = rules(['**/.env']);
    assert.equal(r.match(path.resolve(path.sep, 'elsewhere', '.env')), undefined);
  });

  it('matching stays linear: 20,000 deep paths against several rules finish quickly', () => {
    const r = rules([...DEFAULT_DENY_PATHS, '**/.env', 'secrets', '**/*.{pem,key}', 'build/**/cache']);
    // Bounded by the test's timeout: a quadratic or exponential run would take minutes.
    let denied = 0;
    for (let i = 0; i < 20_000; i++) if (r.match(at(`src/a${i % 7}/b/c/d/e/file${i}.ts`))) denied++;
    assert.equal(denied, 0);
  });
});

describe('deny rules through the guard', () => {
  after(removeTempDirs);

  it('denied for read, write and list, via links and traversal, and isDenied answers walkers', async () => {
    const ws = makeWorkspace({ '.git/config': 'x', 'src/a.ts': 'a', 'conf/secret.json': '{}', 'conf/public.json': '{}' });
    link('conf', ws.path('alias'));
    const g = makeGuard([ws.root], { denyPaths: ['**/.git/**', 'conf/secret.json'] });
    for (const [p, access] of [['.git', 'list'], ['.git/config', 'read'], ['.git/new', 'write'], ['conf/secret.json', 'write'], ['alias/secret.json', 'read'], ['src/../conf/secret.json', 'read']] as const) {
      await assert.rejects(g.resolve(p, access), (e: unknown) => e instanceof PathError && e.code === 'denied', `${p} ${access}`);
    }
    assert.equal((await g.resolve('alias/public.json', 'read')).abs, ws.path('conf/public.json'));
    assert.ok(g.isDenied(ws.path('.git')));
    assert.ok(g.isDenied(ws.path('conf/secret.json')));
    assert.ok(!g.isDenied(ws.path('conf/public.json')));
    assert.ok(!g.isDenied(ws.root));
  });

  it('isDenied gives the same answer for every spelling of a path: clean, with . / .. / empty segments, trailing slash, relative', () => {
    const ws = makeWorkspace({ '.git/config': 'x', 'conf/secret.json': '{}', 'conf/public.json': '{}', 'a/...': 'x' });
    const g = makeGuard([ws.root], { denyPaths: ['**/.git/**', 'conf/secret.json'] });
    const spell = (rel: string) => {
      const clean = ws.path(rel);
      const parent = path.dirname(clean);
      const name = path.basename(clean);
      return [clean, `${parent}//${name}`, `${parent}/./${name}`, `${parent}/../${path.basename(parent)}/${name}`, `${clean}/`, `${clean}/.`,
        path.relative(process.cwd(), clean)];
    };
    for (const [rel, denied] of [['.git/config', true], ['.git', true], ['conf/secret.json', true], ['conf/public.json', false], ['a/...', false]] as const) {
      for (const p of spell(rel)) assert.equal(g.isDenied(p), denied, p);
    }
    // Hostile: a clean-looking start that climbs into a denied path, and back out of one.
    assert.ok(g.isDenied(`${ws.path('conf/public.json')}/../secret.json`));
    assert.ok(g.isDenied(`${ws.path('src')}/../.git/config`));
    assert.ok(!g.isDenied(`${ws.path('.git')}/../conf/public.json`));
  });

  it('a .git that is itself a link elsewhere in the workspace is still denied as typed', async () => {
    const ws = makeWorkspace({ 'repo-data/config': '[core]', 'src/a.ts': 'a' });
    link('repo-data', ws.path('.git'));
    const g = makeGuard([ws.root]);
    await assert.rejects(g.resolve('.git/config', 'read'), (e: unknown) => e instanceof PathError && e.code === 'denied');
    assert.equal((await g.resolve('repo-data/config', 'read')).abs, ws.path('repo-data/config'));
  });

  it('rules apply relative to allowed extra roots too', async () => {
    const ws = makeWorkspace({ 'a.txt': 'a' });
    const extra = makeWorkspace({ '.git/HEAD': 'ref', 'ok.txt': 'ok' }, 'extra');
    const g = makeGuard([ws.root], { allowPaths: [extra.root] });
    await assert.rejects(g.resolve(extra.path('.git/HEAD'), 'read'), (e: unknown) => e instanceof PathError && e.code === 'denied');
    assert.equal((await g.resolve(extra.path('ok.txt'), 'read')).root, extra.root);
  });

  it('an always-denied folder given through a symlink is denied under its real path too', async () => {
    const ws = makeWorkspace({ 'a.txt': 'a' });
    const store = tempDir('store');
    const alias = path.join(tempDir('alias'), 'store-link');
    link(store, alias);
    const g = makeGuard([ws.root], { alwaysDeny: [alias], workspaceOnly: false });
    assert.ok(g.isDenied(path.join(store, 'db.sqlite')));
    await assert.rejects(g.resolve(path.join(store, 'db.sqlite'), 'write'), (e: unknown) => e instanceof PathError && e.code === 'denied');
  });
});
