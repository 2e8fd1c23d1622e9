import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { createListFilesTool } from '../../../src/core/fs/tools/list-files';
import type { FsToolDeps, PathGuardConfig } from '../../../src/core/fs/types';
import type { ToolContext, ToolResult } from '../../../src/core/tools/types';
import { link, makeGuard, makeWorkspace, removeTempDirs, tempDir, type TreeSpec } from '../../support/fs-fixtures';

function ctx(): ToolContext {
  return { sessionKey: 's', agentId: 'agent', channel: 'test', subagentDepth: 0, isOwner: true, signal: new AbortController().signal, deadline: Date.now() + 60_000, workspaceTrusted: true };
}

function lister(root: string, over: Partial<PathGuardConfig> = {}) {
  const wsFs = new NodeWorkspaceFs();
  const deps: FsToolDeps = { guard: makeGuard([root], over), fs: wsFs, reviewer: new AutoApplyReviewer(wsFs) };
  const tool = createListFilesTool(deps);
  return (args: { path?: string; limit?: number } = {}): Promise<ToolResult> => tool.execute(args, ctx());
}

describe('list_files', () => {
  after(removeTempDirs);

  it('lists directories first with a trailing /, then files with sizes, each sorted by name ignoring case', async () => {
    const ws = makeWorkspace({ 'b.txt': 'x'.repeat(1500), 'A.md': 'hi', 'zeta/z': '', 'Alpha/a': '', 'c.bin': Buffer.alloc(3 * 1024 * 1024) });
    const r = await lister(ws.root)();
    assert.equal(r.isError, false);
    assert.equal(r.forLLM, '.: 2 directories, 3 files\nAlpha/\nzeta/\nA.md\t2 B\nb.txt\t1.5 KB\nc.bin\t3 MB');
    assert.equal(r.details?.count, 5);
  });

  it('lists a subdirectory, and shows .gitignored entries (only denied ones are hidden)', async () => {
    const ws = makeWorkspace({ '.gitignore': 'out/\n', 'src/out/x.js': '', 'src/a.ts': 'a' });
    const r = await lister(ws.root)({ path: 'src' });
    assert.equal(r.forLLM, 'src: 1 directory, 1 file\nout/\na.ts\t1 B');
  });

  it('caps at 500 entries with a notice naming limit, and limit widens it', async () => {
    const spec: TreeSpec = {};
    for (let i = 0; i < 520; i++) spec[`f${String(i).padStart(3, '0')}.txt`] = '';
    const ws = makeWorkspace(spec);
    const r = await lister(ws.root)();
    assert.equal(r.details?.shown, 500);
    assert.match(r.forLLM, /\[Showing 500 of 520 entries\. Use limit=520 to see all, or glob to find specific files\.\]$/);
    const all = await lister(ws.root)({ limit: 520 });
    assert.equal(all.details?.shown, 520);
    assert.doesNotMatch(all.forLLM, /Showing/);
  });

  it('hides denied entries entirely (.git internals, configured paths, links to denied files)', async () => {
    const ws = makeWorkspace({ '.git/HEAD': 'ref', 'secrets/k': 'k', '.env': 'KEY=1', 'ok.txt': 'ok', '.gitignore': '' });
    link(ws.path('.env'), ws.path('env-link'));
    const r = await lister(ws.root, { denyPaths: ['**/.git/**', 'secrets', '**/.env'] })();
    assert.equal(r.forLLM, '.: 0 directories, 2 files\n.gitignore\t0 B\nok.txt\t2 B');
    for (const hidden of ['.git', 'secrets', '.env', 'env-link']) assert.ok(!r.forLLM.includes(hidden + '\t') && !r.forLLM.includes(hidden + '/'), hidden);
    const denied = await lister(ws.root, { denyPaths: ['secrets'] })({ path: 'secrets' });
    assert.equal(denied.isError, true);
    assert.equal(denied.details?.code, 'denied');
  });

  it('answers an empty directory without an error', async () => {
    const ws = makeWorkspace({ 'empty': null });
    const r = await lister(ws.root)({ path: 'empty' });
    assert.equal(r.isError, false);
    assert.equal(r.forLLM, 'empty is empty.');
  });

  it('shows symlinks by what they lead to, and links out of the workspace without following them', async () => {
    const outside = tempDir('outside');
    fs.writeFileSync(path.join(outside, 'o.txt'), 'outside');
    const ws = makeWorkspace({ 'real/r.txt': 'r', 'f.txt': 'abc' });
    link(ws.path('real'), ws.path('dir-link'));
    link(ws.path('f.txt'), ws.path('file-link'));
    link(outside, ws.path('out-link'));
    link(ws.path('missing'), ws.path('dangling'));
    const r = await lister(ws.root)();
    assert.equal(r.forLLM, [
      '.: 2 directories, 4 files', 'dir-link/', 'real/', 'dangling@\t(broken symlink)', 'f.txt\t3 B', 'file-link\t3 B',
      'out-link@\t(symlink to a path outside the workspace; not readable)',
    ].join('\n'));
  });

  it('points a file to read_file, refuses a missing directory and a path outside the workspace', async () => {
    const ws = makeWorkspace({ 'f.txt': 'x' });
    const run = lister(ws.root);
    assert.match((await run({ path: 'f.txt' })).forLLM, /is a file, not a directory\. Use read_file/);
    assert.equal((await run({ path: 'nope' })).isError, true);
    const out = await run({ path: '/etc' });
    assert.equal(out.isError, true);
    assert.match(out.forLLM, /workspaceOnly|allowPaths/);
  });
});
