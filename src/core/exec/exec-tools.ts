// The runtime toolset — exec, process, credentialed_exec — built from one set of dependencies, so the
// three share the job manager (a credentialed run's output pages with `process log` like any other),
// the path guard and the environment rules. The extension and the CLI both build exactly this.
import type { Tool } from '../tools/types';
import type { CredentialedBinary } from './credentialed-config';
import { execEnvironment } from './exec-env';
import { createCredentialedExecTool } from './tools/credentialed-exec';
import { createExecTool, type ExecToolDeps } from './tools/exec';
import { createProcessTool } from './tools/process';

export interface ExecToolsDeps extends ExecToolDeps {
  credentials: {
    binaries: () => CredentialedBinary[];
    secrets: { get(binary: string, envName: string): Promise<string | undefined> };
    scrubber: { register(value: string): void };
  };
  workspaceRoot: () => string | undefined;
}

export function createExecTools(deps: ExecToolsDeps): Tool[] {
  const c = () => deps.config();
  return [
    createExecTool(deps),
    createProcessTool(deps.jobs, { maxResultChars: c().maxOutputChars, lines: deps }),
    createCredentialedExecTool({
      ...deps.credentials,
      // No shell and no terminal: the program runs by argv as a child process, outside the sandbox
      // (it is a configured program that needs its own service's network and credentials).
      executor: deps.executor('process', { sandbox: false }),
      jobs: deps.jobs,
      baseEnv: () => execEnvironment(deps.baseEnv()),
      guard: deps.guard(),
      workspaceRoot: deps.workspaceRoot,
      timeoutMs: { default: c().timeoutMs, max: c().maxTimeoutMs },
      maxResultChars: c().maxOutputChars,
    }),
  ] as Tool[];
}
