// Whether a server may start. A server from the person's own settings starts. One from a workspace
// file launches a program or sends headers chosen by whoever wrote the repository, so: never in an
// untrusted workspace; in a trusted one only after the person agreed to this exact definition (the
// editor asks once, showing the command or URL, and remembers the answer per workspace until the
// definition changes); the CLI, with no one to ask, only with --trust-mcp.
import { createHash } from 'node:crypto';
import { stableJson } from '../guard/stable-json';
import type { McpServerDefinition } from './server-definition';

export type StartDecision =
  | { kind: 'start' }
  | { kind: 'ask'; fingerprint: string; launch: string }
  | { kind: 'skip'; reason: string };

export interface TrustState {
  workspaceTrusted: boolean;
  /** The fingerprint the person agreed to for this server name in this workspace, if any. */
  approved: (server: string) => string | undefined;
  /** True where a person can be asked (the editor); false in the CLI. */
  canAsk: boolean;
  /** The CLI's --trust-mcp. */
  trustFlag?: boolean;
}

/**
 * Changes whenever what would run changes: the transport, program, arguments, environment (names
 * and unexpanded values: an `${input:…}` placeholder, never the secret), working folder, URL, headers.
 */
export function definitionFingerprint(def: McpServerDefinition): string {
  const { transport, command, args, env, envFile, cwd, url, headers } = def;
  return createHash('sha256').update(stableJson({ transport, command, args, env, envFile, cwd, url, headers })).digest('hex');
}

/** What the person is shown: the exact command line or URL, and the names it passes. */
export function describeLaunch(def: McpServerDefinition): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  if (def.transport === 'stdio') {
    const env = Object.keys(def.env);
    return [
      `runs: ${[def.command ?? '', ...def.args].map(quote).join(' ')}`,
      ...(def.cwd ? [`in: ${def.cwd}`] : []),
      ...(env.length ? [`with environment: ${env.join(', ')}`] : []),
      ...(def.envFile ? [`and the variables of: ${def.envFile}`] : []),
    ].join('\n');
  }
  const headers = Object.keys(def.headers);
  return [`connects to: ${def.url} (${def.transport})`, ...(headers.length ? [`sending headers: ${headers.join(', ')}`] : [])].join('\n');
}

export function decideStart(def: McpServerDefinition, t: TrustState): StartDecision {
  if (def.disabled) return { kind: 'skip', reason: 'disabled in its definition' };
  if (!def.source.workspace) return { kind: 'start' };
  if (!t.workspaceTrusted) return { kind: 'skip', reason: `defined in ${def.source.file}, and this workspace is not trusted: workspace-defined MCP servers never start in an untrusted workspace` };
  if (t.trustFlag) return { kind: 'start' };
  const fingerprint = definitionFingerprint(def);
  if (t.approved(def.name) === fingerprint) return { kind: 'start' };
  if (t.canAsk) return { kind: 'ask', fingerprint, launch: describeLaunch(def) };
  return { kind: 'skip', reason: `defined in ${def.source.file} (a workspace file): workspace-defined MCP servers start only with --trust-mcp` };
}
