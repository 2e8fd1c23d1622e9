// "Memory" (Pincer sidebar): each agent's context files and memory documents as this user sees
// them, where each comes from (your copy, shared, the agent definition), a click to open it in an
// ordinary editor through pincer-memory:. Refreshed when the store changes.
import * as vscode from 'vscode';
import type { RoutedEntry } from '../../core/memory/routed-files';
import type { MemoryHost } from './memory-host';
import { memoryUri } from './memory-uri';

export type MemoryNode =
  | { kind: 'agent'; agentId: string; label: string; description?: string }
  | { kind: 'entry'; agentId: string; entry: RoutedEntry };

const LEVEL_LABEL: Record<RoutedEntry['level'], string> = { user: 'yours', agent: 'shared', definition: 'agent definition' };

export class MemoryView implements vscode.TreeDataProvider<MemoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<MemoryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private sub?: { dispose(): void };

  constructor(private readonly host: MemoryHost) {
    host.agents.registry.onDidChange.on(() => this.refresh());
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  async getChildren(node?: MemoryNode): Promise<MemoryNode[]> {
    const s = await this.host.services();
    if (!s) return [];
    this.sub ??= s.routed.onDidChange.on(() => this.refresh());
    if (!node) {
      await this.host.agents.ready();
      const agents = this.host.agents.registry.all();
      if (agents.length === 1) return this.entries(agents[0].id, '');
      return agents.map((a) => ({ kind: 'agent', agentId: a.id, label: a.name, description: `${a.type}${a.source === 'default' ? '' : ` · ${a.source}`}` }));
    }
    if (node.kind === 'agent') return this.entries(node.agentId, '');
    return node.entry.directory ? this.entries(node.agentId, node.entry.path) : [];
  }

  private async entries(agentId: string, dir: string): Promise<MemoryNode[]> {
    const s = await this.host.services();
    if (!s) return [];
    const list = await s.routed.list({ agentId, userId: this.host.userId() }, dir);
    return list
      .sort((a, b) => Number(!!b.directory) - Number(!!a.directory) || a.path.localeCompare(b.path))
      .map((entry) => ({ kind: 'entry', agentId, entry }));
  }

  getTreeItem(node: MemoryNode): vscode.TreeItem {
    if (node.kind === 'agent') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `agent:${node.agentId}`;
      item.description = node.description;
      item.iconPath = new vscode.ThemeIcon('hubot');
      return item;
    }
    const e = node.entry;
    const name = e.path.split('/').pop() ?? e.path;
    const uri = memoryUri(node.agentId, e.path);
    const item = new vscode.TreeItem(name, e.directory ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `${node.agentId}:${e.path}`;
    item.resourceUri = uri;
    if (!e.directory) {
      item.description = `${LEVEL_LABEL[e.level]} · ${e.kind === 'memory' ? 'memory' : 'context'}`;
      item.tooltip = `${e.path} — ${e.size} bytes, ${LEVEL_LABEL[e.level]}${e.updatedAt ? `, changed ${new Date(e.updatedAt).toLocaleString()}` : ''}`;
      item.command = { command: 'vscode.open', title: 'Open', arguments: [uri] };
    }
    return item;
  }

  dispose(): void {
    this.sub?.dispose();
    this.changed.dispose();
  }
}
