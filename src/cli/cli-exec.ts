// exec, process and credentialed_exec in the CLI: the same tools and pipeline as the editor. There is
// no terminal (pincer.exec.host 'terminal' runs as a child process here), nobody to prompt (approvals
// are answered by --approve, default deny), no secret storage (credentials come from the environment
// only when named with --credential-env) and no database ("always" lasts for the run).
import { MemoryApprovalStore } from '../core/exec/approval-store';
import { createExecTools } from '../core/exec/exec-tools';
import type { ApprovalAnswer, Approver, Executor, ExecHostKind } from '../core/exec/exec-types';
import { createDevcontainerExecutor } from '../core/exec/run/devcontainer-executor';
import { JobManager } from '../core/exec/run/job-manager';
import { createProcessExecutor } from '../core/exec/run/process-executor';
import { createSandboxExecutor } from '../core/exec/run/sandbox-executor';
import type { PathGuard } from '../core/fs/path-guard';
import type { PincerRuntime } from '../core/runtime';
import type { Tool } from '../core/tools/types';
import { UsageError } from './usage-error';
import os from 'node:os';
import { expandHome } from '../core/fs/path-deny';

export function parseApprove(v: string | undefined): ApprovalAnswer {
  if (v === undefined) return 'deny';
  if (v === 'once' || v === 'always' || v === 'deny') return v;
  throw new UsageError(`--approve takes once, always or deny, got "${v}".`);
}

export function cliExecTools(rt: PincerRuntime, guard: PathGuard, approve: ApprovalAnswer, stderr: (m: string) => void): { tools: Tool[]; jobs: JobManager } {
  const jobs = new JobManager();
  const processExec = createProcessExecutor();
  const executor = (kind: ExecHostKind): Executor => {
    const c = rt.currentConfig.exec;
    if (kind === 'sandbox') return createSandboxExecutor({ writable: [...guard.roots], allowNetwork: c.sandbox.network, hide: c.sandbox.hide.map((p) => expandHome(p, os.homedir())), base: processExec });
    if (kind === 'devcontainer') return createDevcontainerExecutor({ workspaceFolder: guard.roots[0], cliPath: c.devcontainer.cliPath || undefined, base: processExec });
    return processExec;
  };
  const approver: Approver = {
    async request(req) {
      stderr(`pincer: approval needed (${req.reason}); answering "${approve}" as --approve says.`);
      return { answer: approve === 'always' && !req.always ? 'once' : approve, ...(approve === 'deny' ? { note: 'pincer run was not given --approve once|always' } : {}) };
    },
  };
  const tools = createExecTools({
    config: () => rt.currentConfig.exec, guard: () => guard, executor, jobs, store: new MemoryApprovalStore(),
    approver: () => approver, baseEnv: () => process.env, home: os.homedir(),
    credentials: {
      binaries: () => rt.currentConfig.exec.credentialed,
      // The CLI has no secret storage: a credential is read from the caller's own environment.
      secrets: { get: async (_binary, envName) => process.env[envName] || undefined },
      scrubber: rt.scrubber,
    },
    workspaceRoot: () => guard.roots[0],
  });
  return { tools, jobs };
}
