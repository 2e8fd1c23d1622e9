// Agent definitions people already have for other tools, read-only: Copilot custom agents
// (`.github/agents/<name>.agent.md`) and Claude Code subagents (`.claude/agents/<name>.md`). Both are
// YAML front matter (name, description, tools, model, …) over the agent's instructions. They are
// mapped onto Pincer's policy so that they can only take tools away (see foreign-tools.ts), and what
// Pincer does not use is said once in a note, so nobody believes a field took effect when it did not.
//
// Decisions:
// - The id must be a valid Pincer agent id as it is (lower-cased): it names folders of the agent's
//   memory, so a name like `../x` refuses the file instead of being cleaned into some other id.
// - A `tools` or `disallowedTools` that cannot be read refuses the file: loading it without the list
//   would give the agent every tool the policy allows, wider than the definition meant.
// - Fields that would loosen Pincer's checks (Claude Code's `permissionMode`, hooks, MCP servers)
//   are never honoured; the note names them.
import { z } from 'zod';
import { idProblem, suggestId } from './agent-fields';
import { parseHandoffs } from './agent-handoffs';
import { MAX_AGENT_FILE_BYTES, readFrontMatter, type AgentParseResult } from './agent-file';
import { mapTools, toolEntries, type ForeignFormat } from './foreign-tools';
import type { AgentDefinition } from './types';

/** Fields each format defines that Pincer maps; every other field is listed in the note. */
const MAPPED: Record<ForeignFormat, readonly string[]> = {
  copilot: ['name', 'description', 'tools', 'model', 'handoffs'],
  claude: ['name', 'description', 'tools', 'disallowedTools', 'model', 'maxTurns'],
};

const text = z.string().trim().min(1).max(10_000);

/** The id a foreign file's name gives: `planner.agent.md` and `.claude/agents/planner.md` → planner. */
export function foreignIdFromFile(file: string): string {
  return (file.split(/[\\/]/).pop() ?? '').replace(/(\.agent)?\.md$/i, '').toLowerCase();
}

export function parseForeignAgentFile(format: ForeignFormat, file: string, body: string, pincerNames: ReadonlySet<string>): AgentParseResult {
  const warnings: string[] = [];
  const fail = (why: string): AgentParseResult => ({ errors: [`${file}: ${why}; this ${label(format)} definition is not loaded.`], warnings });
  if (Buffer.byteLength(body, 'utf8') > MAX_AGENT_FILE_BYTES) return fail(`the file is larger than ${MAX_AGENT_FILE_BYTES / 1024} KB`);
  const front = readFrontMatter(body);
  if (typeof front === 'string') return fail(front);
  const raw = front.raw ?? {};

  const name = raw.name === undefined ? undefined : text.max(200).safeParse(raw.name);
  if (name && !name.success) return fail('its "name" is not a text');
  // Claude Code names the agent by `name`; Copilot by the file (its `name` is what people see).
  const id = (format === 'claude' && name?.data ? name.data : foreignIdFromFile(file)).toLowerCase();
  const bad = idProblem(id);
  if (bad) return fail(`${bad}, so Pincer cannot name this agent (it would be "${suggestId(id)}" if renamed)`);

  const def: AgentDefinition = { id, name: name?.data ?? id, type: 'open', source: format, file };
  const description = raw.description === undefined ? undefined : text.safeParse(raw.description);
  if (description?.success) def.description = description.data;
  else if (description) warnings.push(`${file}: its "description" is not a text and is ignored.`);

  for (const [field, kind] of [['tools', 'allow'], ['disallowedTools', 'deny']] as const) {
    if (raw[field] === undefined || raw[field] === null || !MAPPED[format].includes(field)) continue;
    const entries = toolEntries(raw[field]);
    if (!entries) return fail(`its "${field}" is neither a list of tool names nor a comma-separated text`);
    const mapped = mapTools(format, entries, kind, pincerNames);
    if (mapped.ignored.length) {
      warnings.push(`${file}: ${field} ${mapped.ignored.join(', ')} ${mapped.ignored.length === 1 ? 'is' : 'are'} ignored${kind === 'allow' ? ' — the agent gets fewer tools, never more' : ''}.`);
    }
    if (kind === 'allow') def.tools = mapped.tools;
    else if (mapped.tools.length) def.deniedTools = mapped.tools;
  }

  const model = firstModel(raw.model);
  if (model) def.foreignModel = model;
  if (raw.maxTurns !== undefined && format === 'claude') {
    const turns = z.number().int().min(1).max(500).safeParse(raw.maxTurns);
    if (turns.success) def.maxIterations = turns.data;
    else warnings.push(`${file}: its "maxTurns" is not a whole number from 1 to 500 and is ignored.`);
  }
  if (format === 'copilot') {
    const h = parseHandoffs(raw.handoffs, file);
    warnings.push(...h.warnings);
    if (h.handoffs.length) def.handoffs = h.handoffs;
  }
  const instructions = front.body.trim();
  if (instructions) def.instructions = instructions;

  const unused = Object.keys(raw).filter((k) => !MAPPED[format].includes(k)).sort();
  if (unused.length) {
    warnings.push(`${file}: ${unused.map((k) => `"${k}"`).join(', ')} ${unused.length === 1 ? 'is' : 'are'} not used by Pincer (its own tool policy and approvals apply to this agent).`);
  }
  return { agent: def, errors: [], warnings };
}

/** Copilot allows a list of models in order of preference; the first is asked for. */
function firstModel(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value.find((v) => typeof v === 'string') : value;
  return typeof first === 'string' && first.trim() ? first.trim().slice(0, 200) : undefined;
}

function label(format: ForeignFormat): string {
  return format === 'copilot' ? 'Copilot agent' : 'Claude Code subagent';
}
