// sessions_list: the calling agent's own conversations, most recent first — never another agent's.
import { z } from 'zod';
import { defineTool, ok } from '../../tools/types';
import type { SessionStore } from '../session-store';
import { withSessions } from './session-tool-base';

const parameters = z.object({
  limit: z.number().int().min(1).max(200).optional().describe('How many (default 20).'),
  offset: z.number().int().min(0).optional().describe('Skip this many (for the next page).'),
}).strict();

export function createSessionsListTool(store: () => Promise<SessionStore | undefined>) {
  return defineTool({
    name: 'sessions_list',
    description: 'Lists your conversations (sessions), most recently used first: key, title, message count, last use. Use a key with sessions_history or sessions_send.',
    parameters,
    group: 'sessions',
    capability: 'read-only',
    execute: (args, ctx) => withSessions(store, async (s) => {
      const limit = args.limit ?? 20;
      const rows = await s.list(ctx.agentId, { limit: limit + 1, offset: args.offset ?? 0 });
      const page = rows.slice(0, limit);
      if (!page.length) return ok(args.offset ? 'No more sessions.' : 'You have no sessions yet.');
      const lines = page.map((r) => `${r.key} — "${r.title}", ${r.messageCount} messages, last used ${new Date(r.updatedAt).toISOString()}${r.key === ctx.sessionKey ? ' (this one)' : ''}`);
      if (rows.length > limit) lines.push(`More: sessions_list offset=${(args.offset ?? 0) + limit}`);
      return ok(lines.join('\n'), { details: { count: page.length } });
    }),
  });
}
