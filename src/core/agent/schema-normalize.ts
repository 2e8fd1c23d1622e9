// Tool schemas and names as each provider accepts them. Tools arrive with JSON Schemas made from zod
// (Registry.definitions) or from MCP servers, which use keywords some providers refuse: OpenAI and
// Anthropic want a plain object at the top level (no anyOf/oneOf there), Gemini-family models refuse
// whole families of keywords, and every provider restricts tool names. Everything here is pure and
// deterministic — the same tools give byte-identical output — because the tool list is part of the
// prompt and any wobble breaks the provider's prompt cache.
import { createHash } from 'node:crypto';
import type { ModelTool } from './model-types';
import { flattenTopLevel, isSchema, newBudget, type Schema } from './providers/schema-unions';
import { cleanForGemini } from './providers/schema-gemini';

export interface NormalizedTools {
  /** The tools as the provider must be sent them, in the order given. */
  tools: ModelTool[];
  /** Wire name → Pincer name, for every tool (unchanged names map to themselves). */
  nameMap: Map<string, string>;
}

/** OpenAI's and Anthropic's rule for function names. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const NAME_MAX = 64;

/** Gemini models, whoever serves them (Google's OpenAI-compatible endpoint, OpenRouter, a proxy). */
export function isGeminiFamily(providerId: string, model: string): boolean {
  return /gemini/i.test(model) || /gemini/i.test(providerId);
}

export function normalizeToolsFor(providerId: string, model: string, tools: ModelTool[]): NormalizedTools {
  const gemini = isGeminiFamily(providerId, model);
  const wire = assignWireNames(
    tools.map((t) => t.name),
    gemini,
  );
  const nameMap = new Map<string, string>();
  const out = tools.map((tool, i) => {
    nameMap.set(wire[i], tool.name);
    return { name: wire[i], description: tool.description, parameters: normalizeParameters(tool.parameters, gemini) };
  });
  return { tools: out, nameMap };
}

/**
 * Both directions of a request's name mapping. Names in the history that are not among this request's
 * tools (a tool since removed) are sanitised the same way, so the model sees its own earlier calls.
 */
export interface ToolNameMapper {
  toWire(pincerName: string): string;
  fromWire(wireName: string): string;
}

export function toolNameMapper(providerId: string, model: string, nameMap: Map<string, string>): ToolNameMapper {
  const gemini = isGeminiFamily(providerId, model);
  const inverse = new Map<string, string>();
  for (const [wireName, pincerName] of nameMap) if (!inverse.has(pincerName)) inverse.set(pincerName, wireName);
  return {
    toWire: (name) => inverse.get(name) ?? sanitizeToolName(name, gemini),
    fromWire: (name) => nameMap.get(name) ?? name,
  };
}

/** One name made valid on its own: disallowed characters become '_', cut to 64 characters. */
export function sanitizeToolName(name: string, gemini = false): string {
  let out = name.replace(/[^a-zA-Z0-9_-]/gu, '_');
  // Gemini also wants a letter or underscore first.
  if (gemini && /^[^a-zA-Z_]/.test(out)) out = `_${out}`;
  if (out === '') out = 'tool';
  return out.slice(0, NAME_MAX);
}

function assignWireNames(names: string[], gemini: boolean): string[] {
  const sanitized = names.map((n) => sanitizeToolName(n, gemini));
  const result: (string | undefined)[] = names.map(() => undefined);
  const taken = new Set<string>();
  // Valid names keep themselves: a tool is never renamed because another one's sanitised name looks like it.
  names.forEach((name, i) => {
    if (sanitized[i] === name && !taken.has(name)) {
      taken.add(name);
      result[i] = name;
    }
  });
  // The rest in order of their original name, so the outcome does not depend on the list's order.
  const pending = names
    .map((_, i) => i)
    .filter((i) => result[i] === undefined)
    .sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : a - b));
  for (const i of pending) {
    // A collision gets a suffix from the original name's hash: stable whatever other tools exist.
    const hash = createHash('sha1').update(names[i]).digest('hex').slice(0, 6);
    let candidate = sanitized[i];
    for (let n = 1; taken.has(candidate); n++) candidate = withSuffix(sanitized[i], n === 1 ? hash : `${hash}_${n}`);
    taken.add(candidate);
    result[i] = candidate;
  }
  return result as string[];
}

function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, NAME_MAX - suffix.length - 1)}_${suffix}`;
}

/** A tool's parameter schema with a plain `type: object` at the top, cleaned for Gemini when asked. */
export function normalizeParameters(parameters: unknown, gemini: boolean): Schema {
  let schema: Schema = isSchema(parameters) ? parameters : {};
  const budget = newBudget();
  if (gemini) schema = cleanForGemini(schema, budget);
  schema = flattenTopLevel(schema, budget);
  if (schema.type !== undefined && schema.type !== 'object') {
    // Not an object schema at all (a broken definition): the model gets an argument-less tool and the
    // registry's validation explains what it wanted.
    schema = description(schema);
  }
  const { type: _type, properties, ...rest } = schema;
  return { type: 'object', properties: isSchema(properties) ? properties : {}, ...rest };
}

function description(schema: Schema): Schema {
  return typeof schema.description === 'string' ? { description: schema.description } : {};
}
