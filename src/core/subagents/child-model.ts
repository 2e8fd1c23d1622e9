// Which model an agent's turn runs on. An agent whose definition names a model the chosen provider
// offers runs on it; any other runs on its caller's model: the model the calling agent itself runs on,
// found by the same rule one level up, down to the person's chosen model for the session they talk to.
// So a child spawned by an agent that names its model inherits that model, not the picker's choice.
import { mapForeignModel, type OfferedModel } from '../agents/foreign-model';
import type { AgentDefinition } from '../agents/types';
import type { SubagentRecord } from './types';

export type ModelNaming = Pick<AgentDefinition, 'model' | 'foreignModel'>;

/** A session's key starts with its agent's prefix, `agent:<id>:` (session-store's sessionPrefix). */
const SESSION_AGENT = /^agent:([a-z0-9][a-z0-9_-]*):/;

/**
 * The agents that called the one whose session this is, nearest first: a child's parent session's
 * agent, that session's caller, … up to the agent of the top-level session. Empty for a person's own
 * chat session.
 */
export function callerAgentIds(sessionKey: string, childOfSession: (key: string) => Pick<SubagentRecord, 'parentSessionKey'> | undefined): string[] {
  const out: string[] = [];
  const seen = new Set([sessionKey]);
  for (let child = childOfSession(sessionKey); child && !seen.has(child.parentSessionKey); child = childOfSession(child.parentSessionKey)) {
    seen.add(child.parentSessionKey);
    const id = SESSION_AGENT.exec(child.parentSessionKey)?.[1];
    if (id) out.push(id);
  }
  return out;
}

/** The offered model an agent's definition names, or undefined when it names none the provider has. */
function namedModel(agent: ModelNaming, offered: readonly OfferedModel[]): string | undefined {
  if (agent.model) {
    // Pincer's own definitions name a model as the picker shows it (its id). A provider that could
    // not list its models is trusted with the name, as the picker would have been.
    return offered.length ? mapForeignModel(agent.model, offered) : agent.model;
  }
  // Copilot and Claude Code definitions name models their own way ("sonnet"): only a model the
  // provider offers counts.
  return agent.foreignModel ? mapForeignModel(agent.foreignModel, offered) : undefined;
}

export interface ModelChoice {
  /** The agent whose turn this is. */
  agent: ModelNaming;
  /** Its callers' definitions, nearest first (see callerAgentIds); empty for a person's own chat. */
  callers: readonly ModelNaming[];
  /** The model the person chose in the picker. */
  chosen: string;
  /** The chosen provider's models; asked only when some definition in the chain names a model. */
  offered: () => Promise<readonly OfferedModel[]>;
}

export async function modelFor({ agent, callers, chosen, offered }: ModelChoice): Promise<string> {
  const chain = [agent, ...callers];
  if (!chain.some((a) => a.model || a.foreignModel)) return chosen;
  const list = await offered().catch(() => []);
  for (const a of chain) {
    const m = namedModel(a, list);
    if (m) return m;
  }
  return chosen;
}
