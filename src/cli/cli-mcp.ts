// MCP servers in the CLI: the person's (`pincer.mcp.servers` in --config) start; the workspace's
// (its `.vscode/settings.json`, `.vscode/mcp.json`, `.mcp.json`, `.cursor/mcp.json`) only with
// --trust-mcp, as there is no one to ask. An `${input:id}` is answered by the environment variable
// PINCER_MCP_INPUT_<ID> (the id upper-cased, other characters as `_`). A server's elicitation request
// is declined (nobody is there to fill in a form) and sampling is not offered; an "always" answer to a
// destructive tool holds for the run. Loaded only by commands that need MCP tools, so other runs do not
// pay for the SDK.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settingsLookup } from '../core/config';
import type { DestructiveAskDeps } from '../core/mcp/destructive-ask';
import type { McpManager, McpServerStatus } from '../core/mcp/mcp-manager';
import { planMcpServers, readMcpDefinitions, type McpPlan } from '../core/mcp/mcp-setup';
import type { PincerRuntime } from '../core/runtime';
import { readJsonc } from './cli-config';
import type { Values } from './main';

export function inputVariable(id: string): string {
  return `PINCER_MCP_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

function sources(values: Values, root: string) {
  const setting = (file: string) => settingsLookup(readJsonc(file))('mcp.servers');
  const ws = path.join(root, '.vscode', 'settings.json');
  return {
    workspaceFolder: root,
    userServers: values.config ? { value: setting(values.config), file: values.config } : undefined,
    workspaceServers: fs.existsSync(ws) ? { value: setting(ws), file: ws } : undefined,
  };
}

export interface CliMcp {
  manager: McpManager;
  skipped: McpPlan['skipped'];
}

/** Starts the servers that may start; undefined when none is defined anywhere. */
export async function startCliMcp(values: Values, rt: PincerRuntime, root: string, approvals: DestructiveAskDeps, warn: (m: string) => void): Promise<CliMcp | undefined> {
  const src = sources(values, root);
  const defined = readMcpDefinitions(src);
  if (defined.servers.length === 0 && defined.problems.length === 0) return undefined;
  const plan = await planMcpServers({
    ...src, home: os.homedir(), env: process.env,
    trust: { workspaceTrusted: !values.untrusted, canAsk: false, trustFlag: !!values['trust-mcp'], approved: () => undefined },
    input: async (i) => process.env[inputVariable(i.id)],
  });
  for (const p of plan.problems) warn(`MCP: ${p}`);
  for (const s of plan.skipped) warn(`MCP server "${s.server}" not started: ${s.reason}`);
  const { McpManager } = await import('../core/mcp/mcp-manager');
  const always = new Set<string>();
  const maxEager = values.config ? settingsLookup(readJsonc(values.config))('mcp.maxEagerTools') : undefined;
  const mcp = new McpManager({
    registry: rt.registry, scrubber: rt.scrubber, roots: () => [root], clientVersion: 'cli',
    approvals: { ...approvals, alwaysAllowed: { has: (s, t) => always.has(`${s}/${t}`), add: (s, t) => always.add(`${s}/${t}`) } },
    elicit: async () => ({ action: 'decline' }),
    ...(typeof maxEager === 'number' ? { maxEagerTools: () => maxEager } : {}),
  });
  for (const f of await mcp.start(plan.start)) warn(f.error);
  return { manager: mcp, skipped: plan.skipped };
}

/** `pincer tools --json` adds this when any server is defined. */
export function mcpStatusJson(m: CliMcp) {
  return [
    ...m.manager.status().map((s: McpServerStatus) => ({ name: s.name, file: s.file, state: s.state as string, error: s.error, tools: s.tools })),
    ...m.skipped.map((s) => ({ name: s.server, file: s.file, state: 'not started', error: s.reason, tools: [] as string[] })),
  ];
}
