// A virtual workspace in a real window: the window opens virtual.code-workspace, whose only folder
// is served by an in-memory FileSystemProvider this suite registers. Pincer's file tools must read,
// write (through the diff review, showing the virtual document) and edit it through VS Code's FS
// API, keep and restore checkpoints of it, refuse `..`, and leave exec out with its reason in Show
// Effective Tools.
// Run: node test/host/run-host-tests.mjs --workspace test/host/virtual/virtual.code-workspace --mocha out/test/host/virtual --e2e none
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PolicyDecision } from '../../../src/core/policy/policy-engine';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, waitFor } from '../suite/host-util';

const SCHEME = 'pincer-test-memfs';
const uri = (p: string) => vscode.Uri.from({ scheme: SCHEME, path: p });
const run = (tool: string, args: unknown) =>
  vscode.commands.executeCommand<ToolResult>('pincer.runTool', tool, args, { show: false }) as Promise<ToolResult>;
const text = async (p: string) => Buffer.from(await vscode.workspace.fs.readFile(uri(p))).toString('utf8');

type Entry = { type: vscode.FileType.File; data: Uint8Array; mtime: number } | { type: vscode.FileType.Directory; mtime: number };

/** A FileSystemProvider kept in memory: the smallest real provider VS Code will serve a folder from. */
class MemoryProvider implements vscode.FileSystemProvider {
  private readonly entries = new Map<string, Entry>([['/', { type: vscode.FileType.Directory, mtime: Date.now() }]]);
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  seed(p: string, content: string): void {
    this.mkdirs(path.posix.dirname(p));
    this.entries.set(p, { type: vscode.FileType.File, data: Buffer.from(content), mtime: Date.now() });
  }

  private mkdirs(dir: string): void {
    for (let d = dir; !this.entries.has(d); d = path.posix.dirname(d)) this.entries.set(d, { type: vscode.FileType.Directory, mtime: Date.now() });
  }

  private get(u: vscode.Uri): Entry {
    const e = this.entries.get(u.path);
    if (!e) throw vscode.FileSystemError.FileNotFound(u);
    return e;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(u: vscode.Uri): vscode.FileStat {
    const e = this.get(u);
    return { type: e.type, ctime: 0, mtime: e.mtime, size: e.type === vscode.FileType.File ? e.data.length : 0 };
  }

  readDirectory(u: vscode.Uri): [string, vscode.FileType][] {
    if (this.get(u).type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotADirectory(u);
    const prefix = u.path === '/' ? '/' : `${u.path}/`;
    return [...this.entries].filter(([p]) => p !== u.path && p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
      .map(([p, e]) => [p.slice(prefix.length), e.type]);
  }

  createDirectory(u: vscode.Uri): void {
    this.mkdirs(u.path);
  }

  readFile(u: vscode.Uri): Uint8Array {
    const e = this.get(u);
    if (e.type !== vscode.FileType.File) throw vscode.FileSystemError.FileIsADirectory(u);
    return e.data;
  }

  writeFile(u: vscode.Uri, content: Uint8Array, o: { create: boolean; overwrite: boolean }): void {
    const e = this.entries.get(u.path);
    if (!e && !o.create) throw vscode.FileSystemError.FileNotFound(u);
    if (e && !o.overwrite) throw vscode.FileSystemError.FileExists(u);
    if (!this.entries.has(path.posix.dirname(u.path))) throw vscode.FileSystemError.FileNotFound(u.with({ path: path.posix.dirname(u.path) }));
    this.entries.set(u.path, { type: vscode.FileType.File, data: content, mtime: Date.now() });
    this.emitter.fire([{ type: e ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri: u }]);
  }

  delete(u: vscode.Uri): void {
    this.get(u);
    for (const p of [...this.entries.keys()]) if (p === u.path || p.startsWith(`${u.path}/`)) this.entries.delete(p);
    this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri: u }]);
  }

  rename(from: vscode.Uri, to: vscode.Uri): void {
    this.writeFile(to, this.readFile(from), { create: true, overwrite: false });
    this.delete(from);
  }
}

async function pendingFor(rel: string) {
  const { review } = await core();
  return waitFor(`a pending review of ${rel}`, () => [...review.diff.pending.values()].find((p) => p.change.path.rel === rel));
}

suite('virtual workspace (a FileSystemProvider folder)', () => {
  const provider = new MemoryProvider();
  let registration: vscode.Disposable | undefined;

  suiteSetup(() => {
    provider.seed('/proj/src/a.ts', 'export const a = 1;\n');
    provider.seed('/proj/.git/config', '[core]\n');
    provider.seed('/outside.txt', 'not in the workspace folder\n');
    registration = vscode.workspace.registerFileSystemProvider(SCHEME, provider, { isCaseSensitive: true });
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('pincer.review.rejectAll', 'test teardown');
    registration?.dispose();
  });

  test('the window is a virtual workspace', () => {
    assert.deepStrictEqual(vscode.workspace.workspaceFolders?.map((f) => f.uri.toString()), [`${SCHEME}:/proj`]);
  });

  test('read_file, list_files, glob and grep go through the provider', async () => {
    const read = await run('read_file', { path: 'src/a.ts' });
    assert.strictEqual(read.isError, false, read.forLLM);
    assert.match(read.forLLM, /export const a = 1;/);
    assert.match((await run('list_files', { path: '.' })).forLLM, /src\//);
    assert.match((await run('glob', { pattern: '**/*.ts' })).forLLM, /src\/a\.ts/);
    const grep = await run('grep', { pattern: 'const a' });
    assert.strictEqual(grep.isError, false, grep.forLLM);
    assert.strictEqual(grep.details?.engine, 'worker');
    assert.match(grep.forLLM, /src\/a\.ts/);
  });

  test('write_file and edit land through the diff review of the virtual document', async function () {
    this.timeout(90_000);
    const write = run('write_file', { path: 'src/new.ts', content: 'export const n = 3;\n' });
    const created = await pendingFor('src/new.ts');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(uri('/proj/src/new.ts'))), 'nothing lands before the decision');
    await vscode.commands.executeCommand('pincer.review.accept', created.proposedUri);
    assert.strictEqual((await write).isError, false);
    assert.strictEqual(await text('/proj/src/new.ts'), 'export const n = 3;\n');

    const edit = run('edit', { path: 'src/a.ts', old_string: 'a = 1', new_string: 'a = 42' });
    const p = await pendingFor('src/a.ts');
    const tab = await waitFor('the diff editor of the virtual file', () => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t?.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === p.proposedUri.toString() ? t.input : undefined;
    });
    assert.strictEqual(tab.original.toString(), uri('/proj/src/a.ts').toString(), 'the left side is the document in the provider');
    await vscode.commands.executeCommand('pincer.review.accept', p.proposedUri);
    const r = await edit;
    assert.strictEqual(r.isError, false, r.forLLM);
    assert.strictEqual(await text('/proj/src/a.ts'), 'export const a = 42;\n');

    // Each Run Tool is a turn: the newest checkpoint holds src/a.ts as the provider served it.
    const store = (await core()).checkpoints();
    assert.ok(store, 'the checkpoint store is open');
    const [last] = await store.list(1);
    assert.deepStrictEqual(last.files, ['/proj/src/a.ts']);
    const restored = await vscode.commands.executeCommand<{ restored: string[] }>('pincer.restoreCheckpoint', last.id, { confirm: false });
    assert.deepStrictEqual(restored?.restored, ['/proj/src/a.ts']);
    assert.strictEqual(await text('/proj/src/a.ts'), 'export const a = 1;\n');
  });

  test('`..`, absolute paths outside the folder and denied paths are refused', async () => {
    for (const p of ['../outside.txt', '/outside.txt', 'src/../../outside.txt', '..\\outside.txt']) {
      const r = await run('read_file', { path: p });
      assert.strictEqual(r.isError, true, `${p}: ${r.forLLM}`);
      assert.match(r.forLLM, /outside the workspace \(\/proj\)/, p);
    }
    const denied = await run('read_file', { path: '.git/config' });
    assert.match(denied.forLLM, /pincer\.fs\.denyPaths/);
  });

  test('exec, process and credentialed_exec are hidden, with the reason in Show Effective Tools', async () => {
    const { services, sidebar } = await core();
    for (const t of ['exec', 'process', 'credentialed_exec']) assert.strictEqual(services.rt.registry.get(t), undefined, t);
    const inSidebar = sidebar.state().removed.find((r) => r.tool === 'exec');
    assert.strictEqual(inSidebar?.step, 'virtual workspace', 'the Tools sidebar lists exec as hidden, with the reason');
    const d = await vscode.commands.executeCommand<PolicyDecision>('pincer.showEffectiveTools', { profile: 'full', show: false });
    assert.ok(d.allowed.includes('read_file') && !d.allowed.includes('exec'), d.allowed.join(', '));
    const exec = d.removed.find((r) => r.tool === 'exec');
    assert.strictEqual(exec?.step, 'virtual workspace');
    assert.match(exec.detail, new RegExp(`its folders \\(${SCHEME}:\\) are served by a file system provider`));
    assert.strictEqual((await run('exec', { command: 'echo hi' })).isError, true);
  });
});
