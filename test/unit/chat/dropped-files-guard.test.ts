// Files dropped on the chat from the Explorer go through the same path guard as read_file and
// read_image (planGuardedDrop in dropped-files.ts), on a real temp workspace: being inside a workspace
// folder is not enough. A denied glob (`.env`), a `.git` internal, a symlink that leads out of the
// workspace and an image under a configured deny path are refused with the guard's reason; an ordinary
// image and a link that stays inside still attach, the image with the canonical path the guard resolved.
import assert from 'node:assert/strict';
import { planGuardedDrop, type DroppedEntry } from '../../../src/core/chat/dropped-files';
import { DEFAULT_DENY_PATHS } from '../../../src/core/fs/path-guard';
import { link, makeGuard, makeWorkspace, removeTempDirs, tempDir, writeTree, type Workspace } from '../../support/fs-fixtures';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('files dropped from the Explorer: the path guard', () => {
  let ws: Workspace;
  let outside: string;
  const guard = () => makeGuard([ws.root], { denyPaths: [...DEFAULT_DENY_PATHS, '**/.env*', 'secrets/**'] });
  /** A dropped local file as the host reports it: its URI path and its path on disk. */
  const dropped = (rel: string): DroppedEntry => ({ path: ws.path(rel), local: ws.path(rel), kind: 'file', size: PNG.length });
  const plan = (rels: string[]) => planGuardedDrop(rels.map(dropped), () => [ws.root], guard());

  before(() => {
    ws = makeWorkspace({ 'docs/shot.png': PNG, '.env.png': PNG, '.git/hooks/x.png': PNG, 'secrets/keys.png': PNG, 'src/a.ts': 'a' });
    outside = tempDir('outside');
    writeTree(outside, { 'private.png': PNG });
    link(`${outside}/private.png`, ws.path('docs/escape.png'));
    link('shot.png', ws.path('docs/inside-link.png'));
  });

  after(removeTempDirs);

  it('benign: an ordinary workspace image attaches, with the canonical path the guard resolved; a file becomes a chip', async () => {
    const p = await plan(['docs/shot.png', 'src/a.ts']);
    assert.deepEqual(p.refused, []);
    assert.deepEqual(p.images.map((i) => [i.rel, i.mimeType, i.entry.abs]), [['docs/shot.png', 'image/png', ws.path('docs/shot.png')]]);
    assert.deepEqual(p.chips, [{ kind: 'file', path: 'src/a.ts', origin: 'user' }]);
  });

  it('benign: a symlink that stays inside the workspace attaches, read from its target', async () => {
    const p = await plan(['docs/inside-link.png']);
    assert.deepEqual(p.refused, []);
    assert.deepEqual(p.images.map((i) => i.entry.abs), [ws.path('docs/shot.png')]);
  });

  it('hostile: a denied glob, a .git internal and an image under a configured deny path are refused with the guard\'s reason', async () => {
    const p = await plan(['.env.png', '.git/hooks/x.png', 'secrets/keys.png']);
    assert.deepEqual(p.images, []);
    assert.deepEqual(p.chips, []);
    assert.equal(p.refused.length, 3, p.refused.join('\n'));
    assert.match(p.refused[0], /^Not attached: ".*\.env\.png" is hidden by the rule "\*\*\/\.env\*" of the setting pincer\.fs\.denyPaths/);
    assert.match(p.refused[1], /^Not attached: ".*\.git\/hooks\/x\.png" is hidden by the rule "\*\*\/\.git\/\*\*"/);
    assert.match(p.refused[2], /^Not attached: ".*secrets\/keys\.png" is hidden by the rule "secrets\/\*\*"/);
  });

  it('hostile: a symlink inside the workspace that points outside it is refused as the guard refuses it', async () => {
    const p = await plan(['docs/escape.png']);
    assert.deepEqual(p.images, []);
    assert.equal(p.refused.length, 1);
    assert.match(p.refused[0], /^Not attached: ".*docs\/escape\.png" goes through a symbolic link that leads outside the workspace/);
  });

  it('hostile: a refused file does not use up one of the four image places; non-images the guard denies are refused too', async () => {
    const p = await plan(['.git/hooks/x.png', 'docs/shot.png', 'docs/shot.png', 'docs/shot.png', 'docs/shot.png', '.env.png']);
    assert.equal(p.images.length, 4);
    assert.equal(p.refused.length, 2);
    const chip = await planGuardedDrop([{ path: ws.path('.git/config'), local: ws.path('.git/config'), kind: 'file', size: 1 }], () => [ws.root], guard());
    assert.deepEqual(chip.chips, []);
    assert.match(chip.refused[0], /is hidden by the rule/);
  });

  it('hostile: a file with no local path cannot be checked and is refused; a guard that fails refuses, never clears', async () => {
    const remote = await planGuardedDrop([{ path: ws.path('docs/shot.png'), kind: 'file', size: 8 }], () => [ws.root], guard());
    assert.deepEqual(remote.images, []);
    assert.match(remote.refused[0], /not on this machine's disk, so Pincer's path guard cannot check it/);
    const broken = { resolve: () => Promise.reject(new Error('EIO')) };
    const failed = await planGuardedDrop([dropped('docs/shot.png')], () => [ws.root], broken);
    assert.deepEqual(failed.images, []);
    assert.match(failed.refused[0], /was not attached: the path guard could not check it \(EIO\)/);
  });

  it('folders, missing files and files outside the folders keep planDrop\'s own words (the guard is not asked)', async () => {
    let asked = 0;
    const counting = { resolve: () => { asked++; return Promise.reject(new Error('asked')); } };
    const p = await planGuardedDrop([
      { path: ws.path('docs'), local: ws.path('docs'), kind: 'folder' }, { path: `${outside}/private.png`, local: `${outside}/private.png`, kind: 'file', size: 8 },
    ], () => [ws.root], counting);
    assert.equal(asked, 0);
    assert.match(p.refused[0], /^docs is a folder/);
    assert.match(p.refused[1], /private\.png is outside this workspace/);
  });
});
