// The MCP Servers view's parts in one place for the runtime to register: the tree, its commands (the
// server actions and Add MCP Server…) and the status bar warning. Nothing here loads the MCP client.
import * as vscode from 'vscode';
import type { ContextChip } from '../../core/chat/chat-protocol';
import type { PincerRuntime } from '../../core/runtime';
import type { ResultDocuments } from '../result-documents';
import { McpServersView, type McpViewHost } from './mcp-view';
import { mcpStatusBar, mcpViewCommands, type McpStatus } from './mcp-view-actions';
import type { AddServerRequest } from './mcp-view-add';
import { disabledServers } from './mcp-view-disabled';

export interface McpViewParts extends vscode.Disposable {
  view: McpServersView;
  /** The status bar's warning while a server is down. */
  status: McpStatus;
  commands: Record<string, (...args: never[]) => unknown>;
}

/** `attachToChat`: puts chips into the chat's composer (an MCP resource the person attaches). */
export function registerMcpView(
  context: vscode.ExtensionContext, host: McpViewHost, rt: PincerRuntime, docs: ResultDocuments, folder: () => string | undefined,
  attachToChat: (chips: ContextChip[]) => Promise<void>,
): McpViewParts {
  const view = new McpServersView({ host, folder, disabled: () => disabledServers(context.workspaceState) });
  const status = mcpStatusBar(view);
  return {
    view, status,
    commands: {
      ...mcpViewCommands({ host, view, rt, docs, state: context.workspaceState, attachToChat }),
      'pincer.mcp.addServer': async (request?: Partial<AddServerRequest>) => {
        // Required at the first add: its JSONC editor and the command parser are not evaluated at load.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { addMcpServer } = require('./mcp-view-add') as typeof import('./mcp-view-add');
        const where = await addMcpServer(folder(), new Set(view.rows().map((r) => r.name)), request);
        view.refresh();
        return where;
      },
    },
    dispose: () => {
      status.dispose();
      view.dispose();
    },
  };
}
