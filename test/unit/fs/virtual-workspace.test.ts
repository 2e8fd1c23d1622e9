// Virtual workspaces in core: which folders the tools reach and by which roots, which tools are
// hidden and why, and the one toolset over a folder served through the WorkspaceFs port only (the
// in-memory fs stands in for a FileSystemProvider; no local path is ever involved).
import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliExecPorts } from '../../../src/cli/cli-exec';
import { CliStore } from '../../../src/cli/cli-state';
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { locateVirtual, planWorkspace, type FolderInfo, type VirtualFolder } from '../../../src/core/fs/virtual-folders';
import { hiddenForVirtualWorkspace } from '../../../src/core/fs/virtual-hidden-tools';
import { createToolset } from '../../../src/core/toolset';
import { removeTempDirs, tempDir } from '../../support/fs-fixtures';
import { MemoryWorkspaceFs } from '../../support/memory-workspace-fs';
import { runtimeWith } from '../../support/test-tools';

const memfs = (p: string, name = path.posix.basename(p) || 'root'): FolderInfo => ({ uri: `memfs:${p}`, scheme: 'memfs', uriPath: p, name });
const local = (p: string): FolderInfo => ({ uri: `file://${p}`, scheme: 'file', uriPath: p, name: path.basename(p), fsPath: p });

describe('virtual workspaces: which folders, which roots', () => {
  it('a window with a local folder keeps to its local folders; virtual ones are listed as unreachable', () => {
    const plan = planWorkspace([local('/home/u/app'), memfs('/proj')]);
    assert.deepEqual(plan.local, [{ path: '/home/u/app', name: 'app' }]);
    assert.deepEqual(plan.virtual, []);
    assert.deepEqual(plan.unreachable.map((f) => f.uri), ['memfs:/proj']);
  });

  it('virtual-only windows get one root per folder: the URI path, else the name, never overlapping', () => {
    const plan = planWorkspace([
      memfs('/proj'), { uri: 'vscode-vfs://github/acme/site', scheme: 'vscode-vfs', uriPath: '/acme/site/', name: 'site' },
      memfs('/', 'scratch'), memfs('/proj', 'again'), memfs('/proj/inner', 'inner'), memfs('/x', '..'),
    ]);
    assert.deepEqual(plan.local, []);
    assert.deepEqual(plan.virtual.map((f) => f.root), ['/proj', '/acme/site', '/scratch', '/again', '/inner', '/x']);
    assert.equal(plan.virtual[1].uri, 'vscode-vfs://github/acme/site');
    const named = planWorkspace([memfs('/', '..'), memfs('/a', 'a'), memfs('/a/b', 'a')]).virtual.map((f) => f.root);
    assert.deepEqual(named, ['/memfs', '/a', '/a-2']);
  });

  it('locateVirtual maps a synthetic path to its folder and relative path, and nothing else', () => {
    const v = planWorkspace([memfs('/proj'), memfs('/proj-b')]).virtual;
    assert.deepEqual(locateVirtual(v, '/proj/src/a.ts'), { folder: v[0], rel: 'src/a.ts' });
    assert.deepEqual(locateVirtual(v, '/proj-b'), { folder: v[1], rel: '' });
    assert.deepEqual(locateVirtual(v, '\\proj\\src\\a.ts'), { folder: v[0], rel: 'src/a.ts' });
    assert.equal(locateVirtual(v, '/projection/a'), undefined);
    assert.equal(locateVirtual(v, '/etc/passwd'), undefined);
  });
});

describe('virtual workspaces: hidden tools', () => {
  const v: VirtualFolder[] = [{ root: '/proj', name: 'proj', uri: 'memfs:/proj', scheme: 'memfs' }];

  it('hides exec, process and credentialed_exec with a reason naming the scheme', () => {
    const hidden = hiddenForVirtualWorkspace(['read_file', 'exec', 'process', 'credentialed_exec', 'grep', 'memory_search'], v);
    assert.deepEqual(hidden.map((h) => h.tool), ['exec', 'process', 'credentialed_exec']);
    for (const h of hidden) assert.match(h.reason, /virtual workspace: its folders \(memfs:\) are served by a file system provider, with no local folder/);
  });

  it('hides nothing without virtual folders', () => {
    assert.deepEqual(hiddenForVirtualWorkspace(['exec', 'process'], []), []);
  });
});

describe('virtual workspaces: the toolset', () => {
  after(removeTempDirs);

  function build(fs: MemoryWorkspaceFs, folders: { local: { path: string }[]; virtual: VirtualFolder[] }) {
    const rt = runtimeWith({ 'fs.denyPaths': ['**/.git/**', '**/.env'] });
    const store = new CliStore(tempDir('virtual-store'), rt, () => undefined);
    const toolset = createToolset({
      rt, folders: () => folders.local, virtualFolders: () => folders.virtual, home: os.homedir(), ownStorage: [store.dir], fs,
      reviewer: new AutoApplyReviewer(fs), memory: async () => undefined, userId: () => 'tester', sessions: async () => undefined, runner: () => undefined,
      exec: (guard) => cliExecPorts(rt, { get roots() { return guard().roots; } }, store.approvals, 'deny', () => undefined),
    });
    const run = (tool: string, args: unknown) => rt.registry.execute(tool, args, rt.context({ channel: 'cli' }));
    return { rt, toolset, run, store };
  }

  it('reads, writes, edits, lists and searches a virtual folder through the port; refuses `..`; hides exec', async () => {
    const fs = new MemoryWorkspaceFs({ '/proj/src/a.ts': 'export const a = 1;\n', '/proj/.env': 'TOKEN=x\n' });
    const virtual = planWorkspace([memfs('/proj')]).virtual;
    const { rt, toolset, run, store } = build(fs, { local: [], virtual });
    try {
      const read = await run('read_file', { path: 'src/a.ts' });
      assert.equal(read.isError, false, read.forLLM);
      assert.match(read.forLLM, /export const a = 1;/);
      assert.equal((await run('write_file', { path: 'src/b.ts', content: 'export const b = 2;\n' })).isError, false);
      assert.equal(fs.text('/proj/src/b.ts'), 'export const b = 2;\n');
      const edit = await run('edit', { path: 'src/a.ts', old_string: 'a = 1', new_string: 'a = 42' });
      assert.equal(edit.isError, false, edit.forLLM);
      assert.equal(fs.text('/proj/src/a.ts'), 'export const a = 42;\n');
      assert.match((await run('list_files', { path: 'src' })).forLLM, /a\.ts[\s\S]*b\.ts/);
      assert.match((await run('glob', { pattern: '**/*.ts' })).forLLM, /src\/b\.ts/);
      const grep = await run('grep', { pattern: 'const b' });
      assert.equal(grep.details?.engine, 'worker', 'no ripgrep for a folder without local paths');
      assert.match(grep.forLLM, /src\/b\.ts/);
      const escape = await run('read_file', { path: '../etc/passwd' });
      assert.equal(escape.isError, true);
      assert.match(escape.forLLM, /outside the workspace \(\/proj\)/);
      assert.match((await run('read_file', { path: '.env' })).forLLM, /pincer\.fs\.denyPaths/);
      assert.doesNotMatch((await run('list_files', { path: '.' })).forLLM, /\.env/);

      for (const t of ['exec', 'process', 'credentialed_exec']) assert.equal(rt.registry.get(t), undefined, `${t} is not registered`);
      // This toolset has no subagents port (no model), so spawn is hidden too, for its own reason.
      assert.deepEqual(toolset.hidden().map((h) => h.tool), ['exec', 'process', 'credentialed_exec', 'spawn']);
      assert.match(toolset.hidden()[3].reason, /no model/);
      assert.equal(rt.registry.get('spawn'), undefined);
      const offered = rt.effectiveTools({ depth: 0, isOwner: true, trusted: true }).allowed;
      assert.ok(offered.includes('read_file') && !offered.includes('exec'), offered.join(','));
    } finally {
      await store.close();
    }
  });

  it('a rebuild after the folders change brings exec back for a local folder and takes it away again', async () => {
    const fs = new MemoryWorkspaceFs({ '/proj/a.txt': 'a\n' });
    const folders = { local: [] as { path: string }[], virtual: planWorkspace([memfs('/proj')]).virtual };
    const { rt, toolset, store } = build(fs, folders);
    try {
      assert.equal(rt.registry.get('exec'), undefined);
      folders.local = [{ path: tempDir('virtual-local') }];
      toolset.rebuild();
      assert.ok(rt.registry.get('exec'), 'a local folder: exec is offered');
      assert.deepEqual(toolset.hidden().map((h) => h.tool), ['spawn']);
      folders.local = [];
      toolset.rebuild();
      assert.equal(rt.registry.get('exec'), undefined, 'an earlier build\'s exec does not linger');
      assert.equal(rt.registry.get('process'), undefined);
      assert.equal(toolset.hidden().length, 4);
    } finally {
      await store.close();
    }
  });
});
