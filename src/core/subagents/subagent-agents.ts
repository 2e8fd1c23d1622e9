// Which agent a child runs as. A named agent must be defined and valid: a typo or a broken file is
// refused with what exists and what is wrong, never silently replaced by another agent (whose tools
// could be wider). Without a name the child is a clean copy of its caller's agent.
import type { AgentDefinition } from '../agents/types';

/** The part of the agent registry the subagents read. */
export interface AgentDirectory {
  get(id: string): AgentDefinition | undefined;
  all(): AgentDefinition[];
  /** Problems of the definitions, each naming its file or setting. */
  readonly problems: readonly string[];
}

export class AgentReferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentReferenceError';
  }
}

export function childAgent(agents: AgentDirectory, requested: string | undefined, callerAgentId: string): string {
  if (requested === undefined) return callerAgentId;
  if (agents.get(requested)) return requested;
  const known = agents.all().map((a) => a.id).sort();
  const problems = agents.problems.filter((p) => p.includes(`/${requested}.`) || p.includes(`"${requested}"`) || p.includes(`agents.${requested}`));
  if (problems.length) {
    throw new AgentReferenceError(`Agent "${requested}" has a broken definition, so no child was started: ${problems.join(' ')} Fix it, or pick one of: ${known.join(', ')}.`);
  }
  throw new AgentReferenceError(`There is no agent "${requested}". Available agents: ${known.join(', ') || '(none)'}; leave out "agent" to start a copy of yourself.`);
}

/** The agents a child may be started as, sorted by id (the tool description stays byte-stable). */
export function agentCatalogue(agents: readonly Pick<AgentDefinition, 'id' | 'description'>[]): string {
  return [...agents].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((a) => `- ${a.id}${a.description ? `: ${a.description.replace(/\s+/g, ' ').slice(0, 160)}` : ''}`).join('\n');
}
