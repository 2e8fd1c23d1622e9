// Pincer's tools for VS Code's own agent (Copilot's agent mode), offered through vscode.lm.registerTool.
// VS Code reads a tool's name, description and input schema from package.json
// (`contributes.languageModelTools`) before any extension code runs, so those entries are generated
// from the toolset (scripts/lm-tools.mjs writes them; a unit test fails when package.json and the
// toolset drift apart) and never written by hand. Which of them the agent sees is the setting
// pincer.lm.offeredTools, read by each entry's `when` clause: VS Code turns an array setting into its
// JSON text for `when` clauses, so `=~ /"read_file"/` is true exactly when the array names that tool.
import type { Tool } from '../tools/types';

/** VS Code reserves `copilot_` and `vscode_`; every Pincer tool there is `pincer_<tool>`. */
export const LM_PREFIX = 'pincer_';
export const LM_OFFERED_SETTING = 'pincer.lm.offeredTools';

/**
 * The built-in tools that make sense beside the agent's own: the file tools (documents and images read
 * through the path guard too; an image reaches the agent as an image part), commands and their jobs,
 * and memory lookups. Not offered: session, team and subagent tools (they belong to Pincer's own chat
 * and its runs: a team exists only while its lead's chat runs it), custom tools (the workspace's
 * definitions, not known when package.json is written), cron (a job runs commands later, with no
 * one watching: another agent may not plant one), and the web tools (VS Code's agent has a fetch
 * tool of its own).
 */
export const LM_OFFERABLE = [
  'read_file', 'read_document', 'read_image', 'list_files', 'glob', 'grep', 'edit', 'write_file', 'apply_patch', 'exec', 'process',
  'memory_search', 'memory_get', 'memory_expand',
] as const;

/** Offered unless the setting says otherwise: the read-only tools plus the edit tools and exec (process is opt-in). */
const DEFAULT_MUTATING = ['edit', 'write_file', 'apply_patch', 'exec'];

const ICONS: Readonly<Record<string, string>> = {
  read_file: '$(file)', read_document: '$(file-pdf)', read_image: '$(file-media)', list_files: '$(list-tree)', glob: '$(file-submodule)', grep: '$(search)', edit: '$(edit)',
  write_file: '$(new-file)', apply_patch: '$(diff)', exec: '$(terminal)', process: '$(server-process)',
};

export const lmToolName = (tool: string) => LM_PREFIX + tool;

export function pincerToolName(lmName: string): string | undefined {
  return lmName.startsWith(LM_PREFIX) ? lmName.slice(LM_PREFIX.length) : undefined;
}

const words = (tool: string) => tool.split('_').map((w) => w[0].toUpperCase() + w.slice(1));

/** What a person writes in the chat to attach the tool: `#pincerReadFile`. */
export const toolReferenceName = (tool: string) => `pincer${words(tool).join('')}`;

export function defaultOffered(tools: readonly Pick<Tool, 'name' | 'capability'>[]): string[] {
  return LM_OFFERABLE.filter((n) => {
    const t = tools.find((x) => x.name === n);
    return t && (t.capability === 'read-only' || DEFAULT_MUTATING.includes(n));
  });
}

/** The entry's `when`: true while pincer.lm.offeredTools lists the tool. */
export const offeredWhen = (tool: string) => `config.${LM_OFFERED_SETTING} =~ /"${tool}"/`;

export interface LmToolContribution {
  name: string;
  displayName: string;
  toolReferenceName: string;
  canBeReferencedInPrompt: true;
  userDescription: string;
  modelDescription: string;
  icon: string;
  tags: string[];
  inputSchema: Record<string, unknown>;
  when: string;
}

/** The first sentence of a model description: what a person reads in the tool picker. */
function firstSentence(text: string): string {
  const m = /^[^\n]*?[.!?](?=\s|$)/.exec(text.trim());
  return (m ? m[0] : text.trim().split('\n')[0]).trim();
}

/** package.json's `contributes.languageModelTools`, from the tools as the toolset builds them. */
export function lmToolContributions(tools: readonly Tool[], schemaOf: (t: Tool) => Record<string, unknown>): LmToolContribution[] {
  return LM_OFFERABLE.map((name) => {
    const t = tools.find((x) => x.name === name);
    if (!t) throw new Error(`The toolset has no tool "${name}" to offer to VS Code's agent.`);
    return {
      name: lmToolName(name),
      displayName: `Pincer: ${words(name).join(' ')}`,
      toolReferenceName: toolReferenceName(name),
      canBeReferencedInPrompt: true,
      userDescription: firstSentence(t.description),
      modelDescription: t.description,
      icon: ICONS[name] ?? '$(book)',
      tags: ['pincer', t.group, t.capability],
      inputSchema: schemaOf(t),
      when: offeredWhen(name),
    };
  });
}

/** The setting's entry in `contributes.configuration`: the tools to choose from, and the default. */
export function offeredSettingSchema(tools: readonly Pick<Tool, 'name' | 'capability'>[]): Record<string, unknown> {
  return {
    type: 'array',
    items: { type: 'string', enum: [...LM_OFFERABLE] },
    uniqueItems: true,
    default: defaultOffered(tools),
    markdownDescription: 'Which of Pincer\'s tools VS Code\'s own agent (Copilot\'s agent mode) is offered, as `pincer_<tool>`. '
      + 'Every call goes through Pincer\'s policy (`pincer.tools.byChannel.lm`), path guard, command judge, approvals, diff review and scrubber. '
      + 'An empty list offers none.',
  };
}

/**
 * The setting as read: the offerable tool names it lists, in order, once each. Anything else is
 * reported (a typo, a tool that is not offered to VS Code) and left out.
 */
export function offeredLmTools(value: unknown, warn: (m: string) => void): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    warn(`${LM_OFFERED_SETTING} must be a list of tool names; none are offered.`);
    return [];
  }
  const out: string[] = [];
  for (const v of value) {
    if (typeof v === 'string' && (LM_OFFERABLE as readonly string[]).includes(v)) {
      if (!out.includes(v)) out.push(v);
    } else {
      warn(`${LM_OFFERED_SETTING}: "${String(v)}" is not a tool Pincer offers to VS Code's agent (${LM_OFFERABLE.join(', ')}).`);
    }
  }
  return out;
}
