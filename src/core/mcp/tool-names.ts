// Names for bridged tools: `mcp_<server>__<tool>`, within the strictest provider's rules (OpenAI and
// Anthropic accept only letters, digits, `_` and `-`; Gemini wants a letter or `_` first and at most
// 64 characters). A server's tool names are its own choice, so anything else in them — dots, slashes,
// `../`, spaces, control characters — becomes `_`. Two tools that end up with one name, or a name cut
// to fit, get a short hash of their original (server, tool) pair: the same pair always gets the same
// name, whatever else the servers list.
import { createHash } from 'node:crypto';

export const MAX_TOOL_NAME = 64;
const PREFIX = 'mcp_';
const SEPARATOR = '__';

function clean(part: string): string {
  return part.replace(/[^A-Za-z0-9_-]/g, '_');
}

function hashOf(server: string, tool: string): string {
  return createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
}

/** The name before collisions are looked at: cut to fit, with a hash when cut. */
function baseName(server: string, tool: string): string {
  const name = `${PREFIX}${clean(server)}${SEPARATOR}${clean(tool)}`;
  return name.length <= MAX_TOOL_NAME ? name : `${name.slice(0, MAX_TOOL_NAME - 9)}_${hashOf(server, tool)}`;
}

function withHash(server: string, tool: string): string {
  const h = `_${hashOf(server, tool)}`;
  return `${baseName(server, tool).slice(0, MAX_TOOL_NAME - h.length)}${h}`;
}

/**
 * Pincer names for every (server, tool) pair, decided together. `taken` are names already in use by
 * other tools. Pairs are considered in a fixed order, so the result does not depend on list order:
 * of the pairs that clean to one name, the first by (server, tool) keeps it and the others take their hash.
 */
export function bridgedToolNames(pairs: readonly { server: string; tool: string }[], taken: ReadonlySet<string> = new Set()): Map<string, string> {
  const key = (p: { server: string; tool: string }) => `${p.server}\0${p.tool}`;
  const sorted = [...pairs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const used = new Set(taken);
  const out = new Map<string, string>();
  for (const p of sorted) {
    let name = baseName(p.server, p.tool);
    if (used.has(name)) name = withHash(p.server, p.tool);
    // Two different pairs sharing an 8-hex hash prefix as well: count up, still deterministic.
    for (let n = 2; used.has(name); n++) name = `${withHash(p.server, p.tool).slice(0, MAX_TOOL_NAME - String(n).length - 1)}_${n}`;
    used.add(name);
    out.set(key(p), name);
  }
  return out;
}

export function pairKey(server: string, tool: string): string {
  return `${server}\0${tool}`;
}
