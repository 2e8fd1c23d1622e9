// Pincer: Show Commands — every job the model started in this window (running first), with its state;
// open its whole output, stop it (its whole process tree) or remove a finished one. The person can
// always see and stop what runs, including background jobs no terminal shows.
import * as vscode from 'vscode';
import type { Job, JobManager } from '../../core/exec/run/job-manager';

type Item = vscode.QuickPickItem & { job: Job };

const STOP: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('debug-stop'), tooltip: 'Stop (the whole process tree)' };
const REMOVE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Remove (and its output)' };
/** The newest lines of a long log, for the output document. */
const SHOWN_LINES = 20_000;

/** With a job id (a link from the chat, a test), opens that job's output at once. */
export async function showJobsCommand(jobs: JobManager, id?: string): Promise<void> {
  const direct = id ? jobs.all().find((j) => j.id === id) : undefined;
  if (direct) return openOutput(jobs, direct);
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = 'Commands run by Pincer';
  qp.placeholder = 'Pick one to open its output; the buttons stop or remove it.';
  qp.matchOnDescription = true;
  const refresh = () => {
    const all = [...jobs.all()].sort((a, b) => Number(b.status === 'running') - Number(a.status === 'running') || b.startedAt - a.startedAt);
    qp.items = all.map((job) => ({
      label: `${job.status === 'running' ? '$(loading~spin)' : job.status === 'exited' && job.outcome?.exitCode === 0 ? '$(check)' : '$(error)'} ${job.spec.display.split('\n')[0].slice(0, 120)}`,
      description: jobs.summary(job).replace(/^\S+ `[^`]*` — /, ''),
      detail: `${job.id} · ${job.spec.tool} · ${job.spec.executor.kind} · ${job.spec.cwd}`,
      buttons: job.status === 'running' ? [STOP] : [REMOVE],
      job,
    }));
    if (!all.length) qp.placeholder = 'Nothing has run in this window yet.';
  };
  const sub = jobs.onDidChange.on(refresh);
  qp.onDidTriggerItemButton(async ({ item, button }) => {
    if (button === STOP) await item.job.kill();
    if (button === REMOVE) await jobs.remove(item.job.id, item.job.spec.sessionKey);
    refresh();
  });
  qp.onDidAccept(async () => {
    const item = qp.selectedItems[0];
    if (item) await openOutput(jobs, item.job);
  });
  qp.onDidHide(() => {
    sub.dispose();
    qp.dispose();
  });
  refresh();
  qp.show();
}

async function openOutput(jobs: JobManager, job: Job): Promise<void> {
  const total = job.log.totalLines;
  const from = Math.max(1, total - SHOWN_LINES + 1);
  const page = job.log.read(from, SHOWN_LINES);
  const head = [`# ${jobs.summary(job)}`, `# in ${job.spec.cwd}`, from > 1 ? `# (the last ${SHOWN_LINES.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} lines)` : '', ''].filter((l, i) => l || i === 3);
  const doc = await vscode.workspace.openTextDocument({ content: `${head.join('\n')}\n${page.text}`, language: 'log' });
  await vscode.window.showTextDocument(doc, { preview: true });
}
