// The seam between the runtime (dist/host-core.js) and Serve Tools over MCP… (dist/host-mcp-serve.js:
// the MCP SDK's server, ajv): the server's code loads when the command first runs, so no tool call
// and no window that never serves pays for it. Objects cross the seam by shape only.
import type * as vscode from 'vscode';
import type { PincerRuntime } from '../../core/runtime';
import { requireCachedBundle } from '../cached-bundle';
import type { McpServeHost } from './mcp-serve-host';

type ServeModule = typeof import('./mcp-serve-host');

export function lazyMcpServe(context: vscode.ExtensionContext, rt: PincerRuntime, workspaceRoot: () => string | undefined): McpServeHost {
  let host: McpServeHost | undefined;
  const load = () => {
    // A runtime path, not an import: esbuild keeps the MCP server out of host-core.
    const mod = requireCachedBundle<ServeModule>(context, 'dist/host-mcp-serve.js');
    return (host ??= mod.createMcpServeHost(rt, String(context.extension.packageJSON?.version ?? ''), workspaceRoot));
  };
  return {
    command: (opts) => load().command(opts),
    dispose: () => host?.dispose(),
  };
}
