// What one MCP server entry looks like once read from any of the config formats people already have
// (VS Code's `.vscode/mcp.json`, the `mcpServers` objects of `.mcp.json` and other clients, Pincer's
// own `pincer.mcp.servers` setting). Values still hold their `${…}` variables: they are expanded only
// when the server starts (config-expand.ts), so the trust fingerprint never contains a secret.
import { z } from 'zod';

/** `http` tries streamable HTTP first and falls back to SSE, as VS Code does. */
export type McpTransport = 'stdio' | 'http' | 'streamable-http' | 'sse';

/** Every spelling in use, by the clients that use it. */
const TRANSPORT_SPELLINGS: Readonly<Record<string, McpTransport>> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'streamable-http',
  streamablehttp: 'streamable-http',
  'streamable_http': 'streamable-http',
  sse: 'sse',
};

export function transportFromSpelling(spelling: string): McpTransport | undefined {
  return TRANSPORT_SPELLINGS[spelling.trim().toLowerCase()];
}

export const TRANSPORT_NAMES = 'stdio, http, streamable-http, streamableHttp, sse';

/** Where a definition came from: a person's own settings start freely; a workspace's need trust. */
export interface McpSource {
  /** The file (or setting) it was read from, for messages. */
  file: string;
  /** True for files inside the workspace (and the workspace's settings), which a repository controls. */
  workspace: boolean;
}

export interface McpServerDefinition {
  /** The key it was listed under; tool names are built from it. */
  name: string;
  source: McpSource;
  transport: McpTransport;
  command?: string;
  args: string[];
  env: Record<string, string>;
  envFile?: string;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  /** Per-call limit; undefined: pincer's MCP default. */
  timeoutMs?: number;
  /** Tool names (the server's own) or globs; deny wins over allow. */
  allow?: string[];
  deny?: string[];
  /** true: its tools always wait behind mcp_tool_search; false: never; undefined: when there are too many (pincer.mcp.maxEagerTools). */
  deferTools?: boolean;
  disabled: boolean;
}

/** A `${input:id}` prompt declared in `.vscode/mcp.json`. */
export interface McpInput {
  id: string;
  description?: string;
  password: boolean;
  default?: string;
}

const stringMap = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String));
const nameList = z.array(z.string());

/**
 * One entry, in the union of the formats' field names. Unknown fields are allowed (clients add their
 * own: `autoApprove`, `dev`, `alwaysAllow`, …) and ignored.
 */
export const rawServerSchema = z.looseObject({
  type: z.string().optional(),
  transport: z.string().optional(),
  transportType: z.string().optional(),
  command: z.string().min(1, 'must not be empty').optional(),
  args: z.array(z.union([z.string(), z.number()]).transform(String)).optional(),
  env: stringMap.optional(),
  envFile: z.string().optional(),
  cwd: z.string().optional(),
  url: z.string().min(1, 'must not be empty').optional(),
  serverUrl: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Seconds (Cline's `timeout` and Pincer's `timeoutSeconds`). */
  timeout: z.number().positive().optional(),
  timeoutSeconds: z.number().positive().optional(),
  tools: z.strictObject({ allow: nameList.optional(), deny: nameList.optional() }).optional(),
  deferTools: z.boolean().optional(),
  disabled: z.boolean().optional(),
  enabled: z.boolean().optional(),
});

export type RawServer = z.infer<typeof rawServerSchema>;

export const rawInputSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().optional(),
  description: z.string().optional(),
  password: z.boolean().optional(),
  default: z.string().optional(),
});
