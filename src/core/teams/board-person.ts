// What a person does on the Team Board: add, cancel, retry, approve, reject and reassign tasks, with the
// lead's own rules and consequences (a cancelled task's run stops, released tasks' assignees start,
// a rejected task's member gets the feedback) but recorded as `person`. The lead hears of each in its
// mailbox, so its plan follows what the person changed.
import { BOARD_REFUSAL } from './board-schema';
import { taskLine } from './board-format';
import type { PersonAction, PersonTask } from './board-protocol';
import { approveTask, assignTask, cancelTask, rejectTask, retryTask } from './team-task-finish';
import type { TeamCaller, TeamService } from './team-service';

export const PERSON = 'person';

export async function personAction(svc: TeamService, teamId: string, a: PersonAction): Promise<{ ok: boolean; text: string }> {
  const team = svc.team(teamId);
  if (!team) return { ok: false, text: `There is no team ${teamId}.` };
  // Members are started under the lead's chat session, when one was started for this team.
  await svc.ready();
  const c: TeamCaller = { team, name: PERSON, role: 'lead', leadSessionKey: svc.leadSession(teamId) ?? '' };
  try {
    const r = await run(svc, c, a);
    const text = r.forLLM;
    if (!r.isError) await (await svc.board()).send(teamId, PERSON, [team.lead], `[person, on the Team Board] ${text}`, svc.now());
    return { ok: !r.isError, text };
  } catch (e) {
    const message = (e as Error).message;
    if (message.startsWith(BOARD_REFUSAL)) return { ok: false, text: message };
    throw e;
  }
}

function run(svc: TeamService, c: TeamCaller, a: PersonAction) {
  switch (a.action) {
    case 'cancel': return cancelTask(svc, c, a.id, a.text ?? 'cancelled on the Team Board');
    case 'retry': return retryTask(svc, c, a.id, a.text ?? 'retried on the Team Board');
    case 'approve': return approveTask(svc, c, a.id, a.text ?? '');
    case 'reject': {
      if (!a.text?.trim()) throw new Error(`${BOARD_REFUSAL} rejecting needs feedback for the member.`);
      return rejectTask(svc, c, a.id, a.text);
    }
    case 'assign': {
      if (!a.assignee || !svc.isMember(c.team, a.assignee)) {
        throw new Error(`${BOARD_REFUSAL} ${a.assignee ?? '(nobody)'} is not on team ${c.team.id}: pick one of ${[c.team.lead, ...c.team.members.map((m) => m.agent)].join(', ')}.`);
      }
      return assignTask(svc, c, a.id, a.assignee);
    }
  }
}

/** A task the person adds: open to whoever claims it (the lead assigns it), and the lead is told. */
export async function personCreate(svc: TeamService, teamId: string, input: PersonTask): Promise<{ ok: boolean; text: string }> {
  const team = svc.team(teamId);
  if (!team) return { ok: false, text: `There is no team ${teamId}.` };
  const board = await svc.board();
  const t = await board.create(teamId, { subject: input.subject, description: input.description }, { name: PERSON, at: svc.now() });
  const text = `Created ${taskLine(t)}.`;
  await board.send(teamId, PERSON, [team.lead], `[person, on the Team Board] ${text} Assign it to a member (or do it yourself).`, svc.now());
  return { ok: true, text };
}
