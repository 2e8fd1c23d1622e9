// Teams in the chat's agent picker, beside the agents: picking one makes its lead the chat's agent in a
// new session started for the team (only the lead's prompt there gets TEAM.md).
//
// Decisions:
// - A team's entry is `team:<id>`. Agent ids are [a-z0-9][a-z0-9_-]*, so no agent can be named like a
//   team's entry, and a page that sends `team:x` for an agent that happens to be called x cannot pick it.
// - A team whose lead is not a defined agent is left out: picking it could only fail.
// - The picker shows the team (not its lead) while the chat is on a session started for that team, so
//   the person sees which of the two the session belongs to.
import type { AgentChoice } from '../chat/chat-protocol-parts';
import type { TeamDefinition } from './team-definition';

const PREFIX = 'team:';

/** What the chat needs of the teams (teams-host.ts in the editor). */
export interface ChatTeamPort {
  /** TEAM.md for a turn of `agentId` in `sessionKey`, when the session was started for a team that agent leads. */
  teamMd(sessionKey: string, agentId: string): Promise<string | undefined>;
  /** The teams defined now. */
  teams(): readonly TeamDefinition[];
  /** Starts a chat session for the team with its lead; undefined when the team cannot be picked (the person was told why). */
  pickCommand(teamId: string): Promise<TeamDefinition | undefined>;
  /** The team `sessionKey` was started for, when `agentId` leads it there. */
  sessionTeam(sessionKey: string, agentId: string): Promise<string | undefined>;
}

/** The picker entry of a team. */
export function teamChoiceId(teamId: string): string {
  return `${PREFIX}${teamId}`;
}

/** The team a picker entry names, or undefined for an agent's entry. */
export function teamOfChoice(id: string): string | undefined {
  return id.startsWith(PREFIX) && id.length > PREFIX.length ? id.slice(PREFIX.length) : undefined;
}

/** The agents, then the teams whose lead is one of them (each with its lead and members said). */
export function pickerChoices(agents: readonly AgentChoice[], teams: readonly TeamDefinition[]): AgentChoice[] {
  const known = new Set(agents.map((a) => a.id));
  const teamChoices = teams.filter((t) => known.has(t.lead)).map((t): AgentChoice => ({
    id: teamChoiceId(t.id),
    name: `Team: ${t.name}`,
    description: `lead ${t.lead}; members ${t.members.map((m) => m.agent).join(', ') || 'none'}`.slice(0, 400),
  }));
  return [...agents, ...teamChoices];
}
