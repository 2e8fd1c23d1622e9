// The CLI's ports for exec, process and credentialed_exec (the same tools and pipeline as the editor).
// There is no terminal (pincer.exec.host 'terminal' runs as a child process here), nobody to prompt
// (approvals are answered by --approve, default deny; "always" answers are kept in the state folder's
// database like the editor's) and no secret storage (a credential comes from the caller's environment).
import type { ApprovalAnswer, ApprovalStore, Approver } from '../core/exec/exec-types';
import { createExecutorFactory } from '../core/exec/run/create-executor';
import { JobManager } from '../core/exec/run/job-manager';
import { createProcessExecutor } from '../core/exec/run/process-executor';
import type { PathGuard } from '../core/fs/path-guard';
import type { PincerRuntime } from '../core/runtime';
import type { ExecPorts } from '../core/toolset';
import { UsageError } from './usage-error';

export function parseApprove(v: string | undefined): ApprovalAnswer {
  if (v === undefined) return 'deny';
  if (v === 'once' || v === 'always' || v === 'deny') return v;
  throw new UsageError(`--approve takes once, always or deny, got "${v}".`);
}

/** `guard` is the toolset's current guard (its roots are the workspace). */
export function cliExecPorts(rt: PincerRuntime, guard: Pick<PathGuard, 'roots'>, store: ApprovalStore, approve: ApprovalAnswer, stderr: (m: string) => void): ExecPorts {
  const jobs = new JobManager();
  // No terminal here: `terminal` runs as a child process.
  const executor = createExecutorFactory({
    config: () => rt.currentConfig.exec, roots: () => guard.roots, process: createProcessExecutor(), notice: (m) => stderr(`pincer: ${m}`),
  });
  const approver: Approver = {
    async request(req) {
      stderr(`pincer: approval needed (${req.reason}); answering "${approve}" as --approve says.`);
      return { answer: approve === 'always' && !req.always ? 'once' : approve, ...(approve === 'deny' ? { note: 'pincer run was not given --approve once|always' } : {}) };
    },
  };
  return {
    executor, jobs, store, approver: () => approver,
    // The CLI has no secret storage: a credential is read from the caller's own environment.
    secrets: { get: async (_binary, envName) => process.env[envName] || undefined },
  };
}
