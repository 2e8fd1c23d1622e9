// team_message (group `teams`): the team's mailbox. A message to an idle member starts it (with the
// message as its task); a busy member finds it with `read`. The lead reads members' final answers,
// blockers and review requests here, each prefixed with who sent it.
import { z } from 'zod';
import { defineTool, fail, ok, type ToolContext, type ToolResult } from '../tools/types';
import type { TeamService } from './team-service';

const parameters = z.object({
  action: z.enum(['send', 'broadcast', 'read']).describe('send: to one teammate; broadcast: to every other teammate; read: your unread messages (marked read).'),
  to: z.string().min(1).max(64).optional().describe('send: a member (agent id) or the lead.'),
  text: z.string().trim().min(1).max(20_000).optional().describe('send/broadcast: the message.'),
}).strict();

export function createTeamMessageTool(svc: () => TeamService | undefined) {
  return defineTool({
    name: 'team_message',
    description: 'The team\'s mailbox: send a message to a teammate or the lead, broadcast to everyone, or read your unread messages. A message to an idle member starts it.',
    parameters, group: 'teams', capability: 'mutating',
    async execute(args: z.infer<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
      const s = svc();
      if (!s) return fail('Teams are not available here (no workspace database).');
      const c = await s.identify(ctx);
      if (typeof c === 'string') return fail(c);
      const board = await s.board();
      if (args.action === 'read') {
        const mail = await board.readUnread(c.team.id, c.name, s.now());
        return ok(mail.length ? mail.map((m) => `From ${m.sender}: ${m.text}`).join('\n\n') : 'No unread messages.', { details: { count: mail.length } });
      }
      if (!args.text) return fail(`${args.action} needs text.`);
      const everyone = [c.team.lead, ...c.team.members.map((m) => m.agent)];
      const to = args.action === 'broadcast' ? everyone.filter((n) => n !== c.name) : [args.to ?? ''];
      if (args.action === 'send' && !s.isMember(c.team, to[0]!)) return fail(`send needs to: one of ${everyone.filter((n) => n !== c.name).join(', ')}.`);
      if (to.includes(c.name)) return fail('That is you: send it to a teammate.');
      await board.send(c.team.id, c.name, to, `[${c.name}] ${args.text}`, s.now());
      const started: string[] = [];
      const busy: string[] = [];
      for (const member of to) {
        const run = await s.activate(c, member, `A message from ${c.name}: ${args.text}`).catch(() => undefined);
        if (run) (run.started ? started : busy).push(member);
      }
      return ok([
        `Sent to ${to.join(', ')}.`,
        started.length ? `Started: ${started.join(', ')}.` : '',
        busy.length ? `Busy (they find it in their mailbox when they read it): ${busy.join(', ')}.` : '',
      ].filter(Boolean).join(' '));
    },
  });
}
