// The path-escape corpus: every way out of the workspace we know of, against real folders, real
// symlinks and real hard links. Each case must be refused with the right code, or (for lookalike
// tricks) stay inside the workspace. The last test counts: at least 40 cases, 0 escapes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PathGuard } from '../../../src/core/fs/path-guard';
import { isWithin } from '../../../src/core/fs/path-canonical';
import { PathError, type Access, type ResolvedPath } from '../../../src/core/fs/types';
import { guardConfig, link, removeTempDirs, tempDir, writeTree } from '../../support/fs-fixtures';

type Code = PathError['code'];
/** Refused with one of these codes, or 'inside': accepted, but it must name a path in the workspace. */
type Expect = Code | Code[] | 'inside';

interface Case {
  name: string;
  input: (w: World) => string;
  access?: Access;
  expect: Expect;
  guard?: 'multi' | 'allow';
}

interface World {
  base: string;
  ws: string;
  wsB: string;
  outside: string;
  allowed: string;
  storage: string;
  innerStorage: string;
}

const rel = (s: string) => () => s;

const CASES: Case[] = [
  // Traversal.
  { name: 'parent traversal', input: rel('../outside/secret.txt'), expect: 'outside' },
  { name: 'deep traversal to /etc/passwd', input: rel('../../../../../../../../etc/passwd'), expect: 'outside' },
  { name: 'traversal after a real folder', input: rel('src/../../outside/secret.txt'), expect: 'outside' },
  { name: 'traversal with ./ and //', input: rel('./src/.//../../outside/secret.txt'), expect: 'outside' },
  { name: 'traversal through a file name', input: rel('src/a.ts/../../../outside/secret.txt'), expect: 'outside' },
  { name: '100 levels of ../', input: rel(`${'../'.repeat(100)}etc/passwd`), expect: 'outside' },
  { name: 'bare ..', input: rel('..'), access: 'list', expect: 'outside' },
  { name: '../outside/. for a listing', input: rel('../outside/.'), access: 'list', expect: 'outside' },
  { name: '..\\ backslash traversal (a name on POSIX, a traversal on Windows)', input: rel('..\\outside\\secret.txt'), expect: path.sep === '\\' ? 'outside' : 'inside' },
  { name: '@ mention with traversal', input: rel('@../outside/secret.txt'), expect: 'outside' },
  // Absolute paths and the prefix trap.
  { name: 'absolute /etc/passwd', input: rel('/etc/passwd'), expect: 'outside' },
  { name: 'absolute path outside', input: (w) => path.join(w.outside, 'secret.txt'), expect: 'outside' },
  { name: 'prefix trap: /ws admits not /ws2', input: (w) => `${w.ws}2${path.sep}secret.txt`, expect: 'outside' },
  { name: 'prefix trap, relative', input: (w) => `../${path.basename(w.ws)}2/secret.txt`, expect: 'outside' },
  { name: 'prefix trap, written for writing', input: (w) => `${w.ws}2${path.sep}new.txt`, access: 'write', expect: 'outside' },
  { name: '/workspace/.. container path', input: rel('/workspace/../etc/passwd'), expect: 'outside' },
  // URIs.
  { name: 'file:// URI outside', input: (w) => pathToFileURL(path.join(w.outside, 'secret.txt')).href, expect: 'outside' },
  { name: 'file:// with %2e%2e', input: (w) => `${pathToFileURL(w.ws).href}/%2e%2e/outside/secret.txt`, expect: 'outside' },
  { name: 'file:// with %2E%2E twice under src', input: (w) => `${pathToFileURL(w.ws).href}/src/%2E%2E/%2E%2E/outside/secret.txt`, expect: 'outside' },
  { name: 'file:// with an encoded slash', input: (w) => `${pathToFileURL(w.ws).href}/%2e%2e%2Foutside/secret.txt`, expect: path.sep === '/' ? 'invalid' : ['invalid', 'outside'] },
  { name: 'file:// with a host', input: rel('file://evil.example/share/secret.txt'), expect: path.sep === '/' ? 'invalid' : ['invalid', 'outside'] },
  // Home.
  { name: '~ itself (home is outside)', input: rel('~'), access: 'list', expect: 'outside' },
  { name: '~/ file outside', input: rel('~/notes.txt'), expect: 'outside' },
  { name: '~/.. traversal', input: rel('~/../outside/secret.txt'), expect: 'outside' },
  // Symlinks.
  { name: 'symlinked file leaving', input: rel('link-out-file'), expect: 'symlink-escape' },
  { name: 'symlinked file leaving, for writing', input: rel('link-out-file'), access: 'write', expect: 'symlink-escape' },
  { name: 'file in a symlinked folder leaving', input: rel('link-out-dir/secret.txt'), expect: 'symlink-escape' },
  { name: 'new file in a symlinked folder leaving', input: rel('link-out-dir/new.txt'), access: 'write', expect: 'symlink-escape' },
  { name: 'listing a symlinked folder leaving', input: rel('link-out-dir'), access: 'list', expect: 'symlink-escape' },
  { name: 'relative link deep inside leaving', input: rel('src/up/secret.txt'), expect: 'symlink-escape' },
  { name: 'dangling link pointing outside', input: rel('dangling-out'), access: 'write', expect: 'symlink-escape' },
  { name: 'dangling link through a leaving folder link', input: rel('dangling-via'), access: 'write', expect: 'symlink-escape' },
  { name: 'chained file links ending outside', input: rel('chain1'), expect: 'symlink-escape' },
  { name: 'chained folder links ending outside', input: rel('cd1/secret.txt'), expect: 'symlink-escape' },
  { name: 'chained dangling links ending outside', input: rel('dchain1'), access: 'write', expect: 'symlink-escape' },
  { name: 'a link loop', input: rel('loop1'), expect: 'invalid' },
  { name: 'a path under a link loop', input: rel('loop1/x.txt'), access: 'write', expect: 'invalid' },
  { name: 'a self-referencing link', input: rel('self'), expect: 'invalid' },
  // Hard links.
  { name: 'hard link to a file outside, written', input: rel('hardlink-out'), access: 'write', expect: 'hardlink' },
  { name: 'pnpm-style hard link, written', input: rel('node_modules/pkg/index.js'), access: 'write', expect: 'hardlink' },
  // Denied paths.
  { name: '.git/config read', input: rel('.git/config'), expect: 'denied' },
  { name: '.git/config written', input: rel('.git/config'), access: 'write', expect: 'denied' },
  { name: '.git listed', input: rel('.git'), access: 'list', expect: 'denied' },
  { name: 'new file inside .git', input: rel('.git/hooks/pre-commit'), access: 'write', expect: 'denied' },
  { name: '.git reached by traversal', input: rel('src/../.git/HEAD'), expect: 'denied' },
  { name: '.git as an absolute path', input: (w) => path.join(w.ws, '.git', 'config'), expect: 'denied' },
  { name: '.git as a file:// URI', input: (w) => pathToFileURL(path.join(w.ws, '.git', 'config')).href, expect: 'denied' },
  { name: 'a link into .git', input: rel('link-to-git'), expect: 'denied' },
  { name: 'a nested repository .git', input: rel('vendor/lib/.git/config'), expect: 'denied' },
  { name: '**/.env deep', input: rel('src/.env'), expect: 'denied' },
  { name: 'decomposed (NFD) spelling of a denied name', input: rel('se\u0301cret/key.txt'), expect: 'denied' },
  { name: "Pincer's storage inside the workspace", input: rel('.pincer-store/db.sqlite'), expect: 'denied' },
  { name: "Pincer's storage outside, absolute", input: (w) => path.join(w.storage, 'db.sqlite'), expect: 'denied' },
  { name: "Pincer's storage via a link inside", input: rel('link-to-store/db.sqlite'), expect: 'denied' },
  // Allowed extra roots.
  { name: '.. inside an allowed extra root', input: (w) => `${w.allowed}${path.sep}..${path.sep}outside${path.sep}secret.txt`, guard: 'allow', expect: 'outside' },
  { name: 'a link leaving an allowed extra root', input: (w) => path.join(w.allowed, 'out', 'secret.txt'), guard: 'allow', expect: 'symlink-escape' },
  { name: 'prefix trap on an allowed root', input: (w) => `${w.allowed}-x${path.sep}secret.txt`, guard: 'allow', expect: 'outside' },
  // Multi-root.
  { name: 'another root folder name, then ..', input: rel('wsB/../outside/secret.txt'), guard: 'multi', expect: 'outside' },
  { name: 'another root folder name, then ../..', input: rel('wsB/../../../etc/passwd'), guard: 'multi', expect: 'outside' },
  { name: 'a folder name that is not a root', input: (w) => `../${path.basename(w.outside)}/secret.txt`, guard: 'multi', expect: 'outside' },
  // Lookalikes that must stay names.
  { name: 'fullwidth ．．／', input: rel('．．／．．／outside／secret.txt'), expect: 'inside' },
  { name: 'division slash ∕ and one-dot leaders', input: rel('..\u2215..\u2215outside\u2215secret.txt'), expect: 'inside' },
  { name: 'two-dot leader ‥', input: rel('\u2025/\u2025/outside/secret.txt'), expect: 'inside' },
  { name: 'percent-encoded .. outside a URI', input: rel('%2e%2e/%2e%2e/outside/secret.txt'), expect: 'inside' },
  { name: 'a drive letter on POSIX', input: rel('C:\\Windows\\win.ini'), expect: path.sep === '\\' ? 'outside' : 'inside' },
  { name: 'NUL byte', input: rel('src/a.ts\0../../../etc/passwd'), expect: 'invalid' },
  { name: 'empty path', input: rel(''), expect: 'invalid' },
  { name: 'blank path', input: rel('   '), expect: 'invalid' },
];

describe('path guard: escape corpus', () => {
  let w: World;
  const guards: Record<'plain' | 'multi' | 'allow', PathGuard> = {} as never;
  const escapes: string[] = [];

  before(() => {
    const base = tempDir('escape');
    const ws = path.join(base, 'ws');
    w = {
      base,
      ws,
      wsB: path.join(base, 'wsB'),
      outside: path.join(base, 'outside'),
      allowed: path.join(base, 'allowed'),
      storage: path.join(base, 'storage'),
      innerStorage: path.join(ws, '.pincer-store'),
    };
    writeTree(base, {
      'ws/src/a.ts': 'export {};\n',
      'ws/.git/config': '[core]\n',
      'ws/.git/HEAD': 'ref: refs/heads/main\n',
      'ws/vendor/lib/.git/config': '[core]\n',
      'ws/src/.env': 'TOKEN=x\n',
      'ws/s\u00e9cret/key.txt': 'k',
      'ws/.pincer-store/db.sqlite': 'db',
      'ws/node_modules/.pnpm/pkg@1/index.js': 'module.exports = 1;\n',
      'ws2/secret.txt': 'ws2 secret',
      'wsB/file.txt': 'b',
      'outside/secret.txt': 'SECRET',
      'outside/hl.txt': 'hard',
      'allowed/ok.txt': 'ok',
      'allowed-x/secret.txt': 'x',
      'storage/db.sqlite': 'db',
    });
    link('../outside/secret.txt', path.join(ws, 'link-out-file'));
    link('../outside', path.join(ws, 'link-out-dir'));
    link('../../outside', path.join(ws, 'src', 'up'));
    link('../outside/not-yet.txt', path.join(ws, 'dangling-out'));
    link('link-out-dir/new-via.txt', path.join(ws, 'dangling-via'));
    link('chain2', path.join(ws, 'chain1'));
    link('chain3', path.join(ws, 'chain2'));
    link('../outside/secret.txt', path.join(ws, 'chain3'));
    link('cd2', path.join(ws, 'cd1'));
    link('../outside', path.join(ws, 'cd2'));
    link('dchain2', path.join(ws, 'dchain1'));
    link('../outside/missing/later.txt', path.join(ws, 'dchain2'));
    link('loop2', path.join(ws, 'loop1'));
    link('loop1', path.join(ws, 'loop2'));
    link('self', path.join(ws, 'self'));
    link('.git/config', path.join(ws, 'link-to-git'));
    link(w.storage, path.join(ws, 'link-to-store'));
    link('../outside', path.join(w.allowed, 'out'));
    fs.linkSync(path.join(w.outside, 'hl.txt'), path.join(ws, 'hardlink-out'));
    fs.mkdirSync(path.join(ws, 'node_modules', 'pkg'));
    fs.linkSync(path.join(ws, 'node_modules', '.pnpm', 'pkg@1', 'index.js'), path.join(ws, 'node_modules', 'pkg', 'index.js'));
    const common = {
      home: path.join(base, 'home'),
      denyPaths: ['**/.git/**', '**/.env', 's\u00e9cret/**'],
      alwaysDeny: [w.storage, w.innerStorage],
    };
    guards.plain = new PathGuard(guardConfig([ws], common));
    guards.multi = new PathGuard(guardConfig([ws, w.wsB], { ...common, rootNames: ['ws', 'wsB'] }));
    guards.allow = new PathGuard(guardConfig([ws], { ...common, allowPaths: [w.allowed] }));
  });

  after(removeTempDirs);

  for (const c of CASES) {
    it(c.name, async () => {
      const guard = guards[c.guard ?? 'plain'];
      const input = c.input(w);
      let result: ResolvedPath | undefined;
      let error: unknown;
      try {
        result = await guard.resolve(input, c.access ?? 'read');
      } catch (err) {
        error = err;
      }
      if (result && !guard.roots.some((r) => isWithin(r, result.abs, false))) escapes.push(`${c.name}: ${input} → ${result.abs}`);
      if (c.expect === 'inside') {
        assert.ok(result, `expected to stay inside, got ${String(error)}`);
        assert.ok(isWithin(w.ws, result.abs, false), result.abs);
        return;
      }
      assert.ok(error instanceof PathError, `expected a refusal for ${JSON.stringify(input)}, got ${result ? result.abs : String(error)}`);
      const codes = Array.isArray(c.expect) ? c.expect : [c.expect];
      assert.ok(codes.includes(error.code), `${error.code}: ${error.message}`);
    });
  }

  it('counts: at least 40 cases, 0 escapes, the outside files untouched', () => {
    assert.ok(CASES.length >= 40, `only ${CASES.length} cases`);
    assert.deepEqual(escapes, []);
    assert.equal(fs.readFileSync(path.join(w.outside, 'secret.txt'), 'utf8'), 'SECRET');
    assert.ok(!fs.existsSync(path.join(w.outside, 'not-yet.txt')));
  });
});
