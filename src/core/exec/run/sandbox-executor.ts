// The `sandbox` host: the same child process as the `process` host, wrapped in bubblewrap. The whole
// file system is visible read-only, only the writable roots (the workspace) can be written, /tmp is
// a private tmpfs, credentials folders are hidden, and the network is cut off unless allowed.
// It fails closed: when bubblewrap is missing or cannot make its namespaces, nothing runs.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveExecutable } from '../command-allowlist';
import type { Executor, RunningProcess, RunRequest } from '../exec-types';
import { deferredProcess, failedProcess, type OnOutput } from './pending-process';
import { createProcessExecutor } from './process-executor';
import { shellArgv } from './shell-command';

/** Credentials a command has no business reading; hidden when they exist. `~` is the home folder. */
export const DEFAULT_SANDBOX_HIDE: readonly string[] = [
  '~/.ssh', '~/.aws', '~/.config/gcloud', '~/.kube', '~/.gnupg', '~/.docker', '~/.netrc', '~/.npmrc',
  '~/.git-credentials', '~/.config/gh',
];

export interface HiddenPath {
  path: string;
  /** A folder is covered by an empty tmpfs; a file by /dev/null (reads as empty). */
  dir: boolean;
}

export interface BubblewrapOptions {
  writable: readonly string[];
  allowNetwork: boolean;
  hide?: readonly HiddenPath[];
}

export interface SandboxExecutorOptions {
  /** Absolute folders the command may write (the workspace folders). */
  writable: string[];
  allowNetwork: boolean;
  /** Paths to hide (`~/` allowed); default DEFAULT_SANDBOX_HIDE. Only existing ones are hidden. */
  hide?: string[];
  /** The bwrap binary; default `bwrap` on PATH. */
  bwrapPath?: string;
  /** The executor that runs bwrap; default a process executor. */
  base?: Executor;
}

const FIX = 'Install bubblewrap (`sudo apt install bubblewrap`), or set `pincer.exec.host` to `process` to run commands without a sandbox.';

/**
 * bwrap's arguments (without the command). Order matters: later mounts cover earlier ones, so the
 * private /tmp comes before the writable binds (a workspace under /tmp stays visible and writable)
 * and the hidden paths come last (a credentials folder stays hidden even inside a writable root).
 */
export function bubblewrapArgs(opts: BubblewrapOptions, cwd: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const w of opts.writable) args.push('--bind', w, w);
  // A working directory under /tmp outside every writable root would vanish under the private /tmp.
  if (isUnder(cwd, '/tmp') && !opts.writable.some((w) => isUnder(cwd, w))) args.push('--ro-bind', cwd, cwd);
  // A file gets /dev/null with device access kept: bwrap's plain binds are nodev, and a nodev
  // /dev/null fails every read with EACCES — which breaks npm on a hidden ~/.npmrc — rather than
  // reading as empty. Writes to it vanish; the real file is untouched either way.
  for (const h of opts.hide ?? []) args.push(...(h.dir ? ['--tmpfs', h.path] : ['--dev-bind', '/dev/null', h.path]));
  args.push('--unshare-all');
  if (opts.allowNetwork) args.push('--share-net');
  // --new-session: no TIOCSTI keystrokes into the terminal that started us.
  args.push('--die-with-parent', '--new-session', '--chdir', cwd);
  return args;
}

function isUnder(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The paths of `paths` (with `~/` expanded) that exist, each marked folder or file. */
export function existingHidden(paths: readonly string[], home = os.homedir()): HiddenPath[] {
  const out: HiddenPath[] = [];
  for (const p of paths) {
    const abs = p === '~' || p.startsWith('~/') ? path.join(home, p.slice(1)) : p;
    try {
      const real = fs.realpathSync.native(abs);
      out.push({ path: real, dir: fs.statSync(real).isDirectory() });
    } catch {
      /* does not exist: nothing to hide */
    }
  }
  return out;
}

const probes = new Map<string, Promise<string | undefined>>();

/** Whether bwrap can make its namespaces here: undefined when it can, else its error line. Once per binary. */
function probe(bwrap: string): Promise<string | undefined> {
  let p = probes.get(bwrap);
  if (!p) {
    p = new Promise((resolve) => {
      execFile(bwrap, ['--ro-bind', '/', '/', '--unshare-all', 'true'], { timeout: 10_000, env: { PATH: '/usr/bin:/bin' } }, (err, _out, stderr) => {
        if (!err) return resolve(undefined);
        const line = String(stderr).split('\n').find((l) => l.trim()) ?? err.message;
        resolve(line.trim());
      });
    });
    probes.set(bwrap, p);
  }
  return p;
}

function findBwrap(explicit: string | undefined): string | undefined {
  if (explicit) {
    try {
      fs.accessSync(explicit, fs.constants.X_OK);
      return fs.statSync(explicit).isFile() ? explicit : undefined;
    } catch {
      return undefined;
    }
  }
  return resolveExecutable('bwrap', '/', process.env.PATH ?? '/usr/bin:/bin');
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

export function createSandboxExecutor(opts: SandboxExecutorOptions): Executor {
  const base = opts.base ?? createProcessExecutor();
  const start = (req: RunRequest, onOutput: OnOutput): RunningProcess => {
    if (process.platform !== 'linux') {
      return failedProcess(`The sandbox uses bubblewrap, which needs Linux (this is ${process.platform}); nothing ran. Set \`pincer.exec.host\` to \`process\` or \`devcontainer\`.`);
    }
    const bwrap = findBwrap(opts.bwrapPath);
    if (!bwrap) {
      return failedProcess(`bubblewrap (bwrap) was not found ${opts.bwrapPath ? `at ${opts.bwrapPath}` : 'on PATH'}, so the sandbox cannot run anything; nothing ran. ${FIX}`);
    }
    return deferredProcess(probe(bwrap).then((problem) => {
      if (problem) {
        return { startError: `bubblewrap cannot create its sandbox here (${problem}); nothing ran. Allow unprivileged user namespaces, or ${FIX[0].toLowerCase()}${FIX.slice(1)}` };
      }
      // Canonical paths: a bind or chdir through a symlink under the private /tmp would not resolve.
      const writable = opts.writable.filter((w) => fs.existsSync(w)).map(realOrSelf);
      const cwd = realOrSelf(req.cwd);
      const inner = 'shell' in req.target ? shellArgv(req.target.shell) : [...req.target.argv];
      const args = bubblewrapArgs({ writable, allowNetwork: opts.allowNetwork, hide: existingHidden(opts.hide ?? DEFAULT_SANDBOX_HIDE) }, cwd);
      // bwrap runs with the request's cwd on the host too: a missing cwd is reported by the base executor.
      return { start: () => base.start({ ...req, target: { argv: [bwrap, ...args, '--', ...inner] } }, onOutput) };
    }));
  };
  return { kind: 'sandbox', start };
}
