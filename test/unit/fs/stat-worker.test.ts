// The off-thread lstat and listings behind glob: the same answers as lstat and readdir on this
// thread (odd names included, since a batch travels as one string), and glob's order over more
// matches than one chunk (the chunks are sent while the walk runs).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { listOffThread, statOffThread } from '../../../src/core/fs/stat-worker';
import { createGlobTool } from '../../../src/core/fs/tools/glob';
import { makeGuard, makeWorkspace, removeTempDirs } from '../../support/fs-fixtures';

describe('stat on a worker thread', () => {
  after(removeTempDirs);

  it('answers as lstat does: files, folders, links (not followed), missing paths', async () => {
    const ws = makeWorkspace({ 'a.txt': 'hello', 'dir/b.txt': '' }, 'stat');
    fs.symlinkSync(ws.path('a.txt'), ws.path('link'));
    const t = Date.now() / 1000 - 5000;
    fs.utimesSync(ws.path('a.txt'), t, t);
    const paths = ['a.txt', 'dir', 'link', 'missing', 'a.txt/not-a-dir'].map((p) => ws.path(p));
    const got = await statOffThread(paths);
    const expected = paths.map((p) => {
      let st: fs.Stats | undefined;
      try {
        st = fs.lstatSync(p, { throwIfNoEntry: false });
      } catch {
        return undefined; // ENOTDIR: a file on the way
      }
      if (!st) return undefined;
      return { type: st.isSymbolicLink() ? 'symlink' : st.isFile() ? 'file' : 'directory', size: st.size, mtime: st.mtimeMs };
    });
    assert.deepEqual(got, expected);
    assert.equal(got[0]?.size, 5);
    assert.equal(got[3], undefined);
    assert.equal(got[4], undefined);
    // The port's batch method gives the same.
    assert.deepEqual(await new NodeWorkspaceFs().statMany(paths), expected);
  });

  it('lists folders as readdir does, in one batch: odd names, links as links, undefined for what cannot be listed', async () => {
    const odd = ['with space', 'new\nline', 'tab\there', 'caf\u00e9', 'cafe\u0301', '\u{1F600}.txt', '-dash', '.hidden', "quote'\"", 'back\\slash'];
    const spec: Record<string, string> = { 'empty/.keep': '' };
    for (const n of odd) spec[`odd/${n}`] = '';
    const ws = makeWorkspace(spec, 'list-worker');
    fs.rmSync(ws.path('empty/.keep'));
    fs.mkdirSync(ws.path('odd/sub'));
    fs.symlinkSync(ws.path('odd/sub'), ws.path('odd/link'));
    const dirs = [ws.path('odd'), ws.path('empty'), ws.path('missing'), ws.path('odd/-dash'), ws.root, ws.path('odd/sub')];
    const got = await listOffThread(dirs);
    const expected = dirs.map((d) => {
      try {
        return fs.readdirSync(d, { withFileTypes: true }).map((e) => [e.name, e.isSymbolicLink() ? 'symlink' : e.isFile() ? 'file' : 'directory']);
      } catch {
        return undefined;
      }
    });
    assert.deepEqual(got, expected);
    assert.equal(got[0]?.length, odd.length + 2);
    assert.deepEqual(got[1], []);
    assert.equal(got[2], undefined, 'missing folder');
    assert.equal(got[3], undefined, 'a file is not a folder');
    assert.deepEqual(await listOffThread([]), []);
    assert.deepEqual(await new NodeWorkspaceFs().readDirectories(dirs), expected);
    assert.deepEqual(await new NodeWorkspaceFs({ statsOffThread: false }).readDirectories(dirs), expected);
  });

  it('glob orders several chunks of matches newest first', async () => {
    const n = 2600;
    const spec: Record<string, string> = {};
    for (let i = 0; i < n; i++) spec[`d${i % 7}/f${i}.ts`] = '';
    const ws = makeWorkspace(spec, 'stat-glob');
    const now = Date.now() / 1000;
    // A time of its own for each file, unrelated to the walk's order.
    const age = (i: number) => (i * 7919) % n;
    for (let i = 0; i < n; i++) fs.utimesSync(ws.path(`d${i % 7}/f${i}.ts`), now - age(i), now - age(i));
    const wsFs = new NodeWorkspaceFs();
    const tool = createGlobTool({ guard: makeGuard([ws.root]), fs: wsFs, reviewer: new AutoApplyReviewer(wsFs) });
    const r = await tool.execute({ pattern: '**/*.ts', limit: n }, {
      sessionKey: 's', agentId: 'agent', channel: 'test', subagentDepth: 0, isOwner: true, signal: new AbortController().signal, deadline: Date.now() + 60_000, workspaceTrusted: true,
    });
    const expected = Array.from({ length: n }, (_, i) => i).sort((a, b) => age(a) - age(b)).map((i) => `d${i % 7}/f${i}.ts`);
    assert.deepEqual(r.details?.files, expected);
  });
});
