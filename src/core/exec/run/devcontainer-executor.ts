// The `devcontainer` host: the command runs inside the workspace's dev container through the Dev
// Containers CLI (`devcontainer exec`), started by the process executor on the host. The container
// has its own environment: nothing of the host's is passed in, and the CLI itself gets only what it
// needs to run and reach Docker.
import fs from 'node:fs';
import path from 'node:path';
import { resolveExecutable } from '../resolve-executable';
import type { Executor, RunningProcess, RunRequest } from '../exec-types';
import { failedProcess, type OnOutput } from './pending-process';
import { createProcessExecutor } from './process-executor';
import { shellQuote } from './shell-command';

export interface DevcontainerExecutorOptions {
  /** The host folder holding `.devcontainer/devcontainer.json` or `.devcontainer.json`. */
  workspaceFolder: string;
  /** The `devcontainer` CLI; default `devcontainer` on PATH. */
  cliPath?: string;
  /** The executor that runs the CLI on the host; default a process executor. */
  base?: Executor;
}

/** What the CLI needs on the host: find node and docker, its config, and a remote Docker daemon. */
const CLI_ENV = ['PATH', 'HOME', 'DOCKER_HOST', 'DOCKER_CONTEXT'];
const FIX = 'Install the Dev Containers CLI (`npm install -g @devcontainers/cli`) or set its path, or set `pincer.exec.host` to another host (`process`, `sandbox`).';

function findCli(explicit: string | undefined, pathVar: string): string | undefined {
  if (!explicit) return resolveExecutable('devcontainer', '/', pathVar);
  try {
    fs.accessSync(explicit, fs.constants.X_OK);
    return fs.statSync(explicit).isFile() ? explicit : undefined;
  } catch {
    return undefined;
  }
}

export function hasDevcontainerConfig(workspaceFolder: string): boolean {
  return ['.devcontainer/devcontainer.json', '.devcontainer.json'].some((f) => fs.existsSync(path.join(workspaceFolder, f)));
}

/**
 * The script `/bin/sh -c` runs in the container: change to the working directory (relative to the
 * workspace folder, where `devcontainer exec` starts) and run the command. A failed `cd` stops it, so
 * the command never runs somewhere else (`cd x && a || b` would run b).
 */
export function containerScript(req: Pick<RunRequest, 'target' | 'cwd'>, workspaceFolder: string): string {
  const rel = path.relative(workspaceFolder, req.cwd).split(path.sep).join('/');
  const cd = `cd ${shellQuote(rel || '.')} || exit 1`;
  const run = 'shell' in req.target ? req.target.shell : `exec ${req.target.argv.map(shellQuote).join(' ')}`;
  return `${cd}\n${run}`;
}

export function createDevcontainerExecutor(opts: DevcontainerExecutorOptions): Executor {
  const base = opts.base ?? createProcessExecutor();
  const ws = path.resolve(opts.workspaceFolder);
  const start = (req: RunRequest, onOutput: OnOutput): RunningProcess => {
    const cliEnv: Record<string, string> = {};
    for (const k of CLI_ENV) {
      const v = req.env[k] ?? process.env[k];
      if (v !== undefined) cliEnv[k] = v;
    }
    const cli = findCli(opts.cliPath, cliEnv.PATH ?? '');
    if (!cli) return failedProcess(`The Dev Containers CLI was not found ${opts.cliPath ? `at ${opts.cliPath}` : 'on PATH'}; nothing ran. ${FIX}`);
    if (!hasDevcontainerConfig(ws)) {
      return failedProcess(`${ws} has no dev container configuration (.devcontainer/devcontainer.json or .devcontainer.json); nothing ran. Add one, or set \`pincer.exec.host\` to another host (\`process\`, \`sandbox\`).`);
    }
    const rel = path.relative(ws, req.cwd);
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      return failedProcess(`The working directory ${req.cwd} is outside the dev container's workspace folder ${ws}; nothing ran. Run it from inside ${ws}.`);
    }
    const argv = [cli, 'exec', '--workspace-folder', ws, '--', '/bin/sh', '-c', containerScript(req, ws)];
    return base.start({ target: { argv }, cwd: ws, env: cliEnv, interactive: req.interactive }, onOutput);
  };
  return { kind: 'devcontainer', start };
}
