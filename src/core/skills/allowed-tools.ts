// A skill's `allowed-tools`, as the policy sees it. Entries name tools the way other agents do (`Read`,
// `Grep`, `Bash(git status:*)`) or the way Pincer does (`read_file`, `group:fs`); they become Pincer
// names and go to the policy engine as a request allow list, so the answer is the turn's policy
// intersected with the skill's list — narrower or equal, never wider, whatever the SKILL.md says.
import { claudeTool } from '../agents/foreign-tools';
import type { Registry } from '../tools/registry';
import type { ToolContext } from '../tools/types';

/** Tools a skill never takes away from its own turn: reading the skill's files needs them. */
export const SKILL_READ_TOOLS: readonly string[] = ['use_skill', 'skill_search'];

export interface Narrowing {
  /** The tools the rest of the turn keeps, sorted. */
  keep: string[];
  /** Entries reduced to their tool: `Bash(git status:*)` allows exec, whose own judge and approvals still apply. */
  reduced: string[];
}

/** The turn's tools after a skill with these `allowed-tools` is used by the call `ctx` describes. */
export function narrowFor(allowedTools: readonly string[], registry: Registry, ctx: ToolContext): Narrowing {
  const reduced: string[] = [];
  const entries = allowedTools.map((raw) => {
    const bare = raw.replace(/\(.*\)$/s, '').trim();
    if (bare !== raw.trim()) reduced.push(raw);
    // Other agents' names (`Grep`, `WebFetch`) become Pincer's; anything else goes to the policy as written.
    return claudeTool(bare) ?? [bare];
  }).flat().filter((e) => e.length > 0);
  const req = registry.policyRequest(ctx);
  const now = new Set(registry.deps.policy.evaluate(req).allowed);
  const asked = registry.deps.policy.evaluate({ ...req, requestAllow: [...entries, ...SKILL_READ_TOOLS] }).allowed;
  const keep = asked.filter((n) => now.has(n) && (!ctx.offeredTools || ctx.offeredTools.has(n)));
  return { keep, reduced };
}
