// Settings of running commands (pincer.exec.*): where commands run, the command policy the judge
// applies, time limits, output caps and the sandbox. A bad value keeps its default and is reported;
// none of these can be loosened by the model (requests only tighten: see effectivePolicy).
import { z } from 'zod';
import { readSetting } from '../policy/policy-config';
import { allGroups, ALWAYS_DENY_GROUPS, GROUP_NAMES, type AllowlistEntry, type CommandPolicy, type GroupAction, type GroupName } from './command-policy';
import type { ExecHostKind } from './exec-types';
import { readCredentialedConfig, type CredentialedBinary } from './credentialed-config';
import { readSandboxConfig, type SandboxConfig } from './sandbox-config';

export interface ExecConfig {
  host: ExecHostKind;
  policy: CommandPolicy;
  /** Foreground default and the most a call may ask for, in ms. */
  timeoutMs: number;
  maxTimeoutMs: number;
  /** A background job without its own timeout stops after this. */
  backgroundTimeoutMs: number;
  /** How long an approval prompt waits before it counts as a deny. */
  approvalTimeoutMs: number;
  /** What the model sees of one run's output (head + tail); the rest is paged with `process log`. */
  maxOutputChars: number;
  sandbox: SandboxConfig;
  devcontainer: { cliPath: string };
  /** How long to wait for a new terminal's shell integration before running as a child process. */
  shellIntegrationWaitMs: number;
  /** How the editor asks: a modal dialog with every detail, or a notification that does not block. */
  approvalPrompt: 'modal' | 'notification';
  /** Programs credentialed_exec may run, with the credentials they get and the arguments they may not. */
  credentialed: CredentialedBinary[];
}

/** Built when pincer.exec.allowlist has a value, not when the runtime loads. */
const allowlistEntry = () => z.object({
  executable: z.string().min(1),
  args: z.string().optional(),
}).strict();

/**
 * pincer.exec.denyGroups: per group `true` (on, its default action), `false` (off), `"deny"` or
 * `"ask"`. A group that is never legitimate (reverse shells, mining) cannot ask: it stays `deny`.
 */
function readGroups(get: (key: string) => unknown, warn: (message: string) => void): { on: Partial<Record<GroupName, boolean>>; actions: Partial<Record<GroupName, GroupAction>> } {
  const raw = readSetting<Partial<Record<GroupName, boolean | GroupAction>>>(get, 'exec.denyGroups',
    () => z.partialRecord(z.enum(GROUP_NAMES), z.union([z.boolean(), z.enum(['deny', 'ask'])])), {}, warn);
  const on: Partial<Record<GroupName, boolean>> = {};
  const actions: Partial<Record<GroupName, GroupAction>> = {};
  for (const [g, value] of Object.entries(raw) as [GroupName, boolean | GroupAction][]) {
    on[g] = value !== false;
    if (value !== 'deny' && value !== 'ask') continue;
    if (value === 'ask' && ALWAYS_DENY_GROUPS.has(g)) warn(`Setting pincer.exec.denyGroups.${g} cannot be "ask": it is never legitimate, so it stays "deny".`);
    else actions[g] = value;
  }
  return { on, actions };
}

export function readExecConfig(get: (key: string) => unknown, warn: (message: string) => void): ExecConfig {
  const seconds = (key: string, min: number, max: number, fallback: number) =>
    readSetting(get, key, () => z.number().min(min).max(max), fallback, warn) * 1000;
  const groups = readGroups(get, warn);
  const timeoutMs = seconds('exec.timeoutSeconds', 1, 86_400, 60);
  let maxTimeoutMs = seconds('exec.maxTimeoutSeconds', 1, 86_400, 1800);
  if (maxTimeoutMs < timeoutMs) {
    warn('Setting pincer.exec.maxTimeoutSeconds is below pincer.exec.timeoutSeconds; the default timeout is used as the maximum.');
    maxTimeoutMs = timeoutMs;
  }
  return {
    host: readSetting(get, 'exec.host', () => z.enum(['terminal', 'process', 'sandbox', 'devcontainer']), 'terminal', warn),
    policy: {
      security: readSetting(get, 'exec.security', () => z.enum(['deny', 'allowlist', 'full']), 'full', warn),
      ask: readSetting(get, 'exec.ask', () => z.enum(['off', 'on-miss', 'always']), 'on-miss', warn),
      denyGroups: { ...allGroups(true), ...groups.on },
      groupActions: groups.actions,
      allowlist: readSetting<AllowlistEntry[]>(get, 'exec.allowlist', () => z.array(allowlistEntry()), [], warn),
    },
    timeoutMs,
    maxTimeoutMs,
    backgroundTimeoutMs: seconds('exec.backgroundTimeoutSeconds', 1, 7 * 86_400, 1800),
    approvalTimeoutMs: seconds('exec.approvalTimeoutSeconds', 5, 3600, 120),
    maxOutputChars: readSetting(get, 'exec.maxOutputChars', () => z.number().int().min(1000).max(2_000_000), 30_000, warn),
    sandbox: readSandboxConfig(get, warn),
    devcontainer: { cliPath: readSetting(get, 'exec.devcontainer.cliPath', () => z.string(), '', warn) },
    shellIntegrationWaitMs: seconds('exec.terminal.shellIntegrationWaitSeconds', 0, 120, 5),
    approvalPrompt: readSetting(get, 'exec.approvalPrompt', () => z.enum(['modal', 'notification']), 'modal', warn),
    credentialed: readCredentialedConfig(get, warn),
  };
}

