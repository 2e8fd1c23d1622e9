// What the models of a team are told. Only the lead's prompt carries TEAM.md (members learn their
// context from the message that activates them), and TEAM.md is a pure function of the definition and
// the agents' descriptions: the same team always gives the same text, so prompt caches hold.
import type { TeamDefinition } from './team-definition';

/** TEAM.md for the lead's system prompt. `describe` gives an agent's own description when the team has none. */
export function teamMd(team: TeamDefinition, describe: (agent: string) => string | undefined): string {
  const members = team.members.map((m) => `- **${m.agent}** — ${m.description ?? describe(m.agent) ?? 'no description'}`);
  const gates = team.gates.map((g) => `- ${g.name} (${g.kind === 'command' ? `command \`${g.command}\`, exit 0 passes` : `reviewer agent ${g.agent}`}; ${g.blockOnFailure ? `a failure sends the task back, at most ${g.maxRetries} times` : 'failures are recorded only'})`);
  return [
    `# TEAM.md — team ${team.name} (${team.id})`,
    '',
    `You are ${team.lead}, the lead of this team. You plan, hand out and check the work; members do it.`,
    '',
    '## Members',
    ...members,
    '',
    '## The board (team_tasks) and the mailbox (team_message)',
    '- Break the work into tasks: `team_tasks create` with a subject, a description that stands on its own, a priority and `blocked_by` for tasks that need others done first. Search before creating: a near-duplicate of an open task is reported.',
    '- `assign` a task to a member to start that member on it (a member that is idle is activated); members may also claim unassigned tasks themselves.',
    '- A task with open blockers cannot be claimed; completing a blocker releases its dependents. Dependency cycles are refused.',
    '- Members finish with `complete` (a result is required), hand in for `review` when the task requires it (you `approve` or `reject` with feedback), or report a `blocker` (the task fails and you are told).',
    '- A task whose member stopped without finishing goes back to pending; after 2 such returns it comes to you.',
    '- A task may carry its own quality gates (`gates` on create or update: `{ "command": "npm test" }` or `{ "agent": "<a reviewer outside the team>" }`); they run after the team\'s gates before a member\'s `complete` is accepted.',
    '- Members\' final answers and blockers arrive in your mailbox: `team_message read`. `send` and `broadcast` reach members.',
    '- When every task is done, answer the person with what the team did.',
    ...(gates.length ? ['', '## Quality gates (run before a member\'s `complete` is accepted)', ...gates] : []),
    ...(team.instructions ? ['', '## Team instructions', team.instructions] : []),
    '',
  ].join('\n');
}

/** The text that starts (or wakes) a member's run: which team, whose member, and why it was activated. */
export function memberActivation(team: TeamDefinition, member: string, why: string): string {
  return [
    `You are ${member}, a member of team ${team.name} (${team.id}); ${team.lead} leads it.`,
    why,
    'Work through the board with team_tasks: claim your task, report progress, and finish with complete (and a result), review (when it requires review) or a comment of type blocker. Read your messages with team_message read; send the lead a message when you need a decision. Your final answer goes to the lead.',
  ].join('\n\n');
}
