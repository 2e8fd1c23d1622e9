// The tool names of Copilot custom agents and Claude Code subagents, mapped onto Pincer's tools. A
// foreign definition's list can only narrow what Pincer's policy allows: it becomes an allow list
// (an intersection) and a deny list, never a profile or an alsoAllow. A name Pincer cannot map is
// left out with a note, so such a definition ends up with fewer tools, never more.
//
// Decisions:
// - A Claude Code entry with a specifier (`Bash(git diff:*)`) limits the tool to some uses. Pincer
//   cannot hold exec to those commands, so in an allow list the tool is left out (granting all of
//   exec would be wider than the definition asked); in a deny list the whole tool is denied.
// - MCP tools (`mcp__server__tool`, Copilot's `server/*`) are not mapped: the names of Pincer's MCP
//   tools differ, and guessing could grant a different server's tool.

/** Claude Code's tool names (case-sensitive, as Claude Code writes them). */
const CLAUDE_TOOLS: Readonly<Record<string, readonly string[]>> = {
  Read: ['read_file'],
  Write: ['write_file'],
  Edit: ['edit', 'apply_patch'],
  MultiEdit: ['edit', 'apply_patch'],
  Glob: ['glob'],
  Grep: ['grep'],
  LS: ['list_files'],
  Bash: ['exec'],
  BashOutput: ['process'],
  KillShell: ['process'],
  KillBash: ['process'],
  Task: ['spawn'],
  WebFetch: ['web_fetch'],
  WebSearch: ['web_search'],
};

/** Copilot's tool and tool-set names (matched without regard to case; `set/tool` by either part). */
const COPILOT_TOOLS: Readonly<Record<string, readonly string[]>> = {
  edit: ['edit', 'write_file', 'apply_patch'],
  editfiles: ['edit', 'write_file', 'apply_patch'],
  createfile: ['write_file'],
  read: ['read_file'],
  readfile: ['read_file'],
  search: ['grep', 'glob', 'list_files'],
  codebase: ['grep', 'glob'],
  filesearch: ['glob'],
  textsearch: ['grep'],
  listdirectory: ['list_files'],
  execute: ['exec', 'process'],
  runcommands: ['exec', 'process'],
  runinterminal: ['exec'],
  terminal: ['exec'],
  getterminaloutput: ['process'],
  terminallastcommand: ['process'],
  agent: ['spawn'],
  runsubagent: ['spawn'],
  fetch: ['web_fetch'],
};

export type ForeignFormat = 'copilot' | 'claude';

export interface MappedTools {
  /** Pincer tool names, sorted and without repeats. */
  tools: string[];
  /** Entries that map to nothing, each with why (for the note the person sees). */
  ignored: string[];
}

/** A tool list as either format writes it: a YAML list, or one comma-separated string. */
export function toolEntries(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!items) return undefined;
  return items.filter((x): x is string => typeof x === 'string').map((x) => x.trim()).filter(Boolean);
}

/**
 * Maps one list. `kind` decides what a limited entry (`Bash(git:*)`) becomes: left out of an allow
 * list, the whole tool in a deny list.
 */
export function mapTools(format: ForeignFormat, entries: readonly string[], kind: 'allow' | 'deny', pincerNames: ReadonlySet<string>): MappedTools {
  const tools = new Set<string>();
  const ignored: string[] = [];
  for (const entry of entries) {
    const limited = /^([A-Za-z_]\w*)\s*\((.*)\)$/s.exec(entry);
    const name = limited ? limited[1]! : entry;
    const mapped = pincerNames.has(name) ? [name] : format === 'claude' ? claudeTool(name) : copilotTool(name);
    if (!mapped) {
      ignored.push(`"${entry}" (${unknownWhy(format, name)})`);
      continue;
    }
    if (limited && kind === 'allow') {
      ignored.push(`"${entry}" (Pincer cannot limit ${mapped.join('/')} to those uses, so it is left out)`);
      continue;
    }
    for (const t of mapped) tools.add(t);
  }
  return { tools: [...tools].sort(), ignored };
}

/** The Pincer tools a Claude Code tool name stands for (`Read` → read_file), if it names one. */
export function claudeTool(name: string): readonly string[] | undefined {
  return Object.hasOwn(CLAUDE_TOOLS, name) ? CLAUDE_TOOLS[name] : undefined;
}

function copilotTool(name: string): readonly string[] | undefined {
  const lower = name.toLowerCase();
  // Own keys only: `constructor` or `toString` in a definition must be an unknown tool, not a prototype's.
  const known = (n: string) => (Object.hasOwn(COPILOT_TOOLS, n) ? COPILOT_TOOLS[n] : undefined);
  if (known(lower)) return known(lower);
  // A tool named with its set (`search/codebase`): the tool itself, else its whole set. A server's
  // tools (`github/*`) are an MCP server's, never mapped.
  const slash = lower.lastIndexOf('/');
  if (slash < 0 || lower.endsWith('/*')) return undefined;
  return known(lower.slice(slash + 1));
}

function unknownWhy(format: ForeignFormat, name: string): string {
  if (/^mcp__/.test(name) || (format === 'copilot' && name.endsWith('/*'))) return 'an MCP tool: not mapped';
  return 'no such tool in Pincer';
}
