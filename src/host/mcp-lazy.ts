// The seam between the runtime (dist/host-core.js) and the MCP client (dist/host-mcp.js: the MCP SDK,
// ajv and src/host/mcp). Most windows define no MCP server, and none needs the SDK before its first
// tool call, so the runtime only checks whether a server is defined anywhere (the `pincer.mcp.servers`
// setting, the workspace's MCP files) and loads the client:
//   - at once after the first tool call (or a few seconds after the runtime loaded, if no call comes)
//     when a server is defined then; the check itself waits until then, so that call does not wait
//     for it (reading the setting and the files, and the watcher, which starts VS Code's file
//     watching: 1-4 ms in host profiles), and a definition made before then is found by it;
//   - when a definition appears later (the setting changes, an MCP file is created or changed);
//   - when something asks for the manager or the start prompt.
// Once loaded, the client watches its definitions itself. Objects cross the seam by shape only (the
// client bundle has its own copies of shared core modules), as with the chat bundle.
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { filesAndFoldersGlob } from './dir-watchers';
import { WORKSPACE_MCP_FILES } from '../core/mcp/workspace-files';
import type { DestructiveAskDeps } from '../core/mcp/destructive-ask';
import type { PincerRuntime } from '../core/runtime';
import type { McpHost } from './mcp/mcp-host';
import { requireCachedBundle } from './cached-bundle';

type McpClient = typeof import('./mcp/mcp-host');

/** When a defined server starts if no tool call comes first: the window has settled by then. */
const START_WITHOUT_CALL_MS = 3000;

export interface LazyMcpHost extends McpHost {
  /** Whether the MCP client bundle has been loaded (nothing of it runs before). */
  isLoaded(): boolean;
  /** Fires once, when the client has loaded (the MCP Servers view and the status bar then listen to its manager). */
  onDidLoad: vscode.Event<void>;
}

/** Whether a server is defined for this window: a non-empty `pincer.mcp.servers` in any scope, or an MCP file in the first folder. */
function serverDefined(folder: string | undefined): boolean {
  const cfg = vscode.workspace.getConfiguration('pincer').inspect<unknown>('mcp.servers');
  const nonEmpty = (v: unknown) => v !== undefined && (typeof v !== 'object' || v === null || Object.keys(v).length > 0);
  if ([cfg?.globalValue, cfg?.workspaceValue, cfg?.workspaceFolderValue].some(nonEmpty)) return true;
  return !!folder && WORKSPACE_MCP_FILES.some((f) => fs.existsSync(path.join(folder, f)));
}

export function registerMcpLazily(
  context: vscode.ExtensionContext, rt: PincerRuntime, log: vscode.LogOutputChannel, folders: () => readonly string[], approvals: DestructiveAskDeps, warn: (m: string) => void,
  chatModel?: Parameters<McpClient['registerMcp']>[6],
): LazyMcpHost {
  let host: McpHost | undefined;
  let disposed = false;
  const triggers: vscode.Disposable[] = [];
  const loaded = new vscode.EventEmitter<void>();
  const load = (): McpHost => {
    if (host) return host;
    triggers.forEach((d) => d.dispose());
    // A runtime path, not an import: esbuild keeps the MCP client out of host-core.
    const client = requireCachedBundle<McpClient>(context, 'dist/host-mcp.js');
    host = client.registerMcp(context, rt, log, folders, approvals, warn, chatModel);
    loaded.fire();
    return host;
  };
  const loadSoon = () => setImmediate(() => {
    if (!disposed) load();
  });
  // The watchers also hear the MCP files' folders come (`.vscode`), which may hold no definition.
  const loadIfDefined = () => {
    if (serverDefined(folders()[0])) loadSoon();
  };

  let decided = false;
  const decide = () => {
    if (decided || disposed || host) return;
    decided = true;
    triggers.forEach((d) => d.dispose());
    triggers.length = 0;
    if (serverDefined(folders()[0])) {
      load();
      return;
    }
    // Nothing defined yet: a definition that appears loads the client, which then reads it.
    const watchers = folders().slice(0, 1).map((f) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f, filesAndFoldersGlob(WORKSPACE_MCP_FILES))));
    triggers.push(
      ...watchers,
      ...watchers.flatMap((w) => [w.onDidChange(loadIfDefined), w.onDidCreate(loadIfDefined)]),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('pincer.mcp') && serverDefined(undefined)) loadSoon();
      }),
    );
  };
  // A timer, not setImmediate: the runtime's code cache is written in a setImmediate after the first
  // call (extension.ts), and should hold what that call ran.
  const decideSoon = () => setTimeout(decide, 0);
  const firstCall = rt.registry.onCallEnd.on(decideSoon);
  const timer = setTimeout(decideSoon, START_WITHOUT_CALL_MS);
  triggers.push(firstCall, { dispose: () => clearTimeout(timer) });
  return {
    get manager() { return load().manager; },
    get prompt() { return load().prompt; },
    reload: () => load().reload(),
    restart: (server) => load().restart(server),
    isLoaded: () => host !== undefined,
    onDidLoad: loaded.event,
    dispose: () => {
      disposed = true;
      triggers.forEach((d) => d.dispose());
      host?.dispose();
      loaded.dispose();
    },
  };
}
