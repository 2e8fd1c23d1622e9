// handoff (group `sessions`): the agent of a chat hands the conversation to another agent, which
// answers the person's next messages in the same session with its whole history; `clear` hands it back
// to the agent the session belongs to. Only a chat's own top-level turn may do this: a subagent or a
// team member works for its caller and never takes over the person's conversation.
import { z } from 'zod';
import type { AgentDefinition } from '../../agents/types';
import { defineTool, fail, ok, type ToolContext, type ToolResult } from '../../tools/types';
import type { HandoffStore } from '../handoff-store';
import type { SessionStore } from '../session-store';

const parameters = z.object({
  action: z.enum(['to', 'clear']).describe('to: hand the conversation to `agent`; clear: hand it back to the agent this chat belongs to.'),
  agent: z.string().min(1).max(64).optional().describe('to: the agent that goes on with the conversation.'),
  reason: z.string().trim().max(2000).optional().describe('Why, for the person and the next agent.'),
}).strict();

export interface HandoffPorts {
  handoffs: () => Promise<HandoffStore | undefined>;
  sessions: () => Promise<SessionStore | undefined>;
  agents: () => readonly AgentDefinition[];
  now?: () => number;
}

export function createHandoffTool(p: HandoffPorts) {
  return defineTool({
    name: 'handoff',
    description: 'Hands this conversation to another agent: the person\'s next messages go to that agent, which sees the whole conversation. '
      + '`clear` hands it back to the agent the chat belongs to. After handing off, end your turn with a short note to the person.',
    parameters,
    group: 'sessions',
    capability: 'mutating',
    async execute(args: z.infer<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
      if (ctx.channel !== 'chat' || ctx.subagentDepth > 0) return fail('Only the agent of a chat conversation can hand it over: you work for your caller, so give your answer to it instead.');
      const [handoffs, sessions] = await Promise.all([p.handoffs(), p.sessions()]);
      const session = await sessions?.find(ctx.sessionKey);
      if (!handoffs || !session) return fail('This conversation is not stored (the workspace database could not be opened), so it cannot be handed over.');
      const owner = session.agentId;
      const current = await handoffs.get(session.key);
      const reason = args.reason ?? '';
      if (args.action === 'clear' || args.agent === owner) {
        if (!current) return fail(`This conversation is not handed over: it is with ${owner}, the agent it belongs to.`);
        await handoffs.clear(session.key);
        return ok(`Handed the conversation back to ${owner}${reason ? ` (${reason})` : ''}: ${owner} answers the person's next message.`, { details: { agent: owner, cleared: true } });
      }
      if (!args.agent) return fail(`handoff to needs agent: one of ${names(p.agents(), ctx.agentId)}.`);
      if (args.agent === ctx.agentId) return fail('You already have this conversation: name another agent.');
      if (!p.agents().some((a) => a.id === args.agent)) return fail(`There is no agent ${args.agent}: hand it to one of ${names(p.agents(), ctx.agentId)}.`);
      await handoffs.set(session.key, { agent: args.agent, from: ctx.agentId, reason, at: p.now?.() ?? Date.now() });
      return ok(`Handed the conversation to ${args.agent}${reason ? ` (${reason})` : ''}: ${args.agent} answers the person's next message, with this whole conversation; it hands it back with handoff clear. End your turn now with a short note to the person.`,
        { details: { agent: args.agent, from: ctx.agentId } });
    },
  });
}

function names(agents: readonly AgentDefinition[], self: string): string {
  return agents.map((a) => a.id).filter((id) => id !== self).join(', ') || '(no other agent is defined)';
}
