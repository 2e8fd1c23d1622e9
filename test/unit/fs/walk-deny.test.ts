// What glob's walk shows against the deny rules: exactly the files PathGuard.isDenied leaves visible
// with every folder above them, whichever level of the path a rule names, links included.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { walk } from '../../../src/core/fs/walk';
import { link, makeGuard, makeWorkspace, removeTempDirs } from '../../support/fs-fixtures';

/** Every file under `dir` (following nothing), relative with forward slashes. */
function allFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...allFiles(dir, r));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

describe('walk and the deny rules', () => {
  after(removeTempDirs);

  it('shows exactly the files no deny rule hides, whichever level of the path a rule matches', async () => {
    const ws = makeWorkspace({
      'src/a.ts': '', 'src/deep/er/b.ts': '', 'src/deep/er/key.pem': '', 'src/.env': '', 'src/.env.example': '',
      'secrets/one.txt': '', 'pkg/x/secrets/two.txt': '', 'pkg/x/secrets/inner/three.txt': '', 'pkg/x/notsecrets/ok.txt': '',
      'config/private/deep/p.json': '', 'config/public/q.json': '', 'Vault/Keys/k.txt': '', 'docs/readme.md': '',
    }, 'walk-deny');
    const guard = makeGuard([ws.root], {
      denyPaths: ['**/secrets/**', '**/*.pem', '**/.env', 'config/private', 'vault/**', path.join(ws.root, 'docs')],
    });
    const shown: string[] = [];
    await walk({ fs: new NodeWorkspaceFs(), guard, base: ws.root, baseRootRel: '', onFile: (f) => { shown.push(f.rel); } });
    // isDenied tests the whole chain; a file is visible when neither it nor any folder above it is hidden.
    const visible = allFiles(ws.root).filter((rel) => {
      const parts = rel.split('/');
      return !parts.some((_, i) => guard.isDenied(path.join(ws.root, ...parts.slice(0, i + 1))));
    });
    assert.deepEqual(shown.sort(), visible.sort());
    // Hostile: each rule's files stay hidden, at the depth the rule names and below it.
    for (const hidden of ['secrets/one.txt', 'pkg/x/secrets/two.txt', 'pkg/x/secrets/inner/three.txt', 'src/deep/er/key.pem', 'src/.env', 'config/private/deep/p.json', 'docs/readme.md']) {
      assert.ok(!shown.includes(hidden), `${hidden} is hidden`);
    }
    // Benign: near-misses of the same rules stay visible.
    for (const seen of ['src/a.ts', 'src/deep/er/b.ts', 'src/.env.example', 'pkg/x/notsecrets/ok.txt', 'config/public/q.json']) {
      assert.ok(shown.includes(seen), `${seen} is shown`);
    }
  });

  it('a link from a visible folder into a hidden one is not followed, and a walk started inside a hidden folder\'s sibling sees none of it', async () => {
    const ws = makeWorkspace({ 'pub/a.txt': '', 'secrets/s.txt': '', 'secrets/more/t.txt': '' }, 'walk-deny-link');
    link(path.join(ws.root, 'secrets'), path.join(ws.root, 'pub', 'door'));
    link(path.join(ws.root, 'secrets', 'more', 't.txt'), path.join(ws.root, 'pub', 'file-door.txt'));
    const guard = makeGuard([ws.root], { denyPaths: ['**/secrets/**'] });
    const shown: string[] = [];
    const stats = await walk({ fs: new NodeWorkspaceFs(), guard, base: path.join(ws.root, 'pub'), baseRootRel: 'pub', onFile: (f) => { shown.push(f.rel); } });
    assert.deepEqual(shown, ['a.txt']);
    assert.equal(stats.skippedLinks, 2);
  });
});
