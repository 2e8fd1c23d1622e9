// "MCP Servers" (Pincer sidebar): every server this window knows — running ones from the manager, and
// the defined ones that are not running (disabled here or in their definition, or not started) — with
// its source file, transport, state (starting / connected / disconnected with the last error /
// disabled), and its tools as children. It holds no MCP code of its own: the client bundle loads only
// when a server is defined (mcp-lazy.ts), and until then the view lists the definitions it reads.
import * as vscode from 'vscode';
import type { McpServerDefinition } from '../../core/mcp/server-definition';
import type { McpManager } from '../../core/mcp/mcp-manager';

export type McpViewState = 'starting' | 'connected' | 'disconnected' | 'disabled' | 'not started';

export interface McpServerRow {
  name: string;
  file: string;
  transport: string;
  state: McpViewState;
  error?: string;
  tools: string[];
}

export type McpTreeNode = { kind: 'server'; name: string } | { kind: 'tool'; server: string; tool: string } | { kind: 'error'; server: string };

const ICON: Record<McpViewState, string> = {
  starting: 'loading~spin', connected: 'pass', disconnected: 'error', disabled: 'circle-slash', 'not started': 'debug-pause',
};

/** What the view needs of the MCP host (mcp-lazy.ts): its manager only once the client has loaded. */
export interface McpViewHost {
  isLoaded(): boolean;
  onDidLoad: vscode.Event<void>;
  readonly manager: Pick<McpManager, 'status' | 'onDidChange' | 'output' | 'resources' | 'readResource' | 'prompts' | 'stop'>;
  /** Reads the definitions again and starts what should run. */
  reload(): Promise<void>;
  /** Like reload, but a server the person declined to start is asked about again (Restart, Enable). */
  restart(server: string): Promise<void>;
}

export interface McpViewDeps {
  host: McpViewHost;
  /** The primary local workspace folder (its MCP files are read for the servers not running). */
  folder: () => string | undefined;
  /** Servers disabled in this workspace from the view. */
  disabled: () => ReadonlySet<string>;
}

export class McpServersView implements vscode.TreeDataProvider<McpTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<McpTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly d: McpViewDeps) {
    const listen = () => this.subs.push(d.host.manager.onDidChange.on(() => this.refresh()) as vscode.Disposable);
    if (d.host.isLoaded()) listen();
    else this.subs.push(d.host.onDidLoad(() => {
      listen();
      this.refresh();
    }));
    this.subs.push(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('pincer.mcp')) this.refresh();
    }));
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Every server: running ones as the manager sees them, then the defined ones that are not running. */
  rows(): McpServerRow[] {
    const off = this.d.disabled();
    const rows = this.runningRows();
    for (const def of this.definitions()) {
      if (rows.some((r) => r.name === def.name)) continue;
      rows.push({ name: def.name, file: def.source.file, transport: def.transport, tools: [], state: def.disabled || off.has(def.name) ? 'disabled' : 'not started' });
    }
    return rows.sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * The servers that are down (disconnected, or gave up reconnecting). Only a running server can be:
   * the ones defined but not running are "not started" or "disabled", so the definitions (their
   * reader, schemas and files) are not read, and before the MCP client loads nothing is.
   */
  down(): McpServerRow[] {
    return this.runningRows().filter((r) => r.state === 'disconnected').sort((a, b) => a.name.localeCompare(b.name));
  }

  private runningRows(): McpServerRow[] {
    const running = this.d.host.isLoaded() ? this.d.host.manager.status() : [];
    return running.map((s) => ({
      name: s.name, file: s.file, transport: s.transport, tools: [...s.tools], error: s.error,
      state: s.state === 'connected' || s.state === 'starting' ? s.state : 'disconnected',
    }));
  }

  private definitions(): McpServerDefinition[] {
    const cfg = vscode.workspace.getConfiguration('pincer').inspect<unknown>('mcp.servers');
    const ws = cfg?.workspaceFolderValue ?? cfg?.workspaceValue;
    // Required when the view first lists its rows: the reader (its schemas and JSONC parser) is not
    // evaluated when the runtime loads. A literal path, so that esbuild bundles it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { readMcpDefinitions } = require('../../core/mcp/mcp-setup') as typeof import('../../core/mcp/mcp-setup');
    return readMcpDefinitions({
      workspaceFolder: this.d.folder(),
      userServers: cfg?.globalValue === undefined ? undefined : { value: cfg.globalValue, file: 'user settings (pincer.mcp.servers)' },
      workspaceServers: ws === undefined ? undefined : { value: ws, file: 'workspace settings (pincer.mcp.servers)' },
    }).servers;
  }

  getChildren(node?: McpTreeNode): McpTreeNode[] {
    if (!node) return this.rows().map((r) => ({ kind: 'server', name: r.name }));
    if (node.kind !== 'server') return [];
    const row = this.rows().find((r) => r.name === node.name);
    if (!row) return [];
    return [...(row.error ? [{ kind: 'error' as const, server: row.name }] : []), ...row.tools.map((tool) => ({ kind: 'tool' as const, server: row.name, tool }))];
  }

  getTreeItem(node: McpTreeNode): vscode.TreeItem {
    const row = this.rows().find((r) => r.name === (node.kind === 'server' ? node.name : node.server));
    if (node.kind === 'tool') {
      const item = new vscode.TreeItem(node.tool, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('tools');
      item.contextValue = 'pincer.mcpTool';
      return item;
    }
    if (node.kind === 'error') {
      const item = new vscode.TreeItem(row?.error ?? '', vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('warning');
      item.tooltip = row?.error;
      return item;
    }
    if (!row) return new vscode.TreeItem(node.name);
    const expandable = row.tools.length > 0 || row.error !== undefined;
    const item = new vscode.TreeItem(row.name, expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `mcp-server:${row.name}`;
    item.description = describeRow(row);
    item.iconPath = new vscode.ThemeIcon(ICON[row.state]);
    item.contextValue = `pincer.mcpServer.${row.state === 'not started' ? 'stopped' : row.state}`;
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(`**${row.name}** — ${row.state}\n\n`);
    tip.appendText(`Source: ${row.file}\nTransport: ${row.transport}\nTools: ${row.tools.length}`);
    if (row.error) tip.appendText(`\nLast error: ${row.error}`);
    item.tooltip = tip;
    return item;
  }

  dispose(): void {
    this.subs.forEach((s) => s.dispose());
    this.changed.dispose();
  }
}

/** The line beside a server's name: state, transport, tool count, source file. */
export function describeRow(row: McpServerRow): string {
  const tools = row.state === 'connected' ? ` · ${row.tools.length} tool${row.tools.length === 1 ? '' : 's'}` : '';
  return `${row.state}${tools} · ${row.transport} · ${baseName(row.file)}`;
}

function baseName(file: string): string {
  return /[\\/]/.test(file) ? file.split(/[\\/]/).pop()! : file;
}
