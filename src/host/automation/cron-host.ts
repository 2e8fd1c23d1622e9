// Scheduled jobs in the editor: the store in the workspace database and a scheduler that runs due jobs
// while this window is open (from the moment Pincer's runtime loads in it). A prompt runs as a chat
// turn of its agent in a session of its own (`cron:<job>:<time>`, listed with the other sessions); a
// command runs through exec — its judge, approvals (an unanswered one times out as a deny) and host —
// on the channel `cron`, as the owner, in a trusted workspace only (the policy refuses exec otherwise).
// The Scheduled view's commands are the person's own calls of the cron tool, made like Run Tool's:
// through Registry.execute on the palette channel as the owner, so each is in the tool log, rate
// limited and under the tool policy (cron is outside the coding profile: `pincer.tools.alsoAllow`).
import * as vscode from 'vscode';
import { runDocument, runSession, scheduleFromText } from '../../core/automation/cron-format';
import { CronScheduler, type CronRunResult } from '../../core/automation/cron-scheduler';
import { CronStore, type CronJob } from '../../core/automation/cron-store';
import type { CronToolPorts } from '../../core/automation/cron-tool';
import { DEFAULT_AGENT_ID } from '../../core/agents/types';
import { systemClock } from '../../core/clock';
import type { PincerRuntime } from '../../core/runtime';
import type { ToolResult } from '../../core/tools/types';
import type { ChatHost } from '../chat/chat-lazy';
import type { ResultDocuments } from '../result-documents';
import { personCall } from '../services';
import type { StorageHost } from '../storage-host';
import { CronView, RUNS_SHOWN, type CronNode } from './cron-view';

/**
 * The first look at the jobs opens the database; a few seconds after the runtime loads, so it never
 * competes with the call that loaded it (the database otherwise opens on first need).
 */
const FIRST_LOOK_MS = 5000;

export interface CronHost extends vscode.Disposable {
  port: CronToolPorts;
  scheduler: CronScheduler;
  /** The Scheduled view's data (the tree VS Code shows; tests read it too). */
  view: CronView;
  commands: Record<string, (...args: never[]) => unknown>;
}

export function createCronHost(rt: PincerRuntime, storage: StorageHost, chat: ChatHost, docs: ResultDocuments, root: () => string | undefined): CronHost {
  let store: Promise<CronStore | undefined> | undefined;
  const stores = () => (store ??= storage.database().then((db) => db && new CronStore(db)));
  const run = async (job: CronJob, signal: AbortSignal): Promise<CronRunResult> => {
    if ('command' in job.task) {
      const r = await rt.registry.execute('exec', { command: job.task.command }, rt.context({
        channel: 'cron', sessionKey: `cron:${job.id}`, isOwner: true, workspaceTrusted: vscode.workspace.isTrusted, workspaceRoot: root(), signal,
      }));
      const ref = r.details?.jobId;
      return { outcome: r.outcome ?? (r.isError ? 'error' : 'ok'), detail: r.forLLM, ...(typeof ref === 'string' ? { ref } : {}) };
    }
    const sessionKey = `cron:${job.id}:${systemClock.now()}`;
    const t = await chat.service.turn({ sessionKey, agentId: job.task.agentId ?? DEFAULT_AGENT_ID, text: job.task.prompt, signal });
    const outcome = t.stopReason === 'end' ? 'ok' : t.stopReason === 'cancelled' ? 'cancelled' : 'error';
    return { outcome, detail: t.text || t.message || t.stopReason, ref: sessionKey, tokens: t.usage.input + t.usage.output };
  };
  const view = new CronView(stores);
  const scheduler = new CronScheduler({ store: stores, run, onRun: () => view.refresh() });
  scheduler.start(FIRST_LOOK_MS);
  const port: CronToolPorts = { store: stores, scheduler: () => scheduler, clock: systemClock, changed: () => view.refresh() };

  const act = async (args: Record<string, unknown>): Promise<ToolResult> => {
    const r = await personCall(rt, 'cron', args);
    if (r.isError) void vscode.window.showWarningMessage(`Pincer: ${r.forLLM}`);
    return r;
  };
  const idOf = (arg?: CronNode | string) => (typeof arg === 'string' ? arg : arg?.kind === 'job' ? arg.id : arg?.kind === 'run' ? arg.jobId : undefined);
  const jobOf = async (arg?: CronNode | string) => {
    const id = idOf(arg);
    const job = id === undefined ? undefined : await (await stores())?.get(id);
    if (!job) void vscode.window.showInformationMessage(id ? `Pincer: there is no scheduled job ${id}.` : 'Pincer: pick a job in the Scheduled view.');
    return job;
  };

  const edit = async (job: CronJob): Promise<ToolResult | undefined> => {
    const field = await vscode.window.showQuickPick(['Name', 'Schedule', 'Task', `Catch up missed runs: turn ${job.catchUp ? 'off' : 'on'}`], { title: `Edit "${job.name}"` });
    if (!field) return undefined;
    if (field.startsWith('Catch up')) return act({ action: 'update', id: job.id, catchUp: !job.catchUp });
    if (field === 'Name') {
      const name = await vscode.window.showInputBox({ title: 'Name', value: job.name });
      return name ? act({ action: 'update', id: job.id, name }) : undefined;
    }
    if (field === 'Schedule') {
      const current = 'cron' in job.schedule ? job.schedule.cron : 'at' in job.schedule ? job.schedule.at : String(job.schedule.everySeconds);
      const text = await vscode.window.showInputBox({ title: 'Schedule', value: current, prompt: 'A cron expression ("0 9 * * 1-5"), an interval in seconds ("3600") or one ISO time ("2026-12-24T18:00")' });
      const zone = 'everySeconds' in job.schedule ? undefined : job.schedule.timezone;
      return text ? act({ action: 'update', id: job.id, schedule: scheduleFromText(text, zone) }) : undefined;
    }
    const isCommand = 'command' in job.task;
    const text = await vscode.window.showInputBox({ title: isCommand ? 'Command' : 'Prompt', value: isCommand ? (job.task as { command: string }).command : (job.task as { prompt: string }).prompt });
    if (!text) return undefined;
    return act({ action: 'update', id: job.id, task: isCommand ? { command: text } : { ...job.task, prompt: text } });
  };

  return {
    port, scheduler, view,
    commands: {
      'pincer.cron.refresh': () => view.refresh(),
      'pincer.cron.runNow': async (arg?: CronNode | string) => {
        const job = await jobOf(arg);
        if (!job) return undefined;
        const r = await act({ action: 'run', id: job.id });
        if (!r.isError) void vscode.window.showInformationMessage(`Pincer: "${job.name}" ran: ${(r.details?.run as { outcome?: string } | undefined)?.outcome ?? 'done'}.`);
        return r;
      },
      'pincer.cron.pause': async (arg?: CronNode | string) => {
        const job = await jobOf(arg);
        return job && act({ action: 'pause', id: job.id });
      },
      'pincer.cron.resume': async (arg?: CronNode | string) => {
        const job = await jobOf(arg);
        return job && act({ action: 'resume', id: job.id });
      },
      'pincer.cron.edit': async (arg?: CronNode | string) => {
        const job = await jobOf(arg);
        return job && edit(job);
      },
      // { confirm: false } (a test, another extension) removes without asking.
      'pincer.cron.remove': async (arg?: CronNode | string, opts?: { confirm?: boolean }) => {
        const job = await jobOf(arg);
        if (!job) return undefined;
        if (opts?.confirm !== false) {
          const pick = await vscode.window.showWarningMessage(`Remove the scheduled job "${job.name}" and its run history?`, { modal: true }, 'Remove');
          if (pick !== 'Remove') return undefined;
        }
        return act({ action: 'remove', id: job.id });
      },
      // A prompt's run opens its session in the chat; a command's run its output as a document.
      // Answers the session key or the document's URI.
      'pincer.cron.openRun': async (arg?: CronNode | { jobId: string; runId?: number }) => {
        const jobId = arg && 'jobId' in arg ? arg.jobId : undefined;
        const job = await jobOf(jobId);
        const runs = job ? await (await stores())?.runs(job.id, RUNS_SHOWN) : undefined;
        const r = runs?.find((x) => arg && 'runId' in arg && arg.runId !== undefined ? x.id === arg.runId : true);
        if (!job || !r) return undefined;
        const session = runSession(r);
        if (session) {
          await chat.view.reveal();
          await chat.view.controller.handle({ type: 'switch-session', key: session });
          return session;
        }
        const uri = docs.put(`cron-${job.id}-${r.id}`, 'md', runDocument(job, r));
        await docs.open(uri);
        return uri.toString();
      },
    },
    dispose: () => {
      scheduler.stop();
      view.dispose();
    },
  };
}
