// `skill_search`: finds skills by what they do (BM25 over name, description and instructions), for
// when the list in use_skill's description is long or cut short.
import { z } from 'zod';
import { defineTool, ok, type Tool } from '../tools/types';
import type { SkillToolPorts } from './skill-tools';

export const SKILL_SEARCH = 'skill_search';
const DEFAULT_LIMIT = 5;

export function createSkillSearchTool(ports: SkillToolPorts): Tool {
  return defineTool({
    name: SKILL_SEARCH,
    description: 'Finds skills (instructions for a kind of task, see use_skill) by keywords in their names, descriptions and instructions. '
      + 'Returns each skill\'s name, description and where it comes from; load one with use_skill.',
    parameters: z.object({
      query: z.string().min(1).describe('Keywords for the task, e.g. "fill pdf form".'),
      limit: z.number().int().min(1).max(20).optional().describe(`How many skills to return (default ${DEFAULT_LIMIT}).`),
    }),
    group: 'knowledge',
    capability: 'read-only',
    async execute({ query, limit }) {
      const found = ports.catalog.search(query, limit ?? DEFAULT_LIMIT);
      if (!found.length) return ok(`No skill matches "${query}". Try other words for the task, or do it without a skill.`, { details: { found: [] } });
      const lines = found.map((s) => `- ${s.name} (${s.source}): ${s.description}`);
      return ok(`${found.length} skill${found.length === 1 ? '' : 's'} found; load one with use_skill:\n${lines.join('\n')}`, {
        details: { found: found.map((s) => s.name) },
      });
    },
  });
}
