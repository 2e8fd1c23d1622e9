// resolveSync (the exec judge's write check) against resolve (the file tools): one logic, two
// drivers, so every hostile input must get the same answer from both — the same canonical path and
// recorded identity, or the same refusal with the same message. And resolveSync caches nothing: a
// folder swapped for a link after one check is seen by the next.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PathGuard } from '../../../src/core/fs/path-guard';
import { identityOf } from '../../../src/core/fs/path-open';
import { PathError, type Access, type ResolvedPath } from '../../../src/core/fs/types';
import { guardConfig, link, removeTempDirs, tempDir, writeTree } from '../../support/fs-fixtures';

type Outcome = { ok: ResolvedPath; identity: unknown } | { code: PathError['code']; message: string };

function outcome(run: () => ResolvedPath): Outcome {
  try {
    const ok = run();
    return { ok, identity: identityOf(ok) };
  } catch (err) {
    assert.ok(err instanceof PathError, `not a PathError: ${String(err)}`);
    return { code: err.code, message: err.message };
  }
}

async function outcomeAsync(run: () => Promise<ResolvedPath>): Promise<Outcome> {
  try {
    const ok = await run();
    return { ok, identity: identityOf(ok) };
  } catch (err) {
    assert.ok(err instanceof PathError, `not a PathError: ${String(err)}`);
    return { code: err.code, message: err.message };
  }
}

describe('path guard: resolveSync answers exactly as resolve', () => {
  let base: string;
  let ws: string;
  let outside: string;
  let guard: PathGuard;

  before(() => {
    base = tempDir('sync');
    ws = path.join(base, 'ws');
    outside = path.join(base, 'outside');
    writeTree(base, {
      'ws/src/a.ts': 'a',
      'ws/src/deep/b.ts': 'b',
      'ws/.git/config': '[core]\n',
      'ws/secrets/key': 'k',
      'ws/file.txt': 'f',
      'ws/node_modules/.pnpm/pkg@1/index.js': 'x',
      'ws2/secret.txt': 's',
      'outside/secret.txt': 'SECRET',
      'outside/hl.txt': 'hard',
      'storage/db.sqlite': 'db',
    });
    link('../outside/secret.txt', path.join(ws, 'link-out-file'));
    link('../outside', path.join(ws, 'link-out-dir'));
    link('../../outside', path.join(ws, 'src', 'up'));
    link('src/a.ts', path.join(ws, 'link-in'));
    link('src', path.join(ws, 'link-in-dir'));
    link('../outside/not-yet.txt', path.join(ws, 'dangling-out'));
    link('src/later.ts', path.join(ws, 'dangling-in'));
    link('link-out-dir/new-via.txt', path.join(ws, 'dangling-via'));
    link('d2', path.join(ws, 'd1'));
    link('../outside/missing/later.txt', path.join(ws, 'd2'));
    link('loop2', path.join(ws, 'loop1'));
    link('loop1', path.join(ws, 'loop2'));
    link('self', path.join(ws, 'self'));
    link('.git', path.join(ws, 'git-link'));
    link(path.join(base, 'storage'), path.join(ws, 'link-to-store'));
    fs.linkSync(path.join(outside, 'hl.txt'), path.join(ws, 'hardlink-out'));
    fs.mkdirSync(path.join(ws, 'node_modules', 'pkg'));
    fs.linkSync(path.join(ws, 'node_modules', '.pnpm', 'pkg@1', 'index.js'), path.join(ws, 'node_modules', 'pkg', 'index.js'));
    guard = new PathGuard(guardConfig([ws], { home: path.join(base, 'home'), denyPaths: ['**/.git/**', 'secrets/**'], alwaysDeny: [path.join(base, 'storage')] }));
  });

  after(removeTempDirs);

  const inputs = (): string[] => [
    'src/a.ts', 'src', '.', 'src/new.ts', 'src/x/y/z/new.ts', 'missing/deeper/still/new.txt', './src//../src/./a.ts',
    'file.txt/child', 'file.txt/a/b', '../outside/secret.txt', '../ws2/secret.txt', '/etc/passwd', `${ws}2/new.txt`,
    'link-out-file', 'link-out-dir/secret.txt', 'link-out-dir/new.txt', 'src/up/secret.txt', 'src/up/x/y.txt',
    'link-in', 'link-in-dir/a.ts', 'link-in-dir/new.ts', 'dangling-out', 'dangling-in', 'dangling-via', 'd1', 'd1/under',
    'loop1', 'loop1/x.txt', 'self', 'hardlink-out', 'node_modules/pkg/index.js', '.git/config', '.git/hooks/new',
    'git-link/config', 'secrets/key', 'secrets/new', 'link-to-store/db.sqlite', path.join(base, 'storage', 'x'),
    '~/notes.txt', pathToFileURL(path.join(ws, 'src', 'a.ts')).href, `${pathToFileURL(ws).href}/%2e%2e/outside/secret.txt`,
    '@src/a.ts', '/workspace/src/a.ts', `${'x'.repeat(300)}/new.txt`, `${'../'.repeat(50)}etc/passwd`,
    'src/a.ts\0../../etc/passwd', '', '  ', 'src/a.ts\n',
  ];

  for (const access of ['read', 'write', 'list'] as Access[]) {
    it(`every hostile and ordinary input, for ${access}`, async () => {
      const list = inputs();
      assert.ok(list.length >= 45);
      for (const input of list) {
        const sync = outcome(() => guard.resolveSync(input, access));
        const async_ = await outcomeAsync(() => guard.resolve(input, access));
        assert.deepEqual(sync, async_, `${JSON.stringify(input)} (${access})`);
      }
    });
  }

  it('refuses the same way: escapes, loops, hard links and denied paths', () => {
    const code = (input: string, access: Access = 'write') => {
      const o = outcome(() => guard.resolveSync(input, access));
      return 'code' in o ? o.code : 'ok';
    };
    assert.equal(code('link-out-dir/new.txt'), 'symlink-escape');
    assert.equal(code('dangling-out'), 'symlink-escape');
    assert.equal(code('d1'), 'symlink-escape');
    assert.equal(code('loop1/x.txt'), 'invalid');
    assert.equal(code('hardlink-out'), 'hardlink');
    assert.equal(code('git-link/config'), 'denied');
    assert.equal(code('../outside/secret.txt'), 'outside');
    assert.equal(code('missing/deeper/still/new.txt'), 'ok');
  });

  it('caches nothing: a folder swapped for a link to outside is seen by the very next check', () => {
    const dir = path.join(ws, 'swap');
    fs.mkdirSync(dir);
    try {
      assert.equal(guard.resolveSync('swap/out.log', 'write').abs, path.join(dir, 'out.log'));
      fs.rmdirSync(dir);
      fs.symlinkSync(outside, dir);
      assert.throws(() => guard.resolveSync('swap/out.log', 'write'), (e: unknown) => e instanceof PathError && e.code === 'symlink-escape');
      fs.unlinkSync(dir);
      fs.mkdirSync(dir);
      assert.equal(guard.resolveSync('swap/out.log', 'write').exists, false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(fs.readdirSync(outside).sort(), ['hl.txt', 'secret.txt']);
  });
});
