// team_tasks (group `teams`): the team's task board. Every action is one atomic change of the board
// (see sql-board-store.ts), recorded as an audit event; the rules (claims, blockers, cycles,
// results, review) are the database's, so a refusal here says exactly what to do instead. The person
// calls it too (the Team Board's buttons, Run Tool: see board-person.ts), naming the team, as the lead.
import { z } from 'zod';
import { defineTool, fail, ok, type ToolContext, type ToolResult } from '../tools/types';
import { nearDuplicates, taskDetail, taskLine, taskList } from './board-format';
import { isPersonCall, personCaller, tellLead } from './board-person';
import { BOARD_REFUSAL } from './board-schema';
import type { GatePorts } from './quality-gates';
import { gateFromInput, gateInput, type GateDefinition } from './team-definition';
import { approveTask, assignTask, cancelTask, completeTask, handIn, rejectTask, reportBlocker, retryTask, startedText } from './team-task-finish';
import type { TeamCaller, TeamService } from './team-service';

const id = z.number().int().min(1);
const parameters = z.object({
  action: z.enum(['create', 'search', 'list', 'get', 'update', 'claim', 'assign', 'progress', 'comment', 'attach', 'complete', 'cancel', 'retry', 'review', 'approve', 'reject', 'ask_user'])
    .describe('What to do; the lead alone may update, assign, cancel, retry, approve and reject.'),
  id: id.optional().describe('The task (all actions on one task).'),
  subject: z.string().trim().min(1).max(200).optional().describe('create/update: a short title.'),
  description: z.string().max(20_000).optional().describe('create/update: everything a member needs, standing on its own.'),
  priority: z.number().int().min(0).max(9).optional().describe('create/update: 0-9, higher first (default 0).'),
  blocked_by: z.array(id).max(50).optional().describe('create/update: tasks that must be completed first (update replaces the list).'),
  assignee: z.string().min(1).max(64).optional().describe('create/assign: the member (agent id) to do it; assigning starts an idle member on it.'),
  require_review: z.boolean().optional().describe('create/update: the lead must approve the result.'),
  gates: z.array(gateInput).max(10).optional()
    .describe('create/update (the lead): this task\'s own quality gates, run after the team\'s before a member\'s complete is accepted: { command } (exit 0 passes) or { agent } (a reviewer outside the team answers APPROVED or REJECTED: feedback); update replaces them.'),
  query: z.string().min(1).max(500).optional().describe('search: words to find in subjects and descriptions.'),
  filter: z.enum(['active', 'completed', 'all']).optional().describe('list: default active.'),
  order: z.enum(['priority', 'newest']).optional().describe('list: default priority.'),
  percent: z.number().int().min(0).max(100).optional().describe('progress: how far along.'),
  text: z.string().trim().min(1).max(20_000).optional().describe('progress: a note; comment: the comment; review/approve/reject/cancel/retry: a note, feedback or reason; ask_user: the question.'),
  type: z.enum(['note', 'blocker']).optional().describe('comment: a note, or a blocker (the task fails, your run ends, the lead is told).'),
  path: z.string().min(1).max(1000).optional().describe('attach: a workspace file the task produced or needs.'),
  result: z.string().trim().min(1).max(50_000).optional().describe('complete/review: what was done (required).'),
  team: z.string().min(1).max(64).optional().describe('The person\'s own calls only (the Team Board, Run Tool): the team to act on. An agent\'s team is its session\'s: leave it out.'),
}).strict();

type Args = z.infer<typeof parameters>;

const LEAD_ONLY = new Set(['update', 'assign', 'cancel', 'retry', 'approve', 'reject']);
const NEEDS_ID = new Set(['get', 'update', 'claim', 'assign', 'progress', 'comment', 'attach', 'complete', 'cancel', 'retry', 'review', 'approve', 'reject']);

const DESCRIPTION = 'The team\'s task board: create tasks with dependencies, claim them (one member per task), report progress, complete them with a result, '
  + 'hand them in for review, report blockers, and (the lead) assign, approve, reject, cancel and retry. A task with open blockers cannot be claimed.';

export function createTeamTasksTool(svc: () => TeamService | undefined, gates?: () => GatePorts | undefined) {
  return defineTool({
    name: 'team_tasks', description: DESCRIPTION, parameters, group: 'teams', capability: 'mutating',
    // complete may wait on quality gates (a command's approval, a reviewer's run) and ask_user on a
    // person: only the caller's own deadline limits it.
    interactive: true,
    async execute(args: Args, ctx: ToolContext): Promise<ToolResult> {
      const s = svc();
      if (!s) return fail('Teams are not available here (no workspace database).');
      const person = isPersonCall(ctx);
      // Naming a team is the person's alone: an agent acts only on the team its session belongs to.
      if (!person && args.team !== undefined) return fail('Refused: team is for the person\'s own calls from the editor; an agent acts on its session\'s team only, so leave team out.');
      const caller = person ? await personCaller(s, args.team, args.action) : await s.identify(ctx);
      if (typeof caller === 'string') return fail(caller);
      if (LEAD_ONLY.has(args.action) && caller.role !== 'lead') return fail(`Only the lead (${caller.team.lead}) may ${args.action} tasks: send the lead a message with team_message.`);
      if (NEEDS_ID.has(args.action) && args.id === undefined) return fail(`${args.action} needs the task's id.`);
      try {
        const r = await run(s, caller, args, ctx, gates?.());
        if (person && !r.isError) await tellLead(s, caller, args.action, r.forLLM);
        return r;
      } catch (e) {
        const message = (e as Error).message;
        if (message.startsWith(BOARD_REFUSAL)) return fail(message);
        throw e;
      }
    },
  });
}

/**
 * A task's gates as given. A reviewer on the team itself is refused: a member (or the lead) would pass
 * judgement on the team's own work, and its answer would come from the very agents the gate checks.
 */
function taskGates(c: TeamCaller, given: readonly z.infer<typeof gateInput>[]): GateDefinition[] {
  const onTeam = new Set([c.team.lead, ...c.team.members.map((m) => m.agent)]);
  const inside = given.find((g) => g.agent !== undefined && onTeam.has(g.agent));
  if (inside) throw new Error(`${BOARD_REFUSAL} reviewer ${inside.agent} is on team ${c.team.id}; a gate's reviewer must be an agent outside the team, so no one reviews the team's own work.`);
  return given.map(gateFromInput);
}

async function run(s: TeamService, c: TeamCaller, a: Args, ctx: ToolContext, gates: GatePorts | undefined): Promise<ToolResult> {
  const board = await s.board();
  const team = c.team.id;
  const by = { name: c.name, at: s.now() };
  const need = <K extends keyof Args>(key: K, what: string): NonNullable<Args[K]> => {
    if (a[key] === undefined) throw new Error(`${BOARD_REFUSAL} ${a.action} needs ${what}.`);
    return a[key]!;
  };
  const checkMember = (name: string) => {
    if (!s.isMember(c.team, name)) throw new Error(`${BOARD_REFUSAL} ${name} is not on team ${team}: its members are ${c.team.members.map((m) => m.agent).join(', ')} (and the lead ${c.team.lead}).`);
  };
  const tid = a.id!;
  const ownGates = a.gates && taskGates(c, a.gates);
  switch (a.action) {
    case 'create': {
      const subject = need('subject', 'a subject');
      if (a.assignee) {
        if (c.role !== 'lead') return fail('Only the lead assigns tasks; leave out assignee (the task is open to whoever claims it).');
        checkMember(a.assignee);
      }
      if (ownGates && c.role !== 'lead') return fail('Only the lead sets a task\'s quality gates; leave out gates (the team\'s own gates still run).');
      const similar = nearDuplicates(subject, await board.search(team, subject, { anyWord: true, openOnly: true, limit: 10 }));
      const t = await board.create(team, { subject, description: a.description, priority: a.priority, blockedBy: a.blocked_by, assignee: a.assignee, requireReview: a.require_review, gates: ownGates }, by);
      const started = a.assignee && t.openBlockers.length === 0 ? await s.activate(c, a.assignee, `Task #${t.id} "${t.subject}" is assigned to you: claim it and work on it.`) : undefined;
      return ok([
        `Created ${taskLine(t)}.`,
        started ? startedText(a.assignee!, started) : a.assignee ? `${a.assignee} starts on it once its blockers are completed.` : '',
        similar.length ? `Warning: it looks like open task${similar.length === 1 ? '' : 's'} ${similar.map((d) => `#${d.id} "${d.subject}"`).join(', ')}: cancel one of them if they are the same work.` : '',
      ].filter(Boolean).join('\n'), { details: { id: t.id, duplicates: similar.map((d) => d.id) } });
    }
    case 'search':
      return ok(taskList(await board.search(team, need('query', 'a query'), { limit: 20 }), 'No task matches.'));
    case 'list':
      return ok(taskList(await board.list(team, a.filter ?? 'active', a.order ?? 'priority'), `No ${a.filter ?? 'active'} tasks.`));
    case 'get': {
      const t = await board.get(team, tid);
      return t ? ok(taskDetail(t, await board.events(team, { taskId: tid, limit: 50 }))) : fail(`There is no task #${tid} on team ${team}.`);
    }
    case 'update': {
      const t = await board.update(team, tid, { subject: a.subject, description: a.description, priority: a.priority, blockedBy: a.blocked_by, requireReview: a.require_review, gates: ownGates }, by);
      return ok(`Updated ${taskLine(t)}.`);
    }
    case 'claim': {
      const t = await board.claim(team, tid, c.runId, by);
      return ok(`Claimed ${taskLine(t)}. Finish it with complete (and a result)${t.requireReview ? ' — it requires review, so hand it in with review' : ''}, or report a blocker.`);
    }
    case 'assign': {
      const who = need('assignee', 'an assignee');
      checkMember(who);
      return assignTask(s, c, tid, who);
    }
    case 'progress':
      return ok(`Noted: ${taskLine(await board.progress(team, tid, need('percent', 'percent'), a.text ?? '', by))}`);
    case 'comment':
      if (a.type === 'blocker') return reportBlocker(s, c, tid, need('text', 'the blocker'));
      await board.comment(team, tid, 'note', need('text', 'a comment'), by);
      return ok(`Comment added to #${tid}.`);
    case 'attach':
      return ok(`Attached: ${(await board.attach(team, tid, need('path', 'a path'), by)).attachments.join(', ')}`);
    case 'complete':
      return completeTask(s, c, tid, need('result', 'a result (what was done)'), gates, ctx);
    case 'review':
      return handIn(s, c, tid, need('result', 'a result to review'));
    case 'approve':
      return approveTask(s, c, tid, a.text ?? '');
    case 'reject':
      return rejectTask(s, c, tid, need('text', 'feedback for the member'));
    case 'cancel':
      return cancelTask(s, c, tid, a.text ?? '');
    case 'retry':
      return retryTask(s, c, tid, a.text ?? '');
    case 'ask_user': {
      const question = need('text', 'the question');
      await board.note(team, a.id, 'ask_user', question, by);
      const answer = await s.ask(c, question, a.id, ctx.signal);
      if (answer === undefined) return fail('Nobody could answer here: decide yourself, or ask the lead with team_message.');
      await board.note(team, a.id, 'answer', answer, { name: 'person', at: s.now() });
      return ok(`The person answered: ${answer}`);
    }
  }
}
