// What VS Code must know of at activation for its own agent: an implementation for each tool
// package.json contributes under `languageModelTools` (the names are read from the manifest, so
// nothing here lists them again), and the MCP server definition that offers `pincer mcp` to VS Code's
// MCP client. Both stay light: the runtime loads on the first call (lm-host.ts does the work).
import * as path from 'path';
import * as vscode from 'vscode';
import type { LmHost } from './lm-host';

export const MCP_PROVIDER_ID = 'pincer.tools';

export function registerLmTools(context: vscode.ExtensionContext, host: () => LmHost): vscode.Disposable[] {
  const contributed = (context.extension.packageJSON?.contributes?.languageModelTools ?? []) as { name: string }[];
  return contributed.map(({ name }) => vscode.lm.registerTool<unknown>(name, {
    invoke: (options, token) => host().invoke(name, options.input, token),
    prepareInvocation: (options) => host().prepare(name, options.input),
  }));
}

/**
 * `pincer mcp` on the first local workspace folder, started by VS Code as a child process on the
 * editor's own Node (ELECTRON_RUN_AS_NODE makes the desktop editor's binary behave as Node). It is
 * the CLI's server: it reads the same settings, refuses commands that need approval and edits (it has
 * no one to ask), and runs read-only tools only in an untrusted workspace.
 */
export function registerMcpDefinitions(context: vscode.ExtensionContext): vscode.Disposable[] {
  const changed = new vscode.EventEmitter<void>();
  const provider: vscode.McpServerDefinitionProvider = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => pincerMcpDefinitions(context.extension),
  };
  return [
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
  ];
}

/** The definitions the provider gives VS Code now: `pincer mcp` on the first local folder, none without one. */
export function pincerMcpDefinitions(extension: Pick<vscode.Extension<unknown>, 'extensionPath' | 'packageJSON'>): vscode.McpStdioServerDefinition[] {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) return [];
  const args = [path.join(extension.extensionPath, 'dist', 'cli.js'), 'mcp', '--workspace', folder.uri.fsPath, ...(vscode.workspace.isTrusted ? [] : ['--untrusted'])];
  const server = new vscode.McpStdioServerDefinition('Pincer', process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' }, String((extension.packageJSON as { version?: string })?.version ?? ''));
  server.cwd = folder.uri;
  return [server];
}
