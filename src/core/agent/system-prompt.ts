// The system prompt, assembled deterministically: the same agent, files and tools give the same
// bytes, request after request and turn after turn, so providers' prompt caches (which match on an
// exact prefix) hit. Hence: a fixed section order, context files in a fixed name order, tools sorted
// by code point (not by locale, which differs between machines), line endings normalised, and no
// dates, times or ids inside — the model asks the `datetime` tool for the date. The most stable
// sections come first, the ones that change during a conversation (USER.md, BOOTSTRAP.md) last.
import type { AgentDefinition } from '../agents/types';
import { CONTEXT_FILE_NAMES } from '../memory/routed-paths';
import { isMemoryError, type Scope } from '../memory/types';

export interface PromptInput {
  agent: AgentDefinition;
  contextFiles: { name: string; content: string }[];
  tools: { name: string; description: string }[];
  aliases: { name: string; target: string }[];
  workspace?: { root: string; name: string };
  /** TEAM.md, for a team lead only (teammates learn about the team through tools). */
  teamMd?: string;
  /** Host-specific instructions appended at the very end (a chat mode, the editor's state). */
  extra?: string;
}

/** Context files in prompt order; BOOTSTRAP.md (first-run setup) always last, after TEAM.md. */
const FILE_ORDER = ['SOUL.md', 'IDENTITY.md', 'AGENTS.md', 'USER_PREDEFINED.md', 'USER.md', 'HEARTBEAT.md'];
const TEAM = 'TEAM.md';
const BOOTSTRAP = 'BOOTSTRAP.md';

/** A context file's share of the prompt; beyond it the head and tail are kept (as OpenClaw does). */
export const MAX_CONTEXT_FILE_CHARS = 20_000;
const TOOL_SUMMARY_CHARS = 200;

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** CRLF and CR to LF, trailing whitespace dropped (trimEnd, not /\s+$/: that regex is quadratic on long runs of spaces). */
function clean(text: string): string {
  return text.replace(/\r\n?/g, '\n').trimEnd();
}

function capFile(name: string, content: string): string {
  if (content.length <= MAX_CONTEXT_FILE_CHARS) return content;
  const head = Math.floor(MAX_CONTEXT_FILE_CHARS * 0.7);
  const tail = Math.floor(MAX_CONTEXT_FILE_CHARS * 0.2);
  const omitted = content.length - head - tail;
  return `${content.slice(0, head)}\n\n[… ${omitted} characters of ${name} left out here; read_file ${name} shows the whole file.]\n\n${content.slice(-tail)}`;
}

/** The first sentence (or line) of a tool's description: the full one travels with the tool itself. */
function summary(description: string): string {
  const line = clean(description).split('\n').find((l) => l.trim()) ?? '';
  const sentence = /^(.*?[.!?])(\s|$)/.exec(line.trim())?.[1] ?? line.trim();
  return sentence.length > TOOL_SUMMARY_CHARS ? `${sentence.slice(0, TOOL_SUMMARY_CHARS - 1)}…` : sentence;
}

function rank(name: string): number {
  if (name === BOOTSTRAP) return 3;
  if (name === TEAM) return 2;
  return FILE_ORDER.includes(name) ? 0 : 1;
}

/** Files in prompt order: known names first in FILE_ORDER, other names by code point, then TEAM.md, BOOTSTRAP.md. */
function orderedFiles(input: PromptInput): { name: string; content: string }[] {
  const byName = new Map<string, string>();
  for (const f of input.contextFiles) {
    const content = clean(f.content);
    if (content && !byName.has(f.name)) byName.set(f.name, content);
  }
  if (input.teamMd !== undefined) {
    const team = clean(input.teamMd);
    if (team) byName.set(TEAM, team);
    else byName.delete(TEAM);
  }
  // The definition's instructions seed SOUL.md: RoutedFiles already falls back to them, this covers
  // a SOUL.md taken out of routing.
  const instructions = clean(input.agent.instructions ?? '');
  if (!byName.has('SOUL.md') && instructions) byName.set('SOUL.md', instructions);
  return [...byName.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || (rank(a) === 0 ? FILE_ORDER.indexOf(a) - FILE_ORDER.indexOf(b) : byCodePoint(a, b)))
    .map(([name, content]) => ({ name, content: capFile(name, content) }));
}

function identitySection(agent: AgentDefinition): string {
  const who = agent.name && agent.name !== agent.id ? `${agent.name} (agent "${agent.id}")` : `the agent "${agent.id}"`;
  const lines = [`You are ${who}, working inside Pincer in the user's code editor (VS Code).`];
  if (agent.description) lines.push(clean(agent.description));
  lines.push(
    'Use the tools to look things up and make changes; do not guess what a file says or what a command prints. '
      + 'When the work is done, answer in plain words and stop calling tools.',
  );
  return `# Identity\n\n${lines.join('\n')}`;
}

function workspaceSection(ws: PromptInput['workspace']): string {
  if (!ws) return '# Workspace\n\nNo folder is open: file tools have no workspace to work in.';
  return `# Workspace\n\n"${ws.name}" at ${ws.root}. Relative paths are relative to it.`;
}

function toolsSection(input: PromptInput): string {
  const tools = [...input.tools].sort((a, b) => byCodePoint(a.name, b.name));
  if (!tools.length) return '# Tools\n\nNo tools are available in this conversation: answer from what you know and say what you cannot check.';
  const lines = [
    '# Tools',
    '',
    'Call tools with complete JSON arguments. Several read-only calls in one reply run in parallel; the others run one at a time, in order. '
      + 'A tool result that is an error says what to do next. For the current date or time, call datetime.',
    '',
    ...tools.map((t) => `- ${t.name}: ${summary(t.description)}`),
  ];
  const aliases = [...input.aliases].sort((a, b) => byCodePoint(a.name, b.name));
  if (aliases.length) lines.push('', 'Other names for the same tools:', ...aliases.map((a) => `- ${a.name} → ${a.target}`));
  return lines.join('\n');
}

export function buildSystemPrompt(input: PromptInput): string {
  const sections = [identitySection(input.agent), workspaceSection(input.workspace), toolsSection(input)];
  const files = orderedFiles(input);
  if (files.length) {
    sections.push('# Context files\n\nThese files are yours (read and change them with the file tools, where allowed). Follow them.');
    for (const f of files) sections.push(`## ${f.name}\n\n${f.content}`);
  }
  const extra = clean(input.extra ?? '');
  if (extra) sections.push(extra);
  return `${sections.join('\n\n')}\n`;
}

/** What loadContextFiles needs of RoutedFiles (memory/routed-files.ts). */
export interface ContextFileReader {
  read(who: Scope, path: string): Promise<{ content: string } | undefined>;
}

/**
 * HEARTBEAT.md holds instructions for periodic wake-up runs, not for a chat: a heartbeat run passes
 * `names` with it included.
 */
export const CHAT_CONTEXT_FILES: readonly string[] = Object.freeze(CONTEXT_FILE_NAMES.filter((n) => n !== 'HEARTBEAT.md'));

/**
 * The agent's context files as `user` sees them (per-user copy, else the agent's shared file, else,
 * for SOUL.md, the definition), in `names` order. Missing and empty files are skipped, and so are
 * names taken out of routing (pincer.contextFiles.routed), which RoutedFiles refuses as 'invalid'.
 * `user` '' reads the agent level only.
 */
export async function loadContextFiles(routed: ContextFileReader, agentId: string, user: string, names: readonly string[] = CHAT_CONTEXT_FILES): Promise<{ name: string; content: string }[]> {
  const read = await Promise.all(names.map(async (name) => {
    try {
      const r = await routed.read({ agentId, userId: user }, name);
      return r && r.content.trim() ? { name, content: r.content } : undefined;
    } catch (e) {
      if (isMemoryError(e, 'invalid')) return undefined;
      throw e;
    }
  }));
  return read.filter((f): f is { name: string; content: string } => f !== undefined);
}
