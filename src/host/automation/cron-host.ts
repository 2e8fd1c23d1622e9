// Scheduled jobs in the editor: the store in the workspace database and a scheduler that runs due jobs
// while this window is open (from the moment Pincer's runtime loads in it). A prompt runs as a chat
// turn of its agent in a session of its own (`cron:<job>:<time>`, listed with the other sessions); a
// command runs through exec — its judge, approvals (an unanswered one times out as a deny) and host —
// on the channel `cron`, as the owner, in a trusted workspace only (the policy refuses exec otherwise).
import * as vscode from 'vscode';
import { CronScheduler, type CronRunResult } from '../../core/automation/cron-scheduler';
import { CronStore, type CronJob } from '../../core/automation/cron-store';
import type { CronToolPorts } from '../../core/automation/cron-tool';
import { DEFAULT_AGENT_ID } from '../../core/agents/types';
import { systemClock } from '../../core/clock';
import type { PincerRuntime } from '../../core/runtime';
import type { ChatHost } from '../chat/chat-lazy';
import type { StorageHost } from '../storage-host';

/**
 * The first look at the jobs opens the database; a few seconds after the runtime loads, so it never
 * competes with the call that loaded it (the database otherwise opens on first need).
 */
const FIRST_LOOK_MS = 5000;

export interface CronHost extends vscode.Disposable {
  port: CronToolPorts;
  scheduler: CronScheduler;
}

export function createCronHost(rt: PincerRuntime, storage: StorageHost, chat: ChatHost, root: () => string | undefined): CronHost {
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
  const scheduler = new CronScheduler({ store: stores, run });
  scheduler.start(FIRST_LOOK_MS);
  return {
    port: { store: stores, scheduler: () => scheduler, clock: systemClock },
    scheduler,
    dispose: () => scheduler.stop(),
  };
}
