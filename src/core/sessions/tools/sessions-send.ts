// sessions_send: hands a message to another of the calling agent's sessions and returns that
// session's reply — the agent loop runs there, with that session's history. Only the agent's own
// sessions, never the one it is in (that would wait on itself).
import { z } from 'zod';
import { defineTool, fail, ok } from '../../tools/types';
import type { ToolContext } from '../../tools/types';
import type { SessionStore } from '../session-store';
import { withSessions } from './session-tool-base';

/** Runs one turn in a session; the host provides it once a model is configured. */
export interface SessionRunner {
  send(key: string, text: string, from: ToolContext): Promise<{ reply: string }>;
}

const parameters = z.object({
  key: z.string().min(1).describe('The session key (from sessions_list).'),
  message: z.string().min(1).max(50_000).describe('What to send, as a user message in that session.'),
}).strict();

export function createSessionsSendTool(store: () => Promise<SessionStore | undefined>, runner: () => SessionRunner | undefined) {
  return defineTool({
    name: 'sessions_send',
    description: 'Sends a message into another of your sessions and returns its reply (that session answers with its own history). For handing work to a parallel conversation.',
    parameters,
    group: 'sessions',
    capability: 'external',
    execute: (args, ctx) => withSessions(store, async (s) => {
      const r = runner();
      if (!r) return fail('No model is configured, so no session can answer; pick one with "Pincer: Select Model…".');
      if (args.key === ctx.sessionKey) return fail('That is this session: answer the message yourself instead of sending it to yourself.');
      const session = await s.owned(args.key, ctx.agentId);
      const { reply } = await r.send(session.key, args.message, ctx);
      return ok(`Reply from "${session.title}":\n${reply}`);
    }),
  });
}
