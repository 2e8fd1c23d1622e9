// The one place that turns the exec settings into an executor for a command: where it runs
// (pincer.exec.host: the integrated terminal, a child process, the dev container) and whether it is
// confined (pincer.exec.sandbox.*). The editor and the CLI differ only in what they plug in — the
// editor has a terminal and storage folders to hide, the CLI has neither — so both build their
// executors here and neither repeats the assembly.
import type { ExecConfig } from '../exec-config';
import type { Executor, ExecHostKind } from '../exec-types';

/**
 * The dev container and sandbox executors (with the sandbox's proxy and its address parser), required
 * at the first command: the factory is made when the runtime loads, a read_file call never runs one.
 * Literal paths, so that esbuild bundles them.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const executors = {
  devcontainer: () => require('./devcontainer-executor') as typeof import('./devcontainer-executor'),
  sandbox: () => require('./sandbox-select') as typeof import('./sandbox-select'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

export interface ExecutorPorts {
  /** The exec settings now: read per command, so a changed setting applies to the next one. */
  config: () => ExecConfig;
  /** The workspace folders now (writable in the sandbox; the first is the dev container's folder). */
  roots: () => readonly string[];
  /** Runs commands as child processes; also what the sandbox and the dev container wrap. */
  process: Executor;
  /** The integrated terminal, where there is one; without it `terminal` runs as a child process. */
  terminal?: Executor;
  /** Folders the sandbox always hides, whatever the settings say (Pincer's own storage). */
  alwaysHidden?: readonly string[];
  /** Told once when the sandbox is on but cannot confine here. */
  notice: (message: string) => void;
}

/** The executor factory the exec, process and credentialed_exec tools run with. */
export type ExecutorFactory = (kind: ExecHostKind, opts?: { sandbox?: boolean }) => Executor;

export function createExecutorFactory(p: ExecutorPorts): ExecutorFactory {
  return (kind, opts) => {
    const c = p.config();
    const roots = [...p.roots()];
    const base = (k: Exclude<ExecHostKind, 'sandbox'>): Executor => {
      if (k === 'terminal') return p.terminal ?? p.process;
      if (k === 'devcontainer') return executors.devcontainer().createDevcontainerExecutor({ workspaceFolder: roots[0] ?? process.cwd(), cliPath: c.devcontainer.cliPath || undefined, base: p.process });
      return p.process;
    };
    return executors.sandbox().sandboxedExecutor(kind, base, { config: c.sandbox, roots, alwaysHidden: p.alwaysHidden, notice: p.notice }, opts);
  };
}
