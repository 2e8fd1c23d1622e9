// Composition root. Activation only registers what VS Code must know about (commands, the sidebar
// view, the result documents, the log channel); the runtime and everything that needs zod, policy
// or storage loads from dist/host-core.js on first use, so activation stays in single milliseconds.
import * as path from 'path';
import * as vscode from 'vscode';
import { userCacheDir } from './core/user-cache-dir';
import { loadBundle } from './core/bundle-loader';
import type { HostCore } from './host/host-core';
import { CRON_VIEW_ID, MCP_VIEW_ID, MEMORY_SCHEME, MEMORY_VIEW_ID, PENDING_VIEW_ID, SIDEBAR_VIEW_ID, SKILLS_VIEW_ID, SUBAGENTS_VIEW_ID } from './host/ids';
import { RESULT_SCHEME, ResultDocuments } from './host/result-documents';
import { registerLmTools, registerMcpDefinitions } from './host/lm/lm-register';

// Set by the bundle's first line (esbuild banner); falls back to this module's own start when unbundled.
const moduleLoadedAt = (globalThis as { __pincerBundleStart?: number }).__pincerBundleStart ?? performance.now();

export interface PincerApi {
  /** Loads the runtime if it is not loaded yet (what any command does first). */
  core(): HostCore;
  /**
   * Milliseconds: evaluating this bundle (its first line to its last), activate() itself, the time
   * from the bundle's first line to the end of activate() (VS Code's own work between the two
   * included), and the runtime's load on first use (and whether it used V8's code cache, written by
   * an earlier window), with its stages: reading the bundle and its cache, compiling it, running its
   * top level, and building the window's runtime (createHostCore).
   */
  activation: {
    moduleEvalMs: number; activateMs: number; sinceModuleLoadMs: number; coreLoadMs?: number; coreFromCache?: boolean;
    coreStages?: { readMs: number; compileMs: number; runMs: number; createMs: number };
  };
}

export function activate(context: vscode.ExtensionContext): PincerApi {
  const t0 = performance.now();
  const channel = vscode.window.createOutputChannel('Pincer Tool Log', { log: true });
  const docs = new ResultDocuments();
  let loaded: HostCore | undefined;
  const pendingChanged = new vscode.EventEmitter<void>();
  const memoryFileChanged = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  const memoryViewChanged = new vscode.EventEmitter<void>();
  const subagentsViewChanged = new vscode.EventEmitter<void>();
  const mcpViewChanged = new vscode.EventEmitter<void>();
  const skillsViewChanged = new vscode.EventEmitter<void>();
  const cronViewChanged = new vscode.EventEmitter<void>();
  const api: PincerApi = {
    activation: { moduleEvalMs: moduleEvaluatedAt - moduleLoadedAt, activateMs: 0, sinceModuleLoadMs: 0 },
    core: () => {
      if (!loaded) {
        const c0 = performance.now();
        // A runtime path, not an import: esbuild keeps host-core out of this bundle. Compiled through
        // V8's code cache, kept in the person's cache directory (see bundle-loader.ts).
        const bundle = loadBundle(context.asAbsolutePath('dist/host-core.js'), path.join(userCacheDir(), 'code-cache'));
        const mod = bundle.exports as typeof import('./host/host-core');
        const c1 = performance.now();
        loaded = mod.createHostCore(context, channel, docs);
        api.activation.coreStages = { ...bundle.timing, createMs: performance.now() - c1 };
        // The cache is written after the first call has run (so it holds that call's code too), off
        // the call's path; or when the window closes, if no call came.
        const firstCall = loaded.services.rt.registry.onCallEnd.on(() => {
          firstCall.dispose();
          setImmediate(() => void bundle.saveCache());
        });
        context.subscriptions.push(firstCall, { dispose: () => void bundle.saveCache() });
        api.activation.coreFromCache = bundle.fromCache;
        loaded.review.diff.onDidChange.on(() => pendingChanged.fire());
        loaded.memory.fs.onDidChangeFile((e) => memoryFileChanged.fire(e));
        loaded.memoryView.onDidChangeTreeData(() => memoryViewChanged.fire());
        loaded.subagentsView.onDidChangeTreeData(() => subagentsViewChanged.fire());
        loaded.mcpView.onDidChangeTreeData(() => mcpViewChanged.fire());
        loaded.skills.view.onDidChangeTreeData(() => skillsViewChanged.fire());
        loaded.cron.view.onDidChangeTreeData(() => cronViewChanged.fire());
        api.activation.coreLoadMs = performance.now() - c0;
        channel.info(`Pincer runtime loaded in ${api.activation.coreLoadMs.toFixed(1)} ms${bundle.fromCache ? ' (code cache)' : ''}`);
      }
      return loaded;
    },
  };

  context.subscriptions.push(
    channel, docs,
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, docs),
    vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW_ID, {
      resolveWebviewView: (view) => api.core().sidebar.resolveWebviewView(view),
    }),
    vscode.window.registerWebviewViewProvider('pincer.chat', {
      resolveWebviewView: (view) => api.core().chat.view.resolveWebviewView(view),
    }),
    // The tree asks for children only when visible: that is the first use that loads the core.
    vscode.window.registerTreeDataProvider(PENDING_VIEW_ID, {
      onDidChangeTreeData: pendingChanged.event,
      getChildren: () => api.core().review.pendingView.getChildren(),
      getTreeItem: (p) => api.core().review.pendingView.getTreeItem(p),
    }),
    pendingChanged,
    // pincer-memory: documents can be restored by VS Code before any command ran: the provider is
    // registered here and loads the core on its first request.
    vscode.workspace.registerFileSystemProvider(MEMORY_SCHEME, {
      onDidChangeFile: memoryFileChanged.event,
      watch: () => new vscode.Disposable(() => undefined),
      stat: (uri) => api.core().memory.fs.stat(uri),
      readDirectory: (uri) => api.core().memory.fs.readDirectory(uri),
      createDirectory: (uri) => api.core().memory.fs.createDirectory(uri),
      readFile: (uri) => api.core().memory.fs.readFile(uri),
      writeFile: (uri, content, options) => api.core().memory.fs.writeFile(uri, content, options),
      delete: (uri) => api.core().memory.fs.delete(uri),
      rename: (from, to, options) => api.core().memory.fs.rename(from, to, options),
    }, { isCaseSensitive: true }),
    vscode.window.registerTreeDataProvider<unknown>(MEMORY_VIEW_ID, {
      onDidChangeTreeData: memoryViewChanged.event,
      getChildren: (n) => api.core().memoryView.getChildren(n as never) as Promise<unknown[]>,
      getTreeItem: (n) => api.core().memoryView.getTreeItem(n as never),
    }),
    memoryFileChanged, memoryViewChanged,
    // Shown, it loads the core and the chat (children are chat turns) and the stored tree.
    vscode.window.registerTreeDataProvider<unknown>(SUBAGENTS_VIEW_ID, {
      onDidChangeTreeData: subagentsViewChanged.event,
      getChildren: (n) => api.core().subagentsView.getChildren(n as never) as Promise<unknown[]>,
      getTreeItem: (n) => api.core().subagentsView.getTreeItem(n as never),
    }),
    subagentsViewChanged,
    // Shown, it loads the runtime (not the MCP client: that loads only when a server is defined).
    vscode.window.registerTreeDataProvider<unknown>(MCP_VIEW_ID, {
      onDidChangeTreeData: mcpViewChanged.event,
      getChildren: (n) => api.core().mcpView.getChildren(n as never),
      getTreeItem: (n) => api.core().mcpView.getTreeItem(n as never),
    }),
    mcpViewChanged,
    // Shown, it loads the runtime and reads the skills.
    vscode.window.registerTreeDataProvider<unknown>(SKILLS_VIEW_ID, {
      onDidChangeTreeData: skillsViewChanged.event,
      getChildren: (n) => api.core().skills.view.getChildren(n as never),
      getTreeItem: (n) => api.core().skills.view.getTreeItem(n as never),
    }),
    skillsViewChanged,
    // Shown, it loads the runtime and opens the workspace database (the jobs and their runs).
    vscode.window.registerTreeDataProvider<unknown>(CRON_VIEW_ID, {
      onDidChangeTreeData: cronViewChanged.event,
      getChildren: (n) => api.core().cron.view.getChildren(n as never) as Promise<unknown[]>,
      getTreeItem: (n) => api.core().cron.view.getTreeItem(n as never),
    }),
    cronViewChanged,
    // VS Code's own agent: Pincer's tools (package.json's languageModelTools) and `pincer mcp` as an MCP server.
    ...registerLmTools(context, () => api.core().lm),
    ...registerMcpDefinitions(context),
    vscode.commands.registerCommand('pincer.showToolLog', () => channel.show(true)),
    // Every other contributed command is the core's: registered here, loaded on first call.
    ...contributedCommands(context).filter((id) => id !== 'pincer.showToolLog').map((id) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        const run = api.core().commands[id] as ((...a: unknown[]) => unknown) | undefined;
        if (!run) throw new Error(`Pincer: the command ${id} is declared but not implemented.`);
        return run(...args);
      })),
  );

  api.activation.activateMs = performance.now() - t0;
  api.activation.sinceModuleLoadMs = performance.now() - moduleLoadedAt;
  channel.info(`Pincer activated in ${api.activation.activateMs.toFixed(1)} ms (${api.activation.sinceModuleLoadMs.toFixed(1)} ms from the bundle's first line)`);
  return api;
}

function contributedCommands(context: vscode.ExtensionContext): string[] {
  const pkg = context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } };
  return (pkg.contributes?.commands ?? []).map((c) => c.command);
}

// Last statement of the bundle's evaluation (the entry module's body runs after its imports).
const moduleEvaluatedAt = performance.now();

export function deactivate(): void {
  // Disposables registered on the context close the database (with a final snapshot) and the views.
}
