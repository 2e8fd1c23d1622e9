// Where a command runs and how it is confined are two settings: pincer.exec.host picks the executor
// (terminal, process, devcontainer), pincer.exec.sandbox.mode wraps it in the sandbox. The legacy host
// value `sandbox` means a child process in the sandbox, required (it never runs unconfined). With
// `on` and no sandbox here (Windows, or Linux without bubblewrap) commands run unconfined, and the
// person is told once. A dev container is its own confinement and is not wrapped again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExecHostKind, Executor } from '../exec-types';
import type { SandboxConfig } from '../sandbox-config';
import { createSandboxExecutor, sandboxSupported, type SandboxExecutorOptions } from './sandbox-executor';
import { DEFAULT_SANDBOX_CACHES, expandTilde } from './sandbox-profile';
import { DEFAULT_ALLOWED_DOMAINS } from './sandbox-proxy';

export interface SandboxContext {
  config: SandboxConfig;
  /** The workspace folders (writable). */
  roots: readonly string[];
  /** Paths hidden whatever the settings say (Pincer's own storage). */
  alwaysHidden?: readonly string[];
  /** Told once per process when `on` cannot confine here. */
  notice?: (message: string) => void;
  /** Test seams. */
  overrides?: Partial<SandboxExecutorOptions>;
}

let noticeGiven = false;

export const UNSUPPORTED_NOTICE = process.platform === 'linux'
  ? 'Commands run without a sandbox: bubblewrap is not installed. Install it (`sudo apt install bubblewrap`, and `socat` for package registries) to confine them to the workspace, or set pincer.exec.sandbox.mode to "off" to hide this notice.'
  : `Commands run without a sandbox: Pincer's sandbox needs Linux with bubblewrap or macOS with sandbox-exec, and this is ${process.platform}. Set pincer.exec.sandbox.mode to "off" to hide this notice, or use pincer.exec.host "devcontainer".`;

let sharedTmp: string | undefined;

/**
 * The sandbox's /tmp for every command of this process (a window, or one CLI run): a `make` that
 * leaves files in /tmp and the command after it see the same folder, while the host's /tmp stays
 * out of reach. A private folder (mode 0700) under the host's temp folder, removed when the process ends.
 */
export function sandboxTmp(): string | undefined {
  if (sharedTmp && fs.existsSync(sharedTmp)) return sharedTmp;
  try {
    if (sharedTmp === undefined) process.once('exit', () => sharedTmp && fs.rmSync(sharedTmp, { recursive: true, force: true }));
    sharedTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-sandbox-tmp-'));
    return sharedTmp;
  } catch {
    return undefined; // no temp folder to make: each command gets an empty /tmp of its own
  }
}

/** The sandbox options the settings describe (paths expanded, built-in lists extended). */
export function sandboxOptions(ctx: SandboxContext, base: Executor): SandboxExecutorOptions {
  const c = ctx.config;
  const home = os.homedir();
  return {
    writable: [...ctx.roots],
    network: c.fullNetwork ? 'full' : 'proxy',
    allowDomains: [...DEFAULT_ALLOWED_DOMAINS, ...c.allowDomains],
    // A name the person wrote out in full may be an internal host; a wildcard never admits one.
    privateHosts: c.allowDomains.filter((d) => !d.startsWith('*.')),
    hide: [...c.hide.map((p) => expandTilde(p, home)), ...(ctx.alwaysHidden ?? [])],
    caches: [...DEFAULT_SANDBOX_CACHES, ...c.writable],
    maxProcesses: c.maxProcesses,
    tmpDir: sandboxTmp(),
    base,
    ...ctx.overrides,
  };
}

/**
 * The executor for `host`, confined as configured. `sandbox: false` asks for it unconfined (a re-run
 * the person allowed outside the sandbox); it never confines what the settings leave unconfined.
 */
export function sandboxedExecutor(host: ExecHostKind, base: (kind: Exclude<ExecHostKind, 'sandbox'>) => Executor, ctx: SandboxContext, opts: { sandbox?: boolean } = {}): Executor {
  if (host === 'sandbox') {
    return opts.sandbox === false ? base('process') : createSandboxExecutor(sandboxOptions(ctx, base('process')));
  }
  const inner = base(host);
  if (host === 'devcontainer' || opts.sandbox === false || ctx.config.mode === 'off') return inner;
  if (!sandboxSupported(ctx.overrides?.bwrapPath)) {
    if (!noticeGiven) {
      noticeGiven = true;
      ctx.notice?.(UNSUPPORTED_NOTICE);
    }
    return inner;
  }
  return createSandboxExecutor(sandboxOptions(ctx, inner));
}
