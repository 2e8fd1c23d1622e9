// "Scheduled" (Pincer sidebar): every scheduled job of the workspace — when it runs next (or that it is
// paused) and how it last ended — with its latest runs beneath it. The context menu runs a job now,
// pauses, resumes, edits or removes it; a click on a run opens it (a prompt's session in the chat, a
// command's output as a document).
import * as vscode from 'vscode';
import { jobRow, runRow, runSession } from '../../core/automation/cron-format';
import type { CronRun, CronStore } from '../../core/automation/cron-store';

export type CronNode = { kind: 'job'; id: string } | { kind: 'run'; jobId: string; runId: number } | { kind: 'none'; text: string };

/** How many of a job's runs the view lists (the store keeps them all). */
export const RUNS_SHOWN = 10;

const local = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export class CronView implements vscode.TreeDataProvider<CronNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<CronNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly store: () => Promise<CronStore | undefined>) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  async getChildren(node?: CronNode): Promise<CronNode[]> {
    const store = await this.store();
    if (!store) return [{ kind: 'none', text: 'The workspace database could not be opened.' }];
    if (!node) {
      const jobs = await store.list();
      return jobs.length ? jobs.map((j): CronNode => ({ kind: 'job', id: j.id })) : [{ kind: 'none', text: 'No scheduled jobs: ask the agent to schedule one (the cron tool).' }];
    }
    if (node.kind !== 'job') return [];
    return (await store.runs(node.id, RUNS_SHOWN)).map((r): CronNode => ({ kind: 'run', jobId: node.id, runId: r.id }));
  }

  async getTreeItem(node: CronNode): Promise<vscode.TreeItem> {
    if (node.kind === 'none') return new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
    const store = await this.store();
    const job = await store?.get(node.kind === 'job' ? node.id : node.jobId);
    if (!store || !job) return new vscode.TreeItem('(removed)', vscode.TreeItemCollapsibleState.None);
    if (node.kind === 'job') {
      const row = jobRow(job, local);
      const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `cron:${job.id}`;
      item.description = row.description;
      item.tooltip = row.tooltip;
      item.iconPath = new vscode.ThemeIcon(job.paused ? 'debug-pause' : 'watch');
      item.contextValue = job.paused ? 'pincer.cron.paused' : 'pincer.cron.active';
      return item;
    }
    const run = (await store.runs(job.id, RUNS_SHOWN)).find((r) => r.id === node.runId);
    if (!run) return new vscode.TreeItem('(gone)', vscode.TreeItemCollapsibleState.None);
    const row = runRow(run, local);
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = `cron:${job.id}:${run.id}`;
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.iconPath = new vscode.ThemeIcon(iconOf(run));
    item.contextValue = 'pincer.cron.run';
    item.command = { command: 'pincer.cron.openRun', title: runSession(run) ? 'Open Session' : 'Open Run', arguments: [node] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function iconOf(r: CronRun): string {
  if (r.outcome === 'ok') return 'pass';
  if (r.outcome === 'running') return 'loading~spin';
  if (r.outcome === 'missed' || r.outcome === 'cancelled') return 'circle-slash';
  return 'error';
}
