// An agent file's `profile` and `tools` become that agent's tool policy, unless pincer.agents in
// the user's or workspace's settings already sets `tools` for it: settings are where a person
// decides, and they win. (A trusted repository can already set pincer.* in .vscode/settings.json;
// the host reads agent files only in trusted workspaces.)
import type { PolicyConfig } from '../policy/policy-config';
import type { AgentDefinition } from './types';

export function withAgentPolicies(policy: PolicyConfig, agents: readonly AgentDefinition[]): PolicyConfig {
  const merged = { ...policy.agents };
  for (const a of agents) {
    if (a.source !== 'workspace' || Object.keys(merged[a.id] ?? {}).length) continue;
    if (!a.profile && !a.tools) continue;
    // `tools: []` means no tools at all; an empty allow list would mean "no restriction".
    const tools = a.tools && (a.tools.length ? { allow: [...a.tools] } : { deny: ['*'] });
    merged[a.id] = { ...(a.profile ? { profile: a.profile } : {}), ...tools };
  }
  return { ...policy, agents: merged };
}
