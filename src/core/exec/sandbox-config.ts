// Settings of the sandbox (pincer.exec.sandbox.*), all user-only: whether commands are confined, and
// how far the default profile is widened. The on/off switch is `pincer.exec.sandbox.mode`, not
// `pincer.exec.sandbox`: VS Code keeps settings as one tree, where a value at `exec.sandbox` and the
// settings below it cannot both exist (one of them would be dropped). Which executor results is decided by sandboxedExecutor
// (run/sandbox-select.ts); the profile itself is in run/sandbox-profile.ts.
import { z } from 'zod';
import { readSetting } from '../policy/policy-config';
import { DEFAULT_SANDBOX_HIDE } from './run/sandbox-profile';

export interface SandboxConfig {
  /** `on`: confine every command where the platform can (Linux with bubblewrap); `off`: never. */
  mode: 'on' | 'off';
  /** true: the host's whole network; false: only the allowed domains, through the proxy. */
  fullNetwork: boolean;
  /** Domains the proxy admits beyond the built-in registries and git hosts (`*.example.com` for subdomains). */
  allowDomains: string[];
  /** Paths hidden from commands (`~/` allowed). */
  hide: string[];
  /** Folders writable beyond the workspace and the built-in package caches (`~/` allowed). */
  writable: string[];
  /** Most processes one command may have at once (the fork-bomb limit). */
  maxProcesses: number;
}

/** A domain pattern: a host name, or `*.` and a host name. No schemes, paths, ports or bare `*`. */
/** Built when pincer.exec.sandbox.allowDomains has a value, not when the runtime loads. */
const domain = () => z.string().regex(/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i, 'a host name such as example.com or *.example.com');

export function readSandboxConfig(get: (key: string) => unknown, warn: (message: string) => void): SandboxConfig {
  return {
    mode: readSetting(get, 'exec.sandbox.mode', () => z.enum(['on', 'off']), 'on', warn),
    fullNetwork: readSetting(get, 'exec.sandbox.network', () => z.boolean(), false, warn),
    allowDomains: readSetting(get, 'exec.sandbox.allowDomains', () => z.array(domain()), [], warn),
    hide: readSetting(get, 'exec.sandbox.hidePaths', () => z.array(z.string().min(1)), [...DEFAULT_SANDBOX_HIDE], warn),
    writable: readSetting(get, 'exec.sandbox.writablePaths', () => z.array(z.string().regex(/^(~\/|\/)/, 'an absolute path or one under ~/')), [], warn),
    maxProcesses: readSetting(get, 'exec.sandbox.maxProcesses', () => z.number().int().min(16).max(65_536), 1024, warn),
  };
}
