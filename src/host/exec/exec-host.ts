// Running commands in a window: the executors (the integrated terminal with a child-process fallback,
// a plain child process, bubblewrap, the dev container), one job manager, the approval prompt, the
// workspace's "Always allow" rules in its database, credentials in SecretStorage: the ports the
// toolset's exec, process and credentialed_exec run with (the toolset rebuilds; jobs outlive it).
import * as vscode from 'vscode';
import { DbApprovalStore, LazyApprovalStore, MemoryApprovalStore } from '../../core/exec/approval-store';
import type { ApprovalStore } from '../../core/exec/exec-types';
import { createExecutorFactory } from '../../core/exec/run/create-executor';
import { JobManager } from '../../core/exec/run/job-manager';
import { createProcessExecutor } from '../../core/exec/run/process-executor';
import type { PathResolver } from '../../core/fs/types';
import type { PincerRuntime } from '../../core/runtime';
import type { ExecPorts } from '../../core/toolset';
import type { StorageHost } from '../storage-host';
import { ApprovalPrompt } from './approval-prompt';
import { manageApprovalsCommand } from './approvals-manage';
import { showJobsCommand } from './jobs-command';
import { CredentialSecrets, setCredentialCommand } from './credentials';
import { TerminalExecutor } from './terminal-executor';

export interface ExecHost extends vscode.Disposable {
  readonly jobs: JobManager;
  readonly approvals: ApprovalPrompt;
  readonly store: ApprovalStore;
  /** What the toolset's exec, process and credentialed_exec run with in this window. */
  readonly ports: ExecPorts;
  /** The toolset's path guard, as the file tools and exec check paths with it (files dropped on the chat too). */
  readonly guard: () => PathResolver;
  commands: Record<string, (...args: never[]) => unknown>;
}

export function registerExec(context: vscode.ExtensionContext, rt: PincerRuntime, storage: StorageHost, guard: () => PathResolver, warn: (m: string) => void): ExecHost {
  const jobs = new JobManager();
  const approvals = new ApprovalPrompt(() => rt.currentConfig.exec.approvalPrompt);
  const store = new LazyApprovalStore(() => storage.database().then((db) => {
    if (db) return new DbApprovalStore(db);
    warn('"Always allow" answers cannot be saved without the workspace database; they last until the window closes.');
    return new MemoryApprovalStore();
  }));
  const secrets = new CredentialSecrets(context.secrets, rt.scrubber);
  const processExec = createProcessExecutor();
  const terminal = new TerminalExecutor(processExec, () => rt.currentConfig.exec.shellIntegrationWaitMs);
  const alwaysHidden = [context.storageUri?.fsPath, context.globalStorageUri.fsPath].filter((p): p is string => !!p);
  const executor = createExecutorFactory({
    config: () => rt.currentConfig.exec, roots: () => guard().roots, process: processExec, terminal, alwaysHidden,
    notice: (m) => void vscode.window.showInformationMessage(`Pincer: ${m}`),
  });
  return {
    jobs, approvals, store, guard,
    ports: { executor, jobs, store, approver: () => approvals, secrets },
    commands: {
      'pincer.exec.showJobs': (id?: string) => showJobsCommand(jobs, id),
      'pincer.exec.manageApprovals': () => manageApprovalsCommand(store, () => rt.currentConfig.exec.policy.allowlist),
      'pincer.exec.setCredential': (pre?: { binary: string; envName: string; value: string }) => setCredentialCommand(secrets, rt.currentConfig.exec.credentialed, pre),
      /** For the chat view's inline buttons: answer a waiting approval by id. */
      'pincer.exec.answerApproval': (id: string, answer: 'once' | 'always' | 'deny') => approvals.answer(id, answer),
    },
    dispose: () => {
      terminal.dispose();
      void jobs.dispose();
    },
  };
}
