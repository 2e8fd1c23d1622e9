// The fields an agent definition may set, shared by the two places agents are defined: the front
// matter of `.pincer/agents/<id>.md` and the `pincer.agents` setting. Each field is checked on its
// own so one message names the field, what was given and what is allowed.
//
// Decisions:
// - A field with the wrong type or value is an error and the agent is not loaded. `type` and `tools`
//   decide what the model may change and call: silently dropping a bad value would widen both.
// - Unknown keys and an unknown tool profile are warnings (the agent loads): a typo in `descripton`
//   must not take an agent away, and the policy already treats an unknown profile as full, warning.
import { z } from 'zod';
import { agentToolPolicySchema, type AgentToolPolicy } from '../policy/policy-config';
import type { AgentType } from './types';

/** Lower-case letters, digits, '-' and '_', starting with a letter or digit, at most 64 characters. */
export const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const AGENT_TYPES: readonly AgentType[] = ['open', 'predefined'];
export const TOOL_PROFILES: readonly string[] = ['minimal', 'coding', 'messaging', 'full'];

/** What the checked fields come to (either source); undefined fields were not given. */
export interface AgentFields {
  type?: AgentType;
  name?: string;
  description?: string;
  profile?: string;
  model?: string;
  /** Allowed tools. */
  tools?: string[];
  instructions?: string;
}

export interface FieldProblems {
  errors: string[];
  warnings: string[];
}

interface FieldSpec {
  schema: z.ZodType;
  /** What is allowed, for the message. */
  allowed: string;
}

const text = z.string().trim().min(1).max(10_000);
const toolList = z.array(z.string().trim().min(1).max(200)).max(500);

const COMMON: Record<string, FieldSpec> = {
  type: { schema: z.enum(['open', 'predefined']), allowed: '"open" (every context file per user) or "predefined" (shared files, only USER.md per user)' },
  name: { schema: text.max(200), allowed: 'a non-empty display name' },
  description: { schema: text, allowed: 'a short text' },
  profile: { schema: z.string().trim().min(1), allowed: `one of ${TOOL_PROFILES.join(', ')}` },
  model: { schema: text.max(200), allowed: 'a model name as the model picker shows it' },
};

/** Front matter: `tools` is the list of allowed tools; `id` may repeat the file name. */
export const FILE_FIELDS: Record<string, FieldSpec> = {
  ...COMMON,
  tools: { schema: toolList, allowed: 'a list of tool names, groups (group:fs) or globs (mcp_*), for example [read_file, group:web]' },
  id: { schema: z.string(), allowed: 'the file name without .md' },
};

/**
 * Settings: `tools` is the same object the tool policy reads from pincer.agents.<id>.tools
 * ({ profile, allow, deny, alsoAllow, byProvider }); a plain list there would make the policy
 * reject the whole pincer.agents setting, so it is refused here with the form to use.
 */
export const SETTINGS_FIELDS: Record<string, FieldSpec> = {
  ...COMMON,
  tools: { schema: agentToolPolicySchema(), allowed: 'an object such as { "allow": ["read_file", "group:web"], "deny": ["exec"] } (the tool policy of this agent)' },
  instructions: { schema: z.string().max(256 * 1024), allowed: 'the agent\'s instructions as text (they seed its SOUL.md)' },
};

function shownValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}

/**
 * Checks `raw` field by field; `where(field)` names a field in messages ("agents/x.md: field
 * \"type\"", "pincer.agents.x.type"). Returns undefined when any field is an error.
 */
export function checkFields(
  raw: Record<string, unknown>,
  specs: Record<string, FieldSpec>,
  where: (field: string) => string,
  problems: FieldProblems,
): AgentFields | undefined {
  const out: Record<string, unknown> = {};
  let bad = false;
  for (const [key, value] of Object.entries(raw)) {
    const spec = specs[key];
    if (!spec) {
      problems.warnings.push(`${where(key)} is not a known field and is ignored; known fields: ${Object.keys(specs).join(', ')}.`);
      continue;
    }
    if (value === undefined || value === null) continue;
    const parsed = spec.schema.safeParse(value);
    if (!parsed.success) {
      problems.errors.push(`${where(key)} is ${shownValue(value)}, which is not allowed: use ${spec.allowed}.`);
      bad = true;
      continue;
    }
    out[key] = parsed.data;
  }
  if (bad) return undefined;
  if (typeof out.profile === 'string' && !TOOL_PROFILES.includes(out.profile)) {
    problems.warnings.push(`${where('profile')} is ${JSON.stringify(out.profile)}, which is not a tool profile (${TOOL_PROFILES.join(', ')}); the tool policy will use "full" and warn.`);
  }
  const fields: AgentFields = {};
  for (const k of ['type', 'name', 'description', 'profile', 'model', 'instructions'] as const) {
    if (out[k] !== undefined) (fields as Record<string, unknown>)[k] = out[k];
  }
  const tools = out.tools as string[] | AgentToolPolicy | undefined;
  if (Array.isArray(tools)) fields.tools = tools;
  else if (tools) {
    if (tools.allow) fields.tools = tools.allow;
    if (fields.profile === undefined && tools.profile) fields.profile = tools.profile;
  }
  return fields;
}

/** A valid id near `raw` (for "rename it to …" messages). */
export function suggestId(raw: string): string {
  const s = raw.normalize('NFKD').toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^[-_]+|-+$/g, '').slice(0, 64);
  return s || 'my-agent';
}

/** Why `id` is not a valid agent id, or undefined when it is. */
export function idProblem(id: string): string | undefined {
  if (AGENT_ID_PATTERN.test(id)) return undefined;
  return `${JSON.stringify(id)} is not a valid agent id: use lower-case letters, digits, '-' and '_', starting with a letter or digit, at most 64 characters (for example ${JSON.stringify(suggestId(id))})`;
}
