// Confinement: any executor's runs (the terminal's, a child process's) wrapped in bubblewrap on Linux
// (sandbox-profile.ts) or Seatbelt on macOS (sandbox-seatbelt.ts) with the default profile: the file system read-only but for the workspace, the package
// caches and a private /tmp; credential stores hidden; the network only through the filtering proxy
// (sandbox-proxy.ts); a process limit (process-limit.ts). It fails closed: when bubblewrap is missing
// or cannot make its namespaces, or the proxy or the limit cannot be set up, nothing runs.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import type { LookupFunction } from 'node:net';
import os from 'node:os';
import { resolveExecutable } from '../resolve-executable';
import type { Executor, RunningProcess, RunOutcome, RunRequest } from '../exec-types';
import { deferredProcess, failedProcess, type OnOutput } from './pending-process';
import { prepareProcessLimit } from './process-limit';
import { createProcessExecutor } from './process-executor';
import { shellPath } from './shell-command';
import { DenialWatcher } from './sandbox-denial';
import {
  bubblewrapArgs, DEFAULT_SANDBOX_CACHES, DEFAULT_SANDBOX_HIDE, existingCaches, existingHidden, sandboxSetupScript,
  type BubblewrapOptions,
} from './sandbox-profile';
import { DEFAULT_ALLOWED_DOMAINS, startSandboxProxy, type SandboxProxy } from './sandbox-proxy';
import { SANDBOX_EXEC, seatbeltCommand } from './sandbox-seatbelt';

export interface SandboxExecutorOptions {
  /** Absolute folders the command may write (the workspace folders). */
  writable: string[];
  /** `proxy` (default): only allowed domains through the proxy; `full`: the host's network; `none`. */
  network?: 'proxy' | 'full' | 'none';
  /** Domains the proxy admits; default DEFAULT_ALLOWED_DOMAINS. */
  allowDomains?: readonly string[];
  /** Hosts, by exact name, that may resolve to a loopback or private address (the person's own listing). */
  privateHosts?: readonly string[];
  /** Paths to hide (`~/` allowed); default DEFAULT_SANDBOX_HIDE. Only existing ones are hidden. */
  hide?: readonly string[];
  /** Cache folders made writable (`~/` allowed); default DEFAULT_SANDBOX_CACHES. */
  caches?: readonly string[];
  /** A host folder used as the command's /tmp, so files there last to the next command; default an empty /tmp per command. */
  tmpDir?: string;
  /** Most processes the command may have at once (default 1024). */
  maxProcesses?: number;
  /** The bwrap binary; default `bwrap` on PATH. */
  bwrapPath?: string;
  /** The relay into the sandbox's network namespace; default `socat` on PATH. */
  socatPath?: string;
  /** The executor that runs the bwrap line (the terminal or a child process); default a process executor. */
  base?: Executor;
  /** Name resolution for the proxy (tests map a registry name to loopback). */
  lookup?: LookupFunction;
  home?: string;
}

const FIX = 'Install bubblewrap (`sudo apt install bubblewrap`), or set `pincer.exec.sandbox` to `off` to run commands without confinement.';
const NO_RELAY = 'socat is not installed, so this sandbox had no network at all (not even the allowed domains); install socat (`sudo apt install socat`) to reach package registries from sandboxed commands.';

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

/** The program at `explicit` if it is an executable file, else `name` on PATH. */
export function findProgram(name: string, explicit?: string): string | undefined {
  if (explicit) {
    try {
      fs.accessSync(explicit, fs.constants.X_OK);
      return fs.statSync(explicit).isFile() ? explicit : undefined;
    } catch {
      return undefined;
    }
  }
  return resolveExecutable(name, '/', process.env.PATH ?? '/usr/bin:/bin');
}

/** Whether commands can be confined here at all: Linux with bubblewrap installed, or macOS with sandbox-exec. */
export function sandboxSupported(bwrapPath?: string, platform = process.platform): boolean {
  if (platform === 'darwin') return findProgram('sandbox-exec', SANDBOX_EXEC) !== undefined;
  return platform === 'linux' && findProgram('bwrap', bwrapPath) !== undefined;
}

/** What confines the run here, or why nothing can (then nothing runs). */
function sandboxEngine(opts: SandboxExecutorOptions): { kind: 'bwrap'; bwrap: string } | { kind: 'seatbelt' } | { error: string } {
  if (process.platform === 'darwin') {
    return findProgram('sandbox-exec', SANDBOX_EXEC) ? { kind: 'seatbelt' } : { error: `macOS's sandbox-exec was not found at ${SANDBOX_EXEC}, so the sandbox cannot run anything; nothing ran. Set \`pincer.exec.sandbox.mode\` to \`off\` to run commands without confinement.` };
  }
  if (process.platform !== 'linux') {
    return { error: `The sandbox uses bubblewrap (Linux) or Seatbelt (macOS), and this is ${process.platform}; nothing ran. Set \`pincer.exec.sandbox.mode\` to \`off\`, or \`pincer.exec.host\` to \`devcontainer\`.` };
  }
  const bwrap = findProgram('bwrap', opts.bwrapPath);
  if (!bwrap) return { error: `bubblewrap (bwrap) was not found ${opts.bwrapPath ? `at ${opts.bwrapPath}` : 'on PATH'}, so the sandbox cannot run anything; nothing ran. ${FIX}` };
  return { kind: 'bwrap', bwrap };
}

/** What one run set up and must take down when it ends (however it ends). */
interface Held {
  proxy?: SandboxProxy;
  socat?: string;
  release?: () => Promise<void>;
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
    const engine = sandboxEngine(opts);
    if ('error' in engine) return failedProcess(engine.error);
    const watcher = new DenialWatcher();
    const held: Held = {};
    const notes: string[] = [];
    const run = deferredProcess((async () => {
      const problem = engine.kind === 'bwrap' ? await probe(engine.bwrap) : undefined;
      if (problem) {
        return { startError: `bubblewrap cannot create its sandbox here (${problem}); nothing ran. Allow unprivileged user namespaces, or ${FIX[0].toLowerCase()}${FIX.slice(1)}` };
      }
      const limit = prepareProcessLimit(opts.maxProcesses ?? 1024);
      if ('problem' in limit) return { startError: `The sandbox's process limit could not be set: ${limit.problem}; nothing ran.` };
      held.release = limit.release;
      const net = await sandboxNetwork(opts, held, notes, engine.kind === 'seatbelt');
      // Canonical paths: a bind or chdir through a symlink under the private /tmp would not resolve.
      const writable = [...opts.writable.filter((w) => fs.existsSync(w)).map(realOrSelf), ...existingCaches(opts.caches ?? DEFAULT_SANDBOX_CACHES, opts.home)];
      const cwd = realOrSelf(req.cwd);
      const shell = shellPath();
      const inner = 'shell' in req.target ? [shell, '--norc', '--noprofile', '-c', req.target.shell] : [...req.target.argv];
      const tmp = opts.tmpDir && fs.existsSync(opts.tmpDir) ? realOrSelf(opts.tmpDir) : undefined;
      const hide = existingHidden(opts.hide ?? DEFAULT_SANDBOX_HIDE, opts.home ?? os.homedir());
      const setup = sandboxSetupScript({ maxProcesses: opts.maxProcesses ?? 1024, relay: net === 'proxy' ? held.socat : undefined });
      const proxy = held.proxy;
      const unproxied = { kind: net === 'full' ? 'full' : 'none' } as const;
      let argv: string[];
      let env = req.env;
      if (engine.kind === 'seatbelt') {
        // Seatbelt cannot give a command a /tmp of its own: it gets the window's temp folder as TMPDIR.
        if (!tmp) return { startError: 'The sandbox needs a private temp folder and none could be made; nothing ran.' };
        const sb = seatbeltCommand({ writable, tmp, hide, network: net === 'proxy' && proxy?.port ? { kind: 'proxy', port: proxy.port } : unproxied }, setup, inner, shell);
        argv = [...limit.prefix, ...sb.argv];
        env = { ...req.env, ...sb.env };
      } else {
        const network = net === 'proxy' && proxy?.socketPath ? { kind: 'proxy' as const, hostSocket: proxy.socketPath } : unproxied;
        const profile: BubblewrapOptions = { writable, network, tmp, hide };
        argv = [...limit.prefix, engine.bwrap, ...bubblewrapArgs(profile, cwd), '--', shell, '--norc', '--noprofile', '-c', setup, 'pincer-sandbox', ...inner];
      }
      // The wrapper runs with the request's cwd on the host too: a missing cwd is reported by the base executor.
      return {
        start: () => base.start({ ...req, env, target: { argv, visible: true } }, (chunk, stream) => {
          watcher.push(chunk);
          onOutput(chunk, stream);
        }),
      };
    })());
    const done = run.done.then(async (o): Promise<RunOutcome> => {
      const refusals = held.proxy ? [...held.proxy.refusals] : [];
      await held.proxy?.close();
      // The cgroup goes once what is left of the tree has ended: that need not hold up the result.
      void held.release?.();
      const failed = !o.startError && o.exitCode !== 0;
      const sandboxDenied = watcher.verdict(failed, refusals, opts.network === 'full');
      const note = [o.note, ...notes].filter(Boolean).join('; ') || undefined;
      return { ...o, ...(note ? { note } : {}), ...(sandboxDenied ? { sandboxDenied } : {}) };
    });
    return { get pid() { return run.pid; }, done, write: (d) => run.write(d), endInput: () => run.endInput(), kill: async (g) => { await run.kill(g); await done; } };
  };
  return { kind: base.kind, sandboxed: true, start };
}

/**
 * The network the run gets; with the proxy, the proxy is started and kept in `held` for cleanup.
 * `loopback`: Seatbelt's, where the proxy listens on a loopback port the profile admits (no relay).
 */
async function sandboxNetwork(opts: SandboxExecutorOptions, held: Held, notes: string[], loopback: boolean): Promise<'proxy' | 'full' | 'none'> {
  const kind = opts.network ?? 'proxy';
  if (kind !== 'proxy') return kind;
  const proxyOptions = { allowDomains: opts.allowDomains ?? DEFAULT_ALLOWED_DOMAINS, privateAllowed: opts.privateHosts, lookup: opts.lookup };
  if (loopback) {
    held.proxy = await startSandboxProxy({ ...proxyOptions, listen: 'loopback' });
    return 'proxy';
  }
  const socat = findProgram('socat', opts.socatPath);
  if (!socat) {
    notes.push(NO_RELAY);
    return 'none';
  }
  held.socat = socat;
  held.proxy = await startSandboxProxy(proxyOptions);
  return 'proxy';
}
