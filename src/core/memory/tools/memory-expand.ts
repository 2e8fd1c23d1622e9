// memory_expand: the whole text of one search hit (L2), by the id memory_search gave.
import { z } from 'zod';
import { defineTool, fail, ok, type Tool } from '../../tools/types';
import { levelLabel, type MemoryToolEnv } from '../memory-tools';

const parameters = z.object({
  id: z.number().int().min(1).describe('The id of a memory_search hit.'),
}).strict();

const description =
  'Returns the full text of one memory_search hit (a chunk of a memory document), with its path, line range and heading. ' +
  'Use it after memory_search when a hit\'s short abstract looks relevant; use memory_get with the path and an offset to read around it. ' +
  'Ids come only from memory_search and change when the document is rewritten.';

export function createMemoryExpandTool(env: MemoryToolEnv): Tool {
  return defineTool({
    name: 'memory_expand',
    description,
    parameters,
    group: 'memory',
    capability: 'read-only',
    async execute(args, ctx) {
      const scope = env.scope(ctx);
      const c = await (await env.store()).chunk(args.id, scope);
      if (!c) {
        return fail(`No memory chunk has id ${args.id} (any more): the document was rewritten or deleted since that search, or the id is not from memory_search. Run memory_search again for current ids.`, { details: { id: args.id, found: false } });
      }
      const lines = c.text.split('\n');
      const width = String(c.startLine + lines.length - 1).length;
      const body = lines.map((l, i) => `${String(c.startLine + i).padStart(width)}\t${l}`).join('\n');
      const range = c.startLine === c.endLine ? `${c.startLine}` : `${c.startLine}-${c.endLine}`;
      const head = `${c.path}:${range}${c.heading ? ` · ${c.heading}` : ''} (chunk ${c.id}, ${levelLabel(c.userId, scope)})`;
      const more = `[To read around it: memory_get path="${c.path}" offset=${Math.max(1, c.startLine - 20)} limit=${c.endLine - c.startLine + 41}.]`;
      return ok(`${head}\n${body}\n${more}`, { details: { id: c.id, path: c.path, userId: c.userId, startLine: c.startLine, endLine: c.endLine } });
    },
  });
}
