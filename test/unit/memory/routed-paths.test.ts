import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { locateInput } from '../../../src/core/memory/routed-input';
import { routeOf } from '../../../src/core/memory/routed-paths';

describe('routeOf: which workspace paths are routed', () => {
  it('routes the root-level context names, normalised', () => {
    for (const [input, out] of [
      ['SOUL.md', 'SOUL.md'], ['./SOUL.md', 'SOUL.md'], ['././USER.md', 'USER.md'], ['a/../SOUL.md', 'SOUL.md'],
      ['./memory/../SOUL.md', 'SOUL.md'], ['BOOTSTRAP.md/', 'BOOTSTRAP.md'], ['HEARTBEAT.md', 'HEARTBEAT.md'], ['USER_PREDEFINED.md', 'USER_PREDEFINED.md'],
    ]) assert.deepEqual(routeOf(input!), { kind: 'context', path: out }, input);
  });

  it('routes MEMORY.md, memory.md and memory/**, with backslashes as separators', () => {
    for (const [input, out] of [
      ['MEMORY.md', 'MEMORY.md'], ['memory.md', 'memory.md'], ['memory', 'memory'], ['memory/', 'memory'], ['memory/a.md', 'memory/a.md'],
      ['memory\\a.md', 'memory/a.md'], ['./memory//notes/./b.md', 'memory/notes/b.md'], ['memory/x/../y.md', 'memory/y.md'],
    ]) assert.deepEqual(routeOf(input!), { kind: 'memory', path: out }, input);
  });

  it('does not route TOOLS.md, nested names, other case, or names left out of the setting', () => {
    for (const p of ['TOOLS.md', 'src/SOUL.md', 'docs/memory/a.md', 'soul.md', 'Memory/a.md', 'MEMORY.MD', 'SOUL.md.bak', 'memoryx/a.md', '.']) {
      assert.equal(routeOf(p), undefined, p);
    }
    assert.equal(routeOf('SOUL.md', ['USER.md']), undefined);
    assert.deepEqual(routeOf('USER.md', ['USER.md']), { kind: 'context', path: 'USER.md' });
    assert.equal(routeOf('TOOLS.md', ['TOOLS.md']), undefined, 'the setting cannot add names beyond the seven');
    assert.deepEqual(routeOf('memory/a.md', []), { kind: 'memory', path: 'memory/a.md' }, 'memory does not depend on the setting');
  });

  it('hostile inputs are never routed: escapes, absolute paths, NUL, drive letters, ~, URIs', () => {
    for (const p of ['memory/../../etc/passwd', '../SOUL.md', 'memory\\..\\..\\x', '/etc/SOUL.md', '/SOUL.md', 'C:\\SOUL.md', 'c:SOUL.md',
      '~/SOUL.md', 'SOUL.md\0', 'memory/a\0.md', 'file:///ws/SOUL.md', '..', '', '/']) {
      assert.equal(routeOf(p), undefined, JSON.stringify(p));
    }
  });
});

describe('locateInput: a file tool\'s path argument, expanded like the path guard', () => {
  const root = path.join(os.tmpdir(), 'pincer-locate-root');
  const roots = [root, path.join(os.tmpdir(), 'pincer-locate-two')];

  it('relative, absolute, @mention, file:// and /workspace spellings of a routed file all route', () => {
    for (const p of ['SOUL.md', path.join(root, 'SOUL.md'), '@SOUL.md', `file://${path.join(root, 'SOUL.md')}`, `${root}/./x/../SOUL.md`]) {
      assert.deepEqual(locateInput(p, roots).route, { kind: 'context', path: 'SOUL.md' }, p);
    }
    if (path.sep === '/' && !fs.existsSync('/workspace')) assert.deepEqual(locateInput('/workspace/memory/a.md', roots).route, { kind: 'memory', path: 'memory/a.md' });
  });

  it('the root itself, other roots, outside paths and invalid input are not routes', () => {
    assert.deepEqual(locateInput('.', roots), { root: true });
    assert.deepEqual(locateInput(root, roots), { root: true });
    for (const p of [path.join(roots[1]!, 'SOUL.md'), '/etc/passwd', 'memory/../../x', 'a\0b', '', 'src/SOUL.md', 42, undefined]) {
      assert.deepEqual(locateInput(p, roots), { root: false }, String(p));
    }
    assert.deepEqual(locateInput('SOUL.md', []), { root: false });
  });
});
