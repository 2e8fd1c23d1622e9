// "Subagents" (Pincer sidebar): the window's child agents as a tree — the chat sessions that started
// them, their children, the children's children — each with status, tokens, cost and duration, and
// the actions a person has: open the child's transcript, cancel, steer, resume. The records come
// from the manager, which loads the stored tree first (a reload shows finished children with their
// results and the ones that were running as interrupted); its events refresh the view.
import * as vscode from 'vscode';
import type { SessionStore } from '../../core/sessions/session-store';
import type { SubagentCardBook } from '../../core/subagents/subagent-cards';
import type { SubagentControl, SubagentRecord, SubagentStatus } from '../../core/subagents/types';
import type { ResultDocuments } from '../result-documents';

export type SubagentTreeNode = { kind: 'session'; sessionKey: string } | { kind: 'child'; id: string };

const ICON: Record<SubagentStatus, string> = {
  queued: 'clock', running: 'loading~spin', done: 'pass', failed: 'error', cancelled: 'circle-slash', interrupted: 'debug-pause', stalled: 'warning',
};

/** Changes closer together than this refresh the tree once (a running child reports every response). */
const REFRESH_MS = 150;

export interface SubagentsViewDeps {
  /** The window's subagents, once the stored ones are loaded (loads the chat bundle). */
  control(): Promise<SubagentControl>;
  sessions(): Promise<SessionStore | undefined>;
  docs: ResultDocuments;
}

/**
 * The tree's model and the cards' clock, required on the view's first row or event: both reach the
 * chat's page protocol (a hundred zod schemas), which the runtime's load (and a window's first tool
 * call) must not build. Literal paths, so that esbuild bundles them.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const model = () => require('../../core/subagents/subagent-tree-model') as typeof import('../../core/subagents/subagent-tree-model');
const cardsModule = () => require('../../core/subagents/subagent-cards') as typeof import('../../core/subagents/subagent-cards');
/* eslint-enable @typescript-eslint/no-require-imports */

export class SubagentsView implements vscode.TreeDataProvider<SubagentTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SubagentTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private cards: SubagentCardBook | undefined;
  private get book(): SubagentCardBook {
    return (this.cards ??= new (cardsModule().SubagentCardBook)(() => Date.now()));
  }
  private control?: SubagentControl;
  private sub?: { dispose(): void };
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly titles = new Map<string, string>();

  constructor(private readonly d: SubagentsViewDeps) {}

  private async manager(): Promise<SubagentControl> {
    if (this.control) return this.control;
    const c = await this.d.control();
    if (!this.control) {
      this.control = c;
      this.sub = c.onEvent((e) => {
        this.book.apply(e);
        this.refreshSoon();
      });
    }
    return this.control;
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  private refreshSoon(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.refresh();
    }, REFRESH_MS);
  }

  async getChildren(node?: SubagentTreeNode): Promise<SubagentTreeNode[]> {
    const m = await this.manager();
    if (!node) {
      const groups = model().groupBySession(m.tree());
      const store = await this.d.sessions();
      for (const g of groups) {
        if (!this.titles.has(g.sessionKey)) this.titles.set(g.sessionKey, (await store?.find(g.sessionKey))?.title ?? g.sessionKey);
      }
      return groups.map((g) => ({ kind: 'session', sessionKey: g.sessionKey }));
    }
    const under = node.kind === 'session'
      ? m.list({ parentSessionKey: node.sessionKey }).filter((r) => !r.parentId)
      : m.list().filter((r) => r.parentId === node.id);
    return under.map((r) => ({ kind: 'child', id: r.id }));
  }

  getTreeItem(node: SubagentTreeNode): vscode.TreeItem {
    if (node.kind === 'session') {
      const item = new vscode.TreeItem(this.titles.get(node.sessionKey) ?? node.sessionKey, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `session:${node.sessionKey}`;
      item.iconPath = new vscode.ThemeIcon('comment-discussion');
      item.tooltip = node.sessionKey;
      item.contextValue = 'pincer.subagentSession';
      return item;
    }
    const r = this.control?.get(node.id);
    if (!r) return new vscode.TreeItem(node.id);
    const row = model().childRow(r, this.book.durationOf(r));
    const hasChildren = this.control!.list().some((c) => c.parentId === r.id);
    const item = new vscode.TreeItem(row.label, hasChildren ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    item.id = `subagent:${r.id}`;
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.iconPath = new vscode.ThemeIcon(ICON[r.status]);
    item.contextValue = `pincer.subagent.${row.actions}`;
    item.command = { command: 'pincer.subagents.open', title: 'Open Transcript', arguments: [r.id] };
    return item;
  }

  /** The record a command names: a tree node, or a child id (the command API, the chat's card). */
  private async target(arg: SubagentTreeNode | string | undefined): Promise<SubagentRecord | undefined> {
    const m = await this.manager();
    const id = typeof arg === 'string' ? arg : arg?.kind === 'child' ? arg.id : undefined;
    const r = id === undefined ? undefined : m.get(id);
    if (!r) void vscode.window.showInformationMessage(id ? `Pincer: there is no subagent ${id}.` : 'Pincer: pick a subagent in the Subagents view.');
    return r;
  }

  commands(): Record<string, (...args: never[]) => unknown> {
    return {
      'pincer.subagents.refresh': () => this.refresh(),
      'pincer.subagents.open': async (arg?: SubagentTreeNode | string) => {
        const r = await this.target(arg);
        if (!r) return undefined;
        const store = await this.d.sessions();
        const messages = store ? await store.messages(r.sessionKey) : [];
        const uri = this.d.docs.put(`subagent-${r.id}`, 'md', model().transcriptMarkdown(r, messages));
        return this.d.docs.open(uri);
      },
      'pincer.subagents.cancel': async (arg?: SubagentTreeNode | string) => {
        const r = await this.target(arg);
        if (r) await this.control!.cancel(r.id, 'Cancelled by a person (the Subagents view).');
      },
      'pincer.subagents.steer': async (arg?: SubagentTreeNode | string, instruction?: string) => {
        const r = await this.target(arg);
        const text = r && (instruction ?? await vscode.window.showInputBox({
          title: `Steer ${r.label ?? r.id}`, prompt: 'The new instruction: the child stops and continues from its transcript with it',
        }));
        if (r && text) return this.act(() => this.control!.steer(r.id, text));
        return undefined;
      },
      'pincer.subagents.resume': async (arg?: SubagentTreeNode | string) => {
        const r = await this.target(arg);
        if (r) return this.act(() => this.control!.resume(r.id));
        return undefined;
      },
    };
  }

  /** A steer or resume the manager refuses (at capacity, already finished) is said, not thrown. */
  private async act(run: () => Promise<SubagentRecord>): Promise<SubagentRecord | undefined> {
    try {
      return await run();
    } catch (e) {
      void vscode.window.showWarningMessage(`Pincer: ${(e as Error).message}`);
      return undefined;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.sub?.dispose();
    this.changed.dispose();
  }
}
