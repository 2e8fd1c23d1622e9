// A real exec toolset for unit tests: a temp workspace behind the real path guard, the real process
// executor, a job manager, an in-memory approval store and an approver that answers from a script
// (and records every request), all behind the real Registry pipeline.
import os from 'node:os';
import { MemoryApprovalStore } from '../../src/core/exec/approval-store';
import { createExecTools } from '../../src/core/exec/exec-tools';
import type { ApprovalAnswer, ApprovalRequest, Approver } from '../../src/core/exec/exec-types';
import { JobManager } from '../../src/core/exec/run/job-manager';
import { createProcessExecutor } from '../../src/core/exec/run/process-executor';
import { PathGuard } from '../../src/core/fs/path-guard';
import type { PincerRuntime } from '../../src/core/runtime';
import type { ToolResult } from '../../src/core/tools/types';
import { tempDir } from './fs-fixtures';
import { runtimeWith } from './test-tools';

export class ScriptedApprover implements Approver {
  readonly requests: ApprovalRequest[] = [];
  constructor(public answers: ApprovalAnswer[] = []) {}
  async request(req: ApprovalRequest): Promise<{ answer: ApprovalAnswer }> {
    this.requests.push(req);
    return { answer: this.answers.shift() ?? 'deny' };
  }
}

export interface ExecFixture {
  root: string;
  rt: PincerRuntime;
  jobs: JobManager;
  store: MemoryApprovalStore;
  approver: ScriptedApprover;
  run(tool: string, args: unknown, session?: string, signal?: AbortSignal): Promise<ToolResult>;
  dispose(): Promise<void>;
}

export function execFixture(settings: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = process.env): ExecFixture {
  const root = tempDir('exec');
  const rt = runtimeWith({ 'exec.host': 'process', 'rateLimit.enabled': false, 'loopDetection.enabled': false, ...settings });
  const guard = new PathGuard({ roots: [root], workspaceOnly: true, allowPaths: [], denyPaths: [], alwaysDeny: [], home: os.homedir() });
  const jobs = new JobManager();
  const store = new MemoryApprovalStore();
  const approver = new ScriptedApprover();
  const secrets = new Map<string, string>();
  const processExec = createProcessExecutor();
  rt.replaceTools(createExecTools({
    config: () => rt.currentConfig.exec, guard: () => guard, executor: () => processExec, jobs, store,
    approver: () => approver, baseEnv: () => env,
    credentials: { binaries: () => rt.currentConfig.exec.credentialed, secrets: { get: async (b, e) => secrets.get(`${b}.${e}`) }, scrubber: rt.scrubber },
    workspaceRoot: () => root,
  }));
  return {
    root, rt, jobs, store, approver,
    run: (tool, args, session = 'test:exec', signal) => rt.registry.execute(tool, args, rt.context({ channel: 'test', sessionKey: session, workspaceRoot: root, ...(signal ? { signal } : {}) })),
    dispose: () => jobs.dispose(),
  };
}
