// The lexical path guard of virtual workspaces: every way out of a folder that text alone can
// express must be refused (with no stat asked outside the roots), and ordinary paths must work.
import assert from 'node:assert/strict';
import { LexicalPathGuard } from '../../../src/core/fs/lexical-guard';
import { PathError } from '../../../src/core/fs/types';
import { planWorkspace } from '../../../src/core/fs/virtual-folders';
import { MemoryWorkspaceFs } from '../../support/memory-workspace-fs';

const folders = planWorkspace([
  { uri: 'memfs:/proj', scheme: 'memfs', uriPath: '/proj', name: 'proj' },
  { uri: 'vscode-vfs://github/acme/proj-b', scheme: 'vscode-vfs', uriPath: '/acme/proj-b', name: 'proj-b' },
]).virtual;

function world(denyPaths = ['**/.git/**', '**/.env', 'secrets/**']) {
  const fs = new MemoryWorkspaceFs({
    '/proj/src/a.ts': 'export const a = 1;\n',
    '/proj/README.md': '# proj\n',
    '/proj/.env': 'TOKEN=x\n',
    '/proj/.git/config': '[core]\n',
    '/proj/secrets/key.txt': 'k\n',
    '/proj/@types/x.d.ts': 'declare const x: 1;\n',
    '/acme/proj-b/lib/b.ts': 'export const b = 2;\n',
    '/projection/other.txt': 'not in the workspace\n',
  });
  return { fs, guard: new LexicalPathGuard({ folders, denyPaths, fs }) };
}

const isInsideRoots = (abs: string) => ['/proj', '/acme/proj-b'].some((r) => abs === r || abs.startsWith(`${r}/`));

async function refusal(guard: LexicalPathGuard, input: string): Promise<PathError> {
  try {
    const r = await guard.resolve(input, 'read');
    assert.fail(`${JSON.stringify(input)} was accepted as ${r.abs}`);
  } catch (e) {
    if (!(e instanceof PathError)) throw e;
    return e;
  }
}

const HOSTILE: [input: string, code: PathError['code']][] = [
  ['../x', 'outside'],
  ['../../../../etc/passwd', 'outside'],
  ['src/../../x', 'outside'],
  ['./src/../../../proj-b', 'outside'],
  ['..', 'outside'],
  ['/etc/passwd', 'outside'],
  ['/', 'outside'],
  ['/projection/other.txt', 'outside'],
  ['/proj/../projection/other.txt', 'outside'],
  ['/acme/proj-b/../proj-c/x', 'outside'],
  ['..\\x', 'outside'],
  ['src\\..\\..\\..\\etc\\passwd', 'outside'],
  ['\\etc\\passwd', 'outside'],
  ['C:\\Windows\\System32\\config', 'outside'],
  ['c:/x', 'outside'],
  ['c:x', 'outside'],
  ['\\\\server\\share\\x', 'outside'],
  ['//server/share/x', 'outside'],
  ['%2e%2e/x', 'invalid'],
  ['%2E%2E%2Fetc%2Fpasswd', 'invalid'],
  ['src/%2e%2e/%2e%2e/x', 'invalid'],
  ['a%2f..%2f..%2fx', 'invalid'],
  ['..%5cx', 'invalid'],
  ['%2e', 'invalid'],
  ['~', 'invalid'],
  ['~/.ssh/id_rsa', 'invalid'],
  ['file:///etc/passwd', 'invalid'],
  ['memfs:/other/x', 'invalid'],
  ['vscode-vfs://github/evil/repo/x', 'invalid'],
  ['src/a.ts\0.png', 'invalid'],
  ['', 'invalid'],
  ['.env', 'denied'],
  ['.ENV', 'denied'],
  ['src/../.env', 'denied'],
  ['/proj/.env', 'denied'],
  ['.git/config', 'denied'],
  ['.git\\config', 'denied'],
  ['.GIT/config', 'denied'],
  ['secrets/key.txt', 'denied'],
  ['secrets', 'denied'],
  ['Secrets\\key.txt', 'denied'],
  ['proj-b/.env', 'denied'],
];

describe('LexicalPathGuard (virtual workspaces)', () => {
  it(`refuses ${HOSTILE.length} hostile paths with the right code, and never stats outside the roots`, async () => {
    const { guard, fs } = world();
    for (const [input, code] of HOSTILE) {
      const e = await refusal(guard, input);
      assert.equal(e.code, code, `${JSON.stringify(input)}: ${e.message}`);
    }
    const strays = fs.statted.filter((p) => !isInsideRoots(p));
    assert.deepEqual(strays, [], 'no stat outside the folders');
  });

  it('says why in words the model can act on, without suggesting local settings', async () => {
    const { guard } = world();
    const out = await refusal(guard, '../x');
    assert.match(out.message, /outside the workspace \(\/proj, \/acme\/proj-b\)/);
    assert.match(out.message, /virtual workspace/);
    assert.doesNotMatch(out.message, /allowPaths/);
    assert.match((await refusal(guard, '.env')).message, /"\*\*\/\.env" of the setting pincer\.fs\.denyPaths/);
  });

  it('resolves ordinary paths to the synthetic root, with rel and existence', async () => {
    const { guard } = world();
    const cases: [input: string, abs: string, rel: string, exists: boolean][] = [
      ['src/a.ts', '/proj/src/a.ts', 'src/a.ts', true],
      ['./src/./a.ts', '/proj/src/a.ts', 'src/a.ts', true],
      ['src/../README.md', '/proj/README.md', 'README.md', true],
      ['src\\a.ts', '/proj/src/a.ts', 'src/a.ts', true],
      ['/proj/src/a.ts', '/proj/src/a.ts', 'src/a.ts', true],
      ['.', '/proj', '', true],
      ['src/', '/proj/src', 'src', true],
      ['src/new/file.ts', '/proj/src/new/file.ts', 'src/new/file.ts', false],
      ['proj-b/lib/b.ts', '/acme/proj-b/lib/b.ts', 'lib/b.ts', true],
      ['/acme/proj-b/lib/b.ts', '/acme/proj-b/lib/b.ts', 'lib/b.ts', true],
      ['@src/a.ts', '/proj/src/a.ts', 'src/a.ts', true],
      ['@types/x.d.ts', '/proj/@types/x.d.ts', '@types/x.d.ts', true],
      ['.env.example', '/proj/.env.example', '.env.example', false],
      ['.gitignore', '/proj/.gitignore', '.gitignore', false],
      ['100%.txt', '/proj/100%.txt', '100%.txt', false],
      ['%41.txt', '/proj/%41.txt', '%41.txt', false],
      ['．．／x', '/proj/．．／x', '．．／x', false],
      ['notes:todo.md', '/proj/notes:todo.md', 'notes:todo.md', false],
      ['a..b/..c', '/proj/a..b/..c', 'a..b/..c', false],
    ];
    for (const [input, abs, rel, exists] of cases) {
      const r = await guard.resolve(input, 'write');
      assert.deepEqual({ abs: r.abs, rel: r.rel, exists: r.exists, input: r.input }, { abs, rel, exists, input }, JSON.stringify(input));
      assert.ok(isInsideRoots(r.root) && r.abs.startsWith(r.root), r.root);
    }
  });

  it('a folder of the primary root named like another workspace folder wins over the folder name', async () => {
    const { guard, fs } = world();
    fs.put('/proj/proj-b/local.txt', 'here\n');
    assert.equal((await guard.resolve('proj-b/local.txt', 'read')).abs, '/proj/proj-b/local.txt');
  });

  it('isDenied hides denied entries and anything outside the roots from walkers', () => {
    const { guard } = world();
    for (const p of ['/proj/.env', '/proj/sub/.env', '/proj/.git/HEAD', '/proj/secrets/a/b', '/etc/passwd', '/projection/x', '/proj/../etc', '\\proj\\.env']) {
      assert.equal(guard.isDenied(p), true, p);
    }
    for (const p of ['/proj/src/a.ts', '/proj/.gitignore', '/proj/.env.example', '/acme/proj-b/lib/b.ts', '/proj']) {
      assert.equal(guard.isDenied(p), false, p);
    }
  });

  it('absolute deny entries (local places) neither match nor touch the disk; roots come first', () => {
    const { fs } = world();
    const guard = new LexicalPathGuard({ folders, denyPaths: ['/proj', '~/x', 'C:\\x'], fs });
    assert.deepEqual(guard.roots, ['/proj', '/acme/proj-b']);
    assert.equal(guard.isDenied('/proj/src/a.ts'), false);
  });
});
