// The person on the board: the owner of this editor calling team_tasks from the editor itself (the
// Team Board's buttons, Run Tool) acts as the lead does, recorded as `person`, on the team it names.
// Its calls go through the one pipeline like any other (policy, tool log, rate limit), and the tool
// tells it from a model by its entry point: the palette channel is only ever a person's own call
// (models call on chat, subagent, lm and mcp), so naming a team is refused to every other caller.
import type { ToolContext } from '../tools/types';
import type { PersonAction, PersonTask } from './board-protocol';
import type { TeamCaller, TeamService } from './team-service';

export const PERSON = 'person';

/** What the person may do: the board's buttons and reading the board; the work on a task is the members'. */
export const PERSON_MAY: ReadonlySet<string> = new Set(['create', 'search', 'list', 'get', 'assign', 'cancel', 'retry', 'approve', 'reject']);

/** The actions after which the lead is told, so its plan follows what the person changed. */
const TOLD = new Set(['create', 'assign', 'cancel', 'retry', 'approve', 'reject']);

/** Is this call the person's own (not a model's)? */
export function isPersonCall(ctx: ToolContext): boolean {
  return ctx.channel === 'palette' && ctx.isOwner && ctx.subagentDepth === 0;
}

/** The person as a caller on `teamId`, or why it cannot act there. */
export async function personCaller(svc: TeamService, teamId: string | undefined, action: string): Promise<TeamCaller | string> {
  const ids = () => svc.teams().map((t) => t.id).join(', ') || '(none)';
  if (teamId === undefined) return `Name the team to act on with team (one of ${ids()}).`;
  const team = svc.team(teamId);
  if (!team) return `There is no team ${teamId} (the teams are ${ids()}).`;
  if (!PERSON_MAY.has(action)) return `The person may ${[...PERSON_MAY].join(', ')} on a team's board; ${action} is the work of the team's agents.`;
  // Members are started under the lead's chat session, when one was started for this team.
  await svc.ready();
  return { team, name: PERSON, role: 'lead', leadSessionKey: svc.leadSession(teamId) ?? '' };
}

/** After the person's change: the lead hears of it in its mailbox. */
export async function tellLead(svc: TeamService, c: TeamCaller, action: string, text: string): Promise<void> {
  if (!TOLD.has(action)) return;
  const next = action === 'create' ? ' Assign it to a member (or do it yourself).' : '';
  await (await svc.board()).send(c.team.id, PERSON, [c.team.lead], `[person, on the Team Board] ${text}${next}`, svc.now());
}

/** The board page's message as the team_tasks call it stands for; a reason left empty gets the board's own. */
export function boardCall(teamId: string, m: PersonAction | PersonTask): Record<string, unknown> {
  if (m.type === 'create') return { action: 'create', team: teamId, subject: m.subject, ...(m.description ? { description: m.description } : {}) };
  const given = m.text?.trim() || undefined;
  const text = given ?? (m.action === 'cancel' ? 'cancelled on the Team Board' : m.action === 'retry' ? 'retried on the Team Board' : undefined);
  return { action: m.action, team: teamId, id: m.id, ...(m.assignee !== undefined ? { assignee: m.assignee } : {}), ...(text !== undefined ? { text } : {}) };
}
