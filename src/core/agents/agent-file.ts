// Reading agent definitions: a workspace file `.pincer/agents/<id>.md` (YAML front matter, then the
// instructions as markdown) or the `pincer.agents` setting (id → fields). Every problem names the
// file or setting, the field, and what is allowed, so the person can fix it without the docs.
//
// Decisions:
// - The id is the file name (without .md); a front matter `id` that differs is a warning, the file
//   name wins, so renaming a file is the one way to rename an agent.
// - A file without front matter is an open agent whose whole text is its instructions (a warning
//   says so: someone who meant a predefined agent learns it is not one).
// - The front matter must be a YAML mapping; a YAML error is reported with its line in the file.
// - Files over MAX_AGENT_FILE_BYTES are refused: instructions seed SOUL.md, which has the same cap.
import { yaml } from '../yaml-lazy';
import { checkFields, FILE_FIELDS, idProblem, SETTINGS_FIELDS, suggestId, type AgentFields, type FieldProblems } from './agent-fields';
import type { AgentDefinition } from './types';

export const MAX_AGENT_FILE_BYTES = 256 * 1024;

export interface AgentParseResult {
  /** Undefined when an error prevents loading the agent. */
  agent?: AgentDefinition;
  /** Why the agent was not loaded. */
  errors: string[];
  /** Loaded, but something was ignored or defaulted. */
  warnings: string[];
}

export interface SettingsAgentsResult {
  agents: AgentDefinition[];
  errors: string[];
  warnings: string[];
  /** Ids whose definition had errors (the registry keeps them restrictive, see agent-registry.ts). */
  failedIds: string[];
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/m;

/** The id a file defines: its name without `.md`. */
export function agentIdFromFile(file: string): string {
  // Either separator: the host may hand over Windows paths whatever platform core runs on.
  return (file.split(/[\\/]/).pop() ?? '').replace(/\.md$/i, '');
}

interface Split {
  front?: string;
  /** 1-based line of the file where the front matter's first line is. */
  frontLine: number;
  body: string;
}

function split(text: string): Split | string {
  const open = OPEN.exec(text);
  if (!open) return { frontLine: 1, body: text.replace(/^\uFEFF/, '') };
  const rest = text.slice(open[0].length);
  // An empty front matter closes on the very next line.
  const close = CLOSE.exec(rest);
  if (!close) return 'its front matter starts with "---" but is never closed: add a line "---" after the last field';
  const front = rest.slice(0, close.index);
  const after = rest.slice(close.index + close[0].length).replace(/^\r?\n/, '');
  return { front, frontLine: 2, body: after };
}

function definition(id: string, fields: AgentFields, source: AgentDefinition['source'], file?: string): AgentDefinition {
  const def: AgentDefinition = { id, name: fields.name ?? id, type: fields.type ?? 'open', source };
  if (file !== undefined) def.file = file;
  if (fields.description !== undefined) def.description = fields.description;
  if (fields.profile !== undefined) def.profile = fields.profile;
  if (fields.model !== undefined) def.model = fields.model;
  if (fields.tools !== undefined) def.tools = fields.tools;
  const instructions = fields.instructions?.trim();
  if (instructions) def.instructions = instructions;
  return def;
}

/**
 * The front matter of an agent file as a mapping (undefined when the file has none) and the markdown
 * under it, or why it cannot be read. Shared by Pincer's agent files and the foreign formats.
 */
export function readFrontMatter(text: string): { raw?: Record<string, unknown>; body: string } | string {
  const parts = split(text);
  if (typeof parts === 'string') return parts;
  if (parts.front === undefined) return { body: parts.body };
  const doc = yaml().parseDocument(parts.front, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const offset = e.pos?.[0];
    const line = offset === undefined ? undefined : parts.front.slice(0, offset).split('\n').length;
    const at = line !== undefined ? ` at line ${line + parts.frontLine - 1}` : '';
    return `the front matter is not valid YAML${at} (${e.message.split('\n')[0]}); write "key: value" lines between the "---" lines`;
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 50 });
  } catch (e) {
    // yaml refuses documents whose aliases expand past the count (a "billion laughs" bomb).
    return `the front matter could not be read (${(e as Error).message.split('\n')[0]}); write plain "key: value" lines without YAML aliases`;
  }
  if (value === null || value === undefined) return { raw: {}, body: parts.body };
  if (typeof value !== 'object' || Array.isArray(value)) return 'the front matter must be "key: value" lines (a YAML mapping), not a list or a single value';
  return { raw: value as Record<string, unknown>, body: parts.body };
}

/** Parses one workspace agent file (`file` absolute, `text` its content). */
export function parseAgentFile(file: string, text: string): AgentParseResult {
  const shown = file;
  const problems: FieldProblems = { errors: [], warnings: [] };
  const fail = (why: string): AgentParseResult => ({ errors: [`${shown}: ${why}.`], warnings: problems.warnings });
  if (!/\.md$/i.test(file)) return fail('an agent file must be a markdown file named <id>.md');
  const id = agentIdFromFile(file);
  const bad = idProblem(id);
  if (bad) return fail(`${bad}; rename the file to ${suggestId(id)}.md`);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_AGENT_FILE_BYTES) return fail(`the file is ${Math.ceil(bytes / 1024)} KB; an agent file may be at most ${MAX_AGENT_FILE_BYTES / 1024} KB (move long reference material to memory/)`);

  const front = readFrontMatter(text);
  if (typeof front === 'string') return fail(front);
  const raw = front.raw ?? {};
  if (!front.raw) {
    problems.warnings.push(`${shown}: no front matter ("---" lines at the top), so agent "${id}" is an open agent and the whole file is its instructions.`);
  }

  const where = (field: string) => `${shown}: field "${field}"`;
  const fields = checkFields(raw, FILE_FIELDS, where, problems);
  if (typeof raw.id === 'string' && raw.id !== id) {
    problems.warnings.push(`${where('id')} is ${JSON.stringify(raw.id)} but the file name makes the id "${id}"; the file name wins (rename the file to change the id).`);
  }
  if (!fields) return { errors: problems.errors, warnings: problems.warnings };
  fields.instructions = front.body;
  return { agent: definition(id, fields, 'workspace', file), errors: [], warnings: problems.warnings };
}

/** Parses `pincer.agents`: an object of agent id → { type, name, description, profile, model, tools, instructions }. */
export function parseSettingsAgents(value: unknown): SettingsAgentsResult {
  const out: SettingsAgentsResult = { agents: [], errors: [], warnings: [], failedIds: [] };
  if (value === undefined || value === null) return out;
  if (typeof value !== 'object' || Array.isArray(value)) {
    out.errors.push('Setting pincer.agents must be an object keyed by agent id, for example { "reviewer": { "type": "predefined", "name": "Reviewer" } }; it is ignored until fixed.');
    return out;
  }
  for (const [id, entry] of Object.entries(value as Record<string, unknown>)) {
    const key = `pincer.agents.${JSON.stringify(id).slice(1, -1)}`;
    const bad = idProblem(id);
    if (bad) {
      out.errors.push(`Setting ${key}: ${bad}; this entry is ignored until its key is fixed.`);
      continue;
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      out.errors.push(`Setting ${key} must be an object of agent fields (type, name, description, profile, model, tools, instructions); agent "${id}" is not loaded.`);
      out.failedIds.push(id);
      continue;
    }
    const problems: FieldProblems = { errors: [], warnings: [] };
    const fields = checkFields(entry as Record<string, unknown>, SETTINGS_FIELDS, (f) => `Setting ${key}.${f}`, problems);
    out.warnings.push(...problems.warnings);
    if (!fields) {
      out.errors.push(...problems.errors.map((e) => `${e} Agent "${id}" is not loaded until this is fixed.`));
      out.failedIds.push(id);
      continue;
    }
    out.agents.push(definition(id, fields, 'settings'));
  }
  return out;
}
