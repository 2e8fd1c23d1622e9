// `mcp_tool_search`: when MCP servers bring more tools than are worth offering with every request
// (pincer.mcp.maxEagerTools), their tools are registered deferred — callable, policed, but not shown —
// and this tool finds them by BM25 over their names and descriptions. The tools it finds are offered
// for the rest of the turn (ToolResult.offerTools; the agent loop adds them to the next requests).
import { z } from 'zod';
import { bm25Term } from '../memory/bm25';
import type { Registry } from '../tools/registry';
import { defineTool, ok, type Tool } from '../tools/types';

export const TOOL_SEARCH_NAME = 'mcp_tool_search';
const DEFAULT_LIMIT = 8;
/** A hit in a tool's name says more than one in its description. */
const NAME_WEIGHT = 2;

export interface SearchableTool {
  /** The Pincer name (`mcp_<server>__<tool>`). */
  name: string;
  description: string;
}

/** Words of a name or a text: split at non-alphanumerics and camelCase, lower-cased. */
export function tokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

interface Field {
  counts: Map<string, number>;
  len: number;
}

function field(words: string[]): Field {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return { counts, len: words.length };
}

/** BM25 over two fields (name, description) of a fixed set of tools. */
export class ToolSearchIndex {
  private readonly docs: { tool: SearchableTool; name: Field; text: Field }[];
  private readonly df = [new Map<string, number>(), new Map<string, number>()];
  private readonly avg: [number, number];

  constructor(tools: readonly SearchableTool[]) {
    this.docs = tools.map((tool) => ({ tool, name: field(tokens(tool.name.replace(/^mcp_/, ''))), text: field(tokens(tool.description)) }));
    for (const d of this.docs) {
      [d.name, d.text].forEach((f, i) => {
        for (const w of f.counts.keys()) this.df[i].set(w, (this.df[i].get(w) ?? 0) + 1);
      });
    }
    const n = Math.max(1, this.docs.length);
    this.avg = [this.docs.reduce((s, d) => s + d.name.len, 0) / n, this.docs.reduce((s, d) => s + d.text.len, 0) / n];
  }

  /** Best first; tools that match no word of the query are left out; ties keep name order. */
  search(query: string, limit: number, admit: (name: string) => boolean = () => true): SearchableTool[] {
    const words = [...new Set(tokens(query))];
    const n = this.docs.length;
    const scored: { tool: SearchableTool; score: number }[] = [];
    for (const d of this.docs) {
      if (!admit(d.tool.name)) continue;
      let score = 0;
      for (const w of words) {
        const inName = d.name.counts.get(w);
        const inText = d.text.counts.get(w);
        if (inName) score += NAME_WEIGHT * bm25Term(inName, this.df[0].get(w)!, n, d.name.len, this.avg[0]);
        if (inText) score += bm25Term(inText, this.df[1].get(w)!, n, d.text.len, this.avg[1]);
      }
      if (score > 0) scored.push({ tool: d.tool, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.tool.name < b.tool.name ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.tool);
  }
}

/** The search tool over the tools deferred now; the manager registers a new one whenever they change. */
export function toolSearchTool(registry: Registry, now: { index: ToolSearchIndex; servers: readonly string[]; count: number }): Tool {
  return defineTool({
    name: TOOL_SEARCH_NAME,
    description:
      `Finds tools of the MCP servers ${now.servers.map((s) => `"${s}"`).join(', ')} (${now.count} tools, too many to list here) by keywords ` +
      'in their names and descriptions. The tools found are described in the result and can be called for the rest of this turn. ' +
      'Search before saying a capability is missing.',
    parameters: z.object({
      query: z.string().min(1).describe('Keywords for what the tool should do, e.g. "create github issue".'),
      limit: z.number().int().min(1).max(20).optional().describe(`How many tools to return (default ${DEFAULT_LIMIT}).`),
    }),
    group: 'mcp',
    capability: 'read-only',
    async execute({ query, limit }, ctx) {
      const allowed = new Set(registry.deps.policy.evaluate(registry.policyRequest(ctx)).allowed);
      const found = now.index.search(query, limit ?? DEFAULT_LIMIT, (n) => allowed.has(n));
      if (found.length === 0) return ok(`No MCP tool matches "${query}". Try other words (what it acts on, or the service's name).`, { details: { found: [] } });
      const lines = found.map((t) => `- ${t.name}: ${t.description}`);
      const names = found.map((t) => t.name);
      return ok(`${found.length} tool${found.length === 1 ? '' : 's'} found; you can call ${found.length === 1 ? 'it' : 'them'} for the rest of this turn:\n${lines.join('\n')}`, {
        offerTools: names, details: { found: names },
      });
    },
  });
}
