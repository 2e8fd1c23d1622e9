// The walkers' shortcut through the deny rules: an entry of a folder that was cleared is matched on
// its own (isDeniedEntry), and must give exactly the answer the whole chain gives (isDenied) for
// every rule form, casing and Unicode spelling; a walk whose base is itself hidden shows nothing.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { DEFAULT_DENY_PATHS, DenyRules } from '../../../src/core/fs/path-deny';
import { walk } from '../../../src/core/fs/walk';
import { makeGuard, makeWorkspace, removeTempDirs } from '../../support/fs-fixtures';

const ROOT = path.resolve(path.sep, 'ws');
const HOME = path.resolve(path.sep, 'home', 'u');

/** Names that hit or nearly hit the rules below, at every depth. */
const NAMES = ['.git', '.GIT', 'config', 'HEAD', '.gitignore', '.github', 'secrets', 'secrets2', 'notsecrets', 'key.pem', 'key.pem.txt',
  '.env', '.env.example', 'private', 'deep', 'caf\u00e9', 'cafe\u0301', 'a', 'b', 'Vault', 'vault', 'x.log', 'pkg'];

/** Every path up to `depth` names below ROOT, relative, with forward slashes. */
function paths(depth: number): string[] {
  const out: string[] = [];
  const grow = (prefix: string, d: number): void => {
    if (d === 0) return;
    for (const n of NAMES) {
      const p = prefix ? `${prefix}/${n}` : n;
      out.push(p);
      // Deeper only under a few names, so the set stays in the tens of thousands.
      if (['a', 'secrets', '.git', 'pkg', 'private', 'caf\u00e9', 'Vault'].includes(n)) grow(p, d - 1);
    }
  };
  grow('', depth);
  return out;
}

const RULE_SETS: { name: string; deny: string[]; always?: string[] }[] = [
  { name: 'the default', deny: [...DEFAULT_DENY_PATHS] },
  { name: 'literal and glob rules', deny: [...DEFAULT_DENY_PATHS, '**/secrets/**', '**/*.pem', '**/.env', 'a/private', 'vault/**', 'caf\u00e9/**', '**/a/deep'] },
  { name: 'wildcards inside a path', deny: ['pkg/*/secrets', '**/a/**/key.pem', 'a/?ault', '**/{x,y}.log'] },
  { name: 'absolute folders and globs', deny: [path.join(ROOT, 'pkg', 'a'), `${path.join(ROOT, 'a')}${path.sep}**${path.sep}HEAD`, '~/x'], always: [path.join(ROOT, 'Vault', 'private')] },
];

describe('deny rules for an entry of a cleared folder', () => {
  after(removeTempDirs);

  for (const set of RULE_SETS) {
    for (const nocase of [false, true]) {
      it(`${set.name}${nocase ? ', case-insensitive root' : ''}: the entry alone gives the whole chain's answer`, () => {
        const r = new DenyRules(set.deny, set.always ?? [], HOME, [{ root: ROOT, nocase }]);
        let denied = 0;
        let checked = 0;
        for (const rel of paths(4)) {
          const abs = path.join(ROOT, ...rel.split('/'));
          const parent = path.dirname(abs);
          // Walkers only ask about entries of folders that were cleared.
          if (parent !== ROOT && r.match(parent)) continue;
          checked++;
          const whole = r.match(abs);
          assert.deepEqual(r.match(abs, true), whole, rel);
          if (whole) denied++;
        }
        // Hostile and benign cases both occur in every set.
        assert.ok(denied > 0 && denied < checked, `${denied} of ${checked} denied`);
      });
    }
  }

  it('through the guard: .git at any depth is denied as an entry, its near-misses are not', () => {
    const ws = makeWorkspace({ 'a.txt': '' }, 'deny-entry');
    const guard = makeGuard([ws.root]);
    for (const rel of ['.git', 'sub/.git', 'a/b/c/.git']) assert.ok(guard.isDeniedEntry(path.join(ws.root, ...rel.split('/'))), rel);
    for (const rel of ['.gitignore', '.github', 'sub/.gitmodules', 'a/b/git', 'x.git']) assert.equal(guard.isDeniedEntry(path.join(ws.root, ...rel.split('/'))), false, rel);
  });

  it('a walk whose base is hidden by a rule shows nothing of it', async () => {
    const ws = makeWorkspace({ 'secrets/a.txt': '', 'secrets/inner/b.txt': '', 'open/c.txt': '' }, 'deny-entry-base');
    const guard = makeGuard([ws.root], { denyPaths: ['secrets'] });
    const shown: string[] = [];
    await walk({ fs: new NodeWorkspaceFs(), guard, base: path.join(ws.root, 'secrets'), baseRootRel: 'secrets', onFile: (f) => { shown.push(f.rel); } });
    assert.equal(shown.length, 0);
    await walk({ fs: new NodeWorkspaceFs(), guard, base: ws.root, baseRootRel: '', onFile: (f) => { shown.push(f.rel); } });
    assert.deepEqual(shown, ['open/c.txt']);
  });
});
