// The custom tools of one toolset build: each definition becomes a tool unless its name is taken. A
// custom tool never shadows a built-in tool, an alias or an MCP server's tool — a repository must not
// be able to replace `exec` or `read_file` with a program of its choosing — so such a definition is
// refused with a message that says which name it collides with and where it was defined.
import type { HiddenTool } from '../fs/virtual-hidden-tools';
import { ALIASES } from '../policy/groups';
import type { Tool } from '../tools/types';
import { createCustomTool, type CustomToolDeps } from './custom-tool';
import type { CustomToolDefinition } from './definition';

/** Bridged MCP tools are all named `mcp_<server>__<tool>`: the prefix is theirs alone. */
const MCP_PREFIX = 'mcp_';

export interface CustomToolsBuild {
  tools: Tool[];
  /** Definitions not registered, with the reason (shown by Show Effective Tools and reported once). */
  refused: HiddenTool[];
}

/** `others`: every other tool's name (the built-ins of this build, the runtime's own, the MCP servers' tools). */
export function createCustomTools(definitions: readonly CustomToolDefinition[], deps: CustomToolDeps, others: ReadonlySet<string>): CustomToolsBuild {
  const out: CustomToolsBuild = { tools: [], refused: [] };
  for (const d of definitions) {
    const clash = collision(d.name, others);
    if (clash) out.refused.push({ tool: d.name, reason: `the custom tool "${d.name}" in ${d.source.file} is not registered: ${clash}. Rename it.` });
    else out.tools.push(createCustomTool(d, deps));
  }
  return out;
}

function collision(name: string, others: ReadonlySet<string>): string | undefined {
  if (name.startsWith(MCP_PREFIX)) return `names starting with "${MCP_PREFIX}" are kept for MCP servers' tools`;
  if (ALIASES[name]) return `"${name}" is another name of the built-in tool ${ALIASES[name]}`;
  return others.has(name) ? 'a built-in tool has that name' : undefined;
}
