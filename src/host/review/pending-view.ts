// "Pending Changes" (Pincer sidebar): every proposal waiting for a decision, several files at once,
// with Accept / Reject inline and a click to open the diff.
import * as vscode from 'vscode';
import type { DiffReviewer, PendingReview } from './diff-reviewer';
import { uriOfPath } from '../virtual-folders';

export class PendingChangesView implements vscode.TreeDataProvider<PendingReview> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly reviewer: DiffReviewer) {
    reviewer.onDidChange.on(() => this.changed.fire());
  }

  getChildren(): PendingReview[] {
    return [...this.reviewer.pending.values()];
  }

  getTreeItem(p: PendingReview): vscode.TreeItem {
    const c = p.change;
    const item = new vscode.TreeItem(c.path.rel, vscode.TreeItemCollapsibleState.None);
    item.id = p.id;
    const from = this.reviewer.originOf(p);
    item.description = `${c.before === undefined ? `new · ${c.tool}` : c.after === undefined ? `delete · ${c.tool}` : c.tool}${from ? ` · ${from}` : ''}`;
    item.resourceUri = uriOfPath(c.path.abs);
    item.contextValue = 'pincer.pendingChange';
    item.tooltip = `${c.tool}${from ? ` (${from})` : ''} proposes to ${c.before === undefined ? 'create' : c.after === undefined ? 'delete' : 'change'} ${c.path.rel}`;
    item.command = { command: 'pincer.review.open', title: 'Open Diff', arguments: [p] };
    return item;
  }
}
