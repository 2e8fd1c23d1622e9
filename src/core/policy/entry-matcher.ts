// Turns one policy entry (a tool name, an alias, `group:x`, `group:mcp:<server>` or a glob such as
// `mcp_*`) into the registered tool names it covers. Unknown entries are reported once each.
import { minimatch } from 'minimatch';
import type { Capability } from '../tools/types';
import { ALIASES, STATIC_GROUPS, knownStaticNames } from './groups';

export interface PolicyTool {
  readonly name: string;
  readonly group: string;
  readonly capability: Capability;
  readonly ownerOnly?: boolean;
  readonly mcpServer?: string;
}

const GLOB_CHARS = /[*?[\]{}]/;

export class EntryMatcher {
  private readonly byName: Map<string, PolicyTool>;
  private readonly known = knownStaticNames();
  /** `warned` is shared across matchers so an entry is reported once, not again after every settings change. */
  constructor(
    private readonly tools: readonly PolicyTool[],
    private readonly warn: (message: string) => void,
    private readonly warned = new Set<string>(),
  ) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
  }

  /** Registered tool names an entry covers; `where` names the setting, for the warning. */
  expand(entry: string, where: string): string[] {
    const e = entry.trim();
    if (e.startsWith('group:')) return this.group(e.slice('group:'.length), entry, where);
    if (GLOB_CHARS.test(e)) return this.tools.filter((t) => minimatch(t.name, e)).map((t) => t.name);
    if (this.byName.has(e)) return [e];
    const target = ALIASES[e];
    if (target) return this.byName.has(target) ? [target] : [];
    if (!this.known.has(e)) this.warnOnce(entry, where, `no tool, alias or group is called "${entry}"`);
    return [];
  }

  /** Expands a whole list into a set. */
  expandAll(entries: readonly string[], where: string): Set<string> {
    const out = new Set<string>();
    for (const e of entries) for (const n of this.expand(e, where)) out.add(n);
    return out;
  }

  private group(name: string, entry: string, where: string): string[] {
    // MCP servers' tools, and Pincer's own tools for them (group 'mcp': mcp_tool_search).
    if (name === 'mcp') return this.tools.filter((t) => t.mcpServer !== undefined || t.group === 'mcp').map((t) => t.name);
    if (name.startsWith('mcp:')) {
      const server = name.slice('mcp:'.length);
      return this.tools.filter((t) => t.mcpServer === server).map((t) => t.name);
    }
    if (name === 'pincer') return this.tools.filter((t) => t.mcpServer === undefined && t.group !== 'mcp').map((t) => t.name);
    const statics = STATIC_GROUPS[name];
    const members = this.tools.filter((t) => t.group === name || statics?.includes(t.name)).map((t) => t.name);
    if (!statics && members.length === 0) this.warnOnce(entry, where, `there is no tool group "${name}"`);
    return members;
  }

  private warnOnce(entry: string, where: string, why: string): void {
    const key = `${where}\u0000${entry}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warn(`Policy entry "${entry}" in ${where} matches nothing: ${why}. Check the spelling; the entry is ignored.`);
  }
}
