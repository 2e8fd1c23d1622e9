// Reading MCP server definitions from the files people already have. Nothing here starts anything or
// expands a variable: the readers only turn text into definitions, and say exactly which file and
// field is wrong when a definition cannot be used (that server is left out; the others still load).
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { WORKSPACE_MCP_FILES } from './workspace-files';
import {
  rawInputSchema, rawServerSchema, transportFromSpelling, TRANSPORT_NAMES,
  type McpInput, type McpServerDefinition, type McpSource, type RawServer,
} from './server-definition';

export interface McpConfigRead {
  servers: McpServerDefinition[];
  inputs: McpInput[];
  /** One line each: `<file>: <field>: <what is wrong>`. */
  problems: string[];
}

const EMPTY = (): McpConfigRead => ({ servers: [], inputs: [], problems: [] });

export { WORKSPACE_MCP_FILES };

function zodProblem(file: string, prefix: string, error: z.ZodError): string {
  const i = error.issues[0];
  const field = [prefix, ...i.path.map(String)].filter(Boolean).join('.');
  return `${file}: ${field}: ${i.message}`;
}

/**
 * A file's text: `servers` (VS Code) and `mcpServers` (Claude Code, Cursor, Cline, …) are both read,
 * and `inputs` (VS Code's `${input:id}` prompts). Comments and trailing commas are allowed, as VS Code allows them.
 */
export function readMcpConfigText(text: string, source: McpSource): McpConfigRead {
  // An empty file defines nothing (VS Code creates one before the first server is added).
  if (!text.trim()) return EMPTY();
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length) return { ...EMPTY(), problems: [`${source.file}: ${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}`] };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ...EMPTY(), problems: [`${source.file}: expected a JSON object`] };
  const doc = value as Record<string, unknown>;
  const out = EMPTY();
  for (const key of ['servers', 'mcpServers']) {
    if (doc[key] === undefined) continue;
    const r = readServersObject(doc[key], source, key);
    out.servers.push(...r.servers);
    out.problems.push(...r.problems);
  }
  if (doc.inputs !== undefined) {
    if (!Array.isArray(doc.inputs)) out.problems.push(`${source.file}: inputs: expected an array`);
    else {
      doc.inputs.forEach((raw, i) => {
        const p = rawInputSchema.safeParse(raw);
        if (!p.success) out.problems.push(zodProblem(source.file, `inputs.${i}`, p.error));
        else out.inputs.push({ id: p.data.id, description: p.data.description, password: p.data.password ?? false, default: p.data.default });
      });
    }
  }
  return out;
}

/** An object of servers by name (`pincer.mcp.servers`, or a file's `servers` / `mcpServers`). */
export function readServersObject(value: unknown, source: McpSource, field: string): McpConfigRead {
  const out = EMPTY();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    out.problems.push(`${source.file}: ${field}: expected an object of servers by name`);
    return out;
  }
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    const at = `${field}.${name}`;
    if (!name.trim()) {
      out.problems.push(`${source.file}: ${at}: a server needs a non-empty name`);
      continue;
    }
    const p = rawServerSchema.safeParse(raw);
    if (!p.success) {
      out.problems.push(zodProblem(source.file, at, p.error));
      continue;
    }
    const def = toDefinition(name, p.data, source);
    if (typeof def === 'string') out.problems.push(`${source.file}: ${at}${def}`);
    else out.servers.push(def);
  }
  return out;
}

/** A definition, or the problem (`.<field>: message`) that keeps it out. */
function toDefinition(name: string, raw: RawServer, source: McpSource): McpServerDefinition | string {
  const spelled = raw.type ?? raw.transport ?? raw.transportType;
  const spelledField = raw.type !== undefined ? 'type' : raw.transport !== undefined ? 'transport' : 'transportType';
  const url = raw.url ?? raw.serverUrl;
  let transport = spelled === undefined ? undefined : transportFromSpelling(spelled);
  if (spelled !== undefined && !transport) return `.${spelledField}: "${spelled}" is not a transport (one of ${TRANSPORT_NAMES})`;
  if (!transport) {
    if (raw.command !== undefined && url !== undefined) return ': has both "command" and "url"; say which with "type"';
    transport = raw.command !== undefined ? 'stdio' : url !== undefined ? 'http' : undefined;
  }
  if (!transport) return ': needs "command" (a program to start) or "url" (a server to reach)';
  if (transport === 'stdio' && raw.command === undefined) return '.command: required for a stdio server';
  if (transport !== 'stdio') {
    if (url === undefined) return `.url: required for a ${transport} server`;
    // Variables may stand for the whole URL; a literal one must be http(s).
    if (!url.includes('${') && !/^https?:\/\//i.test(url)) return `.url: "${url}" is not an http:// or https:// URL`;
  }
  const seconds = raw.timeoutSeconds ?? raw.timeout;
  return {
    name, source, transport,
    command: transport === 'stdio' ? raw.command : undefined,
    args: transport === 'stdio' ? (raw.args ?? []) : [],
    env: transport === 'stdio' ? (raw.env ?? {}) : {},
    envFile: transport === 'stdio' ? raw.envFile : undefined,
    cwd: transport === 'stdio' ? raw.cwd : undefined,
    url: transport === 'stdio' ? undefined : url,
    headers: transport === 'stdio' ? {} : (raw.headers ?? {}),
    timeoutMs: seconds === undefined ? undefined : Math.round(seconds * 1000),
    allow: raw.tools?.allow, deny: raw.tools?.deny, deferTools: raw.deferTools,
    disabled: raw.disabled === true || raw.enabled === false,
  };
}

/**
 * Several reads in order of precedence as one: the first definition of a name wins and each later one
 * is reported (a person's own settings come first, so a repository cannot replace them).
 */
export function mergeMcpConfigs(reads: readonly McpConfigRead[]): McpConfigRead {
  const out = EMPTY();
  const seen = new Map<string, McpServerDefinition>();
  for (const r of reads) {
    out.problems.push(...r.problems);
    for (const s of r.servers) {
      const first = seen.get(s.name);
      if (first) {
        out.problems.push(`${s.source.file}: server "${s.name}" is also defined in ${first.source.file}, which is used`);
        continue;
      }
      seen.set(s.name, s);
      out.servers.push(s);
    }
    for (const i of r.inputs) if (!out.inputs.some((x) => x.id === i.id)) out.inputs.push(i);
  }
  return out;
}

/** The workspace's MCP files on a local disk (those that exist), each marked as workspace-defined. */
export function readWorkspaceMcpFiles(root: string): McpConfigRead[] {
  const reads: McpConfigRead[] = [];
  for (const rel of WORKSPACE_MCP_FILES) {
    const file = path.join(root, rel);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') reads.push({ ...EMPTY(), problems: [`${file}: ${(e as Error).message}`] });
      continue;
    }
    reads.push(readMcpConfigText(text, { file, workspace: true }));
  }
  return reads;
}
