// An agent file's `profile` and `tools` become that agent's tool policy, unless pincer.agents in
// the user's or workspace's settings already sets `tools` for it: settings are where a person
// decides, and they win. (A trusted repository can already set pincer.* in .vscode/settings.json;
// the host reads agent files only in trusted workspaces.) A Copilot or Claude Code definition only
// narrows: its tools become an allow list (an intersection) and a deny list, never a profile.
import type { AgentToolPolicy, PolicyConfig } from '../policy/policy-config';
import type { AgentDefinition } from './types';

export function withAgentPolicies(policy: PolicyConfig, agents: readonly AgentDefinition[]): PolicyConfig {
  const merged = { ...policy.agents };
  for (const a of agents) {
    if (Object.keys(merged[a.id] ?? {}).length) continue;
    if (a.source === 'copilot' || a.source === 'claude') {
      const narrowed = foreignPolicy(a);
      if (narrowed) merged[a.id] = narrowed;
      continue;
    }
    if (a.source !== 'workspace') continue;
    if (!a.profile && !a.tools) continue;
    // `tools: []` means no tools at all; an empty allow list would mean "no restriction".
    const tools = a.tools && (a.tools.length ? { allow: [...a.tools] } : { deny: ['*'] });
    merged[a.id] = { ...(a.profile ? { profile: a.profile } : {}), ...tools };
  }
  return { ...policy, agents: merged };
}

/** A foreign definition's lists as a policy that can only take tools away (undefined: it names none). */
function foreignPolicy(a: AgentDefinition): AgentToolPolicy | undefined {
  if (!a.tools && !a.deniedTools?.length) return undefined;
  // Every listed tool unmapped leaves an empty allow list, which would mean "no restriction".
  const deny = [...(a.tools && !a.tools.length ? ['*'] : []), ...(a.deniedTools ?? [])];
  return { ...(a.tools?.length ? { allow: [...a.tools] } : {}), ...(deny.length ? { deny } : {}) };
}
