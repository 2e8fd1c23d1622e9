// sessions_history: the messages of one of the calling agent's sessions, paged. A look-up never
// creates a session, and another agent's key is refused.
import { z } from 'zod';
import { describeImage } from '../../media/image-part';
import { defineTool, ok } from '../../tools/types';
import type { SessionStore, StoredMessage } from '../session-store';
import { withSessions } from './session-tool-base';

const parameters = z.object({
  key: z.string().min(1).describe('The session key (from sessions_list).'),
  fromSeq: z.number().int().min(1).optional().describe('First message number (default 1).'),
  limit: z.number().int().min(1).max(200).optional().describe('How many messages (default 50).'),
}).strict();

/** Longest text shown per message part; the rest is elided with its length. */
const PART_CHARS = 2000;

export function createSessionsHistoryTool(store: () => Promise<SessionStore | undefined>) {
  return defineTool({
    name: 'sessions_history',
    description: 'Reads the messages of one of your sessions in order (user, assistant, tool calls and results), paged with fromSeq and limit.',
    parameters,
    group: 'sessions',
    capability: 'read-only',
    execute: (args, ctx) => withSessions(store, async (s) => {
      const session = await s.owned(args.key, ctx.agentId);
      const limit = args.limit ?? 50;
      const msgs = await s.messages(session.key, { fromSeq: args.fromSeq ?? 1, limit });
      const body = msgs.map(render).join('\n');
      const last = msgs.at(-1)?.seq ?? 0;
      const more = last < session.messageCount ? `\nMore: sessions_history key=${session.key} fromSeq=${last + 1}` : '';
      return ok(`"${session.title}" (${session.messageCount} messages)\n${body || '(no messages)'}${more}`, { details: { count: msgs.length } });
    }),
  });
}

function clip(text: string): string {
  return text.length > PART_CHARS ? `${text.slice(0, PART_CHARS)}… [${text.length - PART_CHARS} more characters]` : text;
}

function render(m: StoredMessage): string {
  const parts = m.parts.map((p) => {
    if (p.type === 'text') return clip(p.text);
    if (p.type === 'tool-call') return `→ ${p.name}(${clip(JSON.stringify(p.args))})`;
    if (p.type === 'image') return `[image: ${describeImage(p)}]`;
    return `← ${p.name}${p.isError ? ' (error)' : ''}: ${clip(p.content)}`;
  });
  return `#${m.seq} ${m.role}: ${parts.join('\n  ')}`;
}
