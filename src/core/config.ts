// Pincer's whole configuration, read through one function from any key/value source: VS Code's
// settings in the extension, `.vscode/settings.json` or a JSON file in the CLI, plain objects in tests.
// Keys are the setting names without the `pincer.` prefix.
import { z } from 'zod';
import { readPolicyConfig, readSetting, type PolicyConfig } from './policy/policy-config';
import { DEFAULT_LIMITS, type RuntimeLimits } from './tools/registry';
import { DEFAULT_FS_SETTINGS } from './fs/path-deny';
import type { ReviewMode } from './fs/review-policy';
import { readMemoryConfig, type MemoryConfig } from './memory/memory-config';
import { readExecConfig, type ExecConfig } from './exec/exec-config';
import { readChatConfig, type ChatConfig } from './agent/provider-config';
import { readSubagentConfig, type SubagentConfig } from './subagents/subagent-config';
import { readWebConfig, WEB_USER_ONLY_SETTINGS, type WebConfig } from './web/web-config';

// Built when the setting has a value (readSetting): zod schemas built at load are load time every tool call's first use pays.
const thresholds = () => z.object({ warn: z.number().int().min(1), critical: z.number().int().min(1) });

/**
 * Settings a repository must not set for the person: each could loosen what runs, run a program of
 * the repository's choosing, or send a key of the person's to a server of the repository's choosing.
 * Hosts read them from user settings only (package.json scopes them `application` / `machine`; the
 * readers enforce it too, in the editor and the CLI).
 */
export const USER_ONLY_SETTINGS: ReadonlySet<string> = new Set([
  'exec.host', 'exec.security', 'exec.ask', 'exec.denyGroups', 'exec.allowlist', 'exec.sandbox.network',
  'exec.sandbox.hidePaths', 'exec.sandbox.mode', 'exec.sandbox.allowDomains', 'exec.sandbox.writablePaths', 'exec.sandbox.maxProcesses', 'exec.devcontainer.cliPath', 'exec.credentialed',
  'memory.embeddings.baseUrl',
  'providers.openai.baseUrl', 'providers.anthropic.baseUrl',
  'subagents.askBeforeSpawn',
  ...WEB_USER_ONLY_SETTINGS,
]);

export interface PincerConfig {
  policy: PolicyConfig;
  rateLimit: { enabled: boolean; perMinute: number; burst: number };
  loopDetection: { enabled: boolean; historySize: number; thresholds: Partial<Record<string, { warn: number; critical: number }>> };
  limits: RuntimeLimits;
  /** Slow-tool notice for tools with little history. */
  slowNoticeMs: number;
  fs: { workspaceOnly: boolean; allowPaths: string[]; denyPaths: string[] };
  edits: { review: ReviewMode; autoApprove: string[] };
  memory: MemoryConfig;
  exec: ExecConfig;
  chat: ChatConfig;
  subagents: SubagentConfig;
  web: WebConfig;
}

export function readConfig(get: (key: string) => unknown, warn: (message: string) => void = () => undefined): PincerConfig {
  const num = (key: string, min: number, max: number, fallback: number) =>
    readSetting(get, key, () => z.number().min(min).max(max), fallback, warn);
  const bool = (key: string, fallback: boolean) => readSetting(get, key, () => z.boolean(), fallback, warn);
  return {
    policy: readPolicyConfig(get, warn),
    rateLimit: {
      enabled: bool('rateLimit.enabled', true),
      perMinute: num('rateLimit.perMinute', 1, 100_000, 120),
      burst: num('rateLimit.burst', 1, 100_000, 60),
    },
    loopDetection: {
      enabled: bool('loopDetection.enabled', true),
      historySize: num('loopDetection.historySize', 5, 1000, 30),
      thresholds: readSetting(get, 'loopDetection.thresholds', () => z.partialRecord(
        z.enum(['sameCall', 'sameResult', 'pingPong', 'pollNoProgress', 'readOnlyStreak']), thresholds()), {}, warn),
    },
    limits: {
      maxResultChars: num('tools.maxResultChars', 1_000, 2_000_000, DEFAULT_LIMITS.maxResultChars),
      maxUserChars: DEFAULT_LIMITS.maxUserChars,
      defaultTimeoutMs: num('tools.timeoutSeconds', 1, 86_400, DEFAULT_LIMITS.defaultTimeoutMs / 1000) * 1000,
    },
    slowNoticeMs: num('tools.slowNoticeSeconds', 1, 86_400, 120) * 1000,
    fs: {
      workspaceOnly: bool('fs.workspaceOnly', DEFAULT_FS_SETTINGS.workspaceOnly),
      allowPaths: readSetting(get, 'fs.allowPaths', () => z.array(z.string().min(1)), [...DEFAULT_FS_SETTINGS.allowPaths], warn),
      denyPaths: readSetting(get, 'fs.denyPaths', () => z.array(z.string().min(1)), [...DEFAULT_FS_SETTINGS.denyPaths], warn),
    },
    edits: {
      review: readSetting(get, 'edits.review', () => z.enum(['always', 'auto-approve-globs', 'never']), 'always', warn),
      autoApprove: readSetting(get, 'edits.autoApprove', () => z.array(z.string().min(1)), [], warn),
    },
    memory: readMemoryConfig(get, warn),
    exec: readExecConfig(get, warn),
    chat: readChatConfig(get, warn),
    subagents: readSubagentConfig(get, warn),
    web: readWebConfig(get, warn),
  };
}

/** A lookup over a settings object that may use flat dotted keys ("pincer.tools.profile") or nesting. */
export function settingsLookup(settings: Record<string, unknown>): (key: string) => unknown {
  return (key) => {
    const flat = settings[`pincer.${key}`];
    if (flat !== undefined) return flat;
    let v: unknown = settings;
    for (const part of ['pincer', ...key.split('.')]) {
      if (v === null || typeof v !== 'object') return undefined;
      v = (v as Record<string, unknown>)[part];
    }
    return v;
  };
}
