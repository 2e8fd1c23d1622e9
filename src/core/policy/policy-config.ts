// The policy part of Pincer's configuration, validated with zod. Bad values never throw at the host:
// each bad field falls back to its default and produces a warning that names the setting.
import { z } from 'zod';

// The schemas are built when a setting that uses them has a value (readSetting), not when the module
// loads: every window's first tool call loads this module, and few windows set these.
const toolListSchema = () => z.array(z.string().min(1)).optional();

const toolPolicySchema = () => z.object({
  profile: z.string().optional(),
  allow: toolListSchema(),
  deny: toolListSchema(),
  alsoAllow: toolListSchema(),
});
export type ToolPolicy = z.infer<ReturnType<typeof toolPolicySchema>>;

const buildAgentToolPolicySchema = () => toolPolicySchema().extend({
  byProvider: z.record(z.string(), toolPolicySchema()).optional(),
});
let agentToolPolicy: ReturnType<typeof buildAgentToolPolicySchema> | undefined;
/** An agent's `tools` (pincer.agents.<id>.tools, an agent file's settings): built once, on first use. */
export function agentToolPolicySchema(): ReturnType<typeof buildAgentToolPolicySchema> {
  return (agentToolPolicy ??= buildAgentToolPolicySchema());
}
export type AgentToolPolicy = z.infer<ReturnType<typeof agentToolPolicySchema>>;

const channelPolicySchema = () => z.object({ allow: toolListSchema(), deny: toolListSchema() });
export type ChannelPolicy = z.infer<ReturnType<typeof channelPolicySchema>>;

export interface PolicyConfig {
  /** Global profile; `coding` unless set. */
  profile: string;
  /** Global allow list; empty means "no restriction at this step". */
  allow: string[];
  deny: string[];
  alsoAllow: string[];
  byProvider: Record<string, ToolPolicy>;
  /** Step 7 ("group allow"): per entry point — chat, palette, lm, cli, subagent, mcp. */
  byChannel: Record<string, ChannelPolicy>;
  agents: Record<string, AgentToolPolicy>;
  /** Depth at which a subagent is a leaf and may not spawn or inspect sessions. */
  subagentMaxDepth: number;
}

export const DEFAULT_POLICY: PolicyConfig = {
  profile: 'coding',
  allow: [],
  deny: [],
  alsoAllow: [],
  byProvider: {},
  byChannel: {},
  agents: {},
  subagentMaxDepth: 1,
};

/**
 * Reads one setting through a schema; a bad value is reported and replaced by the fallback. The schema
 * may be given as a function that builds it: it is then built only for a key that has a value. Most
 * keys are unset, and building every key's zod schema at each read cost the first tool call ~6 ms.
 */
export function readSetting<T>(
  get: (key: string) => unknown,
  key: string,
  schema: z.ZodType<T> | (() => z.ZodType<T>),
  fallback: T,
  warn: (message: string) => void,
): T {
  const raw = get(key);
  if (raw === undefined || raw === null) return fallback;
  const parsed = (typeof schema === 'function' ? schema() : schema).safeParse(raw);
  if (parsed.success) return parsed.data;
  const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(value)'}: ${i.message}`).join('; ');
  warn(`Setting pincer.${key} is invalid (${why}); using ${JSON.stringify(fallback)} until it is fixed.`);
  return fallback;
}

/** `pincer.agents`: agent id → its settings; the policy reads only `tools`, later issues read more. */
const agentsSchema = () => z.record(z.string(), z.looseObject({ tools: agentToolPolicySchema().optional() }));

export function readPolicyConfig(get: (key: string) => unknown, warn: (message: string) => void): PolicyConfig {
  const list = () => z.array(z.string().min(1));
  return {
    profile: readSetting(get, 'tools.profile', () => z.string().min(1), DEFAULT_POLICY.profile, warn),
    allow: readSetting(get, 'tools.allow', list, [], warn),
    deny: readSetting(get, 'tools.deny', list, [], warn),
    alsoAllow: readSetting(get, 'tools.alsoAllow', list, [], warn),
    byProvider: readSetting(get, 'tools.byProvider', () => z.record(z.string(), toolPolicySchema()), {}, warn),
    byChannel: readSetting(get, 'tools.byChannel', () => z.record(z.string(), channelPolicySchema()), {}, warn),
    agents: Object.fromEntries(Object.entries(readSetting(get, 'agents', agentsSchema, {}, warn)).map(([id, a]) => [id, a.tools ?? {}])),
    subagentMaxDepth: readSetting(get, 'subagents.maxDepth', () => z.number().int().min(0).max(5), DEFAULT_POLICY.subagentMaxDepth, warn),
  };
}
