// Pincer's tools offered to any MCP client. tools/list is the policy's answer for the caller the
// context describes (channel `mcp`, so `pincer.tools.byChannel.mcp` applies), and tools/call goes
// through Registry.execute like every other call: resolve, policy, rate limit, arguments, run, scrub,
// cap, loop check. Nothing here decides what may run; it only translates between MCP and the pipeline.
// The low-level Server is used (not McpServer) because the tools are the registry's, described by
// JSON Schema and validated by the pipeline itself, which answers bad arguments in its own words.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool as McpTool, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { scrubStrings } from '../guard/scrub-strings';
import type { PincerRuntime } from '../runtime';
import type { Capability, ToolContext, ToolResult } from '../tools/types';

export interface ToolServerDeps {
  rt: PincerRuntime;
  /** The context of one request (its signal: the client's cancellation of that request). */
  context(signal: AbortSignal): ToolContext;
  version: string;
}

/**
 * What a client may assume from a tool's capability. Writes and commands can overwrite or delete, so
 * they are destructive; external tools reach outside the workspace (the open world).
 */
const ANNOTATIONS: Readonly<Record<Capability, ToolAnnotations>> = {
  'read-only': { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  mutating: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  external: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
};

export function listTools(deps: Pick<ToolServerDeps, 'rt' | 'context'>): McpTool[] {
  const { registry } = deps.rt;
  const req = registry.policyRequest(deps.context(new AbortController().signal));
  return registry.definitions(req).tools.map((d) => ({
    name: d.name,
    description: d.description,
    inputSchema: d.parameters as McpTool['inputSchema'],
    annotations: ANNOTATIONS[registry.get(d.name)?.capability ?? 'external'],
  }));
}

/**
 * The pipeline's result as MCP's: the text the model would see (already scrubbed and capped), isError,
 * and as structured content the outcome (`ok`, `denied`, `rejected-by-user`, …) with the tool's
 * details. The pipeline never scrubs details (they are not sent to a model in the editor), so they
 * are scrubbed here, and left out when they would exceed the result cap.
 */
export function toCallToolResult(r: ToolResult, scrub: (t: string) => string, maxChars: number): CallToolResult {
  const structured: Record<string, unknown> = { outcome: r.outcome ?? (r.isError ? 'error' : 'ok') };
  if (r.details) {
    const details = scrubStrings(r.details, scrub);
    const size = JSON.stringify(details).length;
    structured.details = size <= maxChars ? details : { omitted: `${size} characters of details, over pincer.tools.maxResultChars (${maxChars})` };
  }
  return { content: [{ type: 'text', text: r.forLLM }], isError: r.isError, structuredContent: structured };
}

export async function callTool(deps: Pick<ToolServerDeps, 'rt' | 'context'>, name: string, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
  const { rt } = deps;
  const ctx = deps.context(signal);
  const result = await rt.registry.execute(name, args ?? {}, ctx);
  // A client's turns are invisible here, so one session would otherwise stay halted for as long as
  // the connection lasts. The call that hit the critical loop is refused with the reason (the
  // client's agent is told to stop); the next call starts a new run, judged afresh.
  if (result.halt) rt.loops.reset(ctx.turnId ?? ctx.sessionKey);
  return toCallToolResult(result, (t) => rt.scrubber.scrub(t), rt.registry.limits.maxResultChars);
}

/** One MCP server session (a stdio connection, or one session of the HTTP server). */
export function createToolServer(deps: ToolServerDeps): Server {
  const server = new Server(
    { name: 'pincer', title: 'Pincer', version: deps.version },
    {
      capabilities: { tools: {} },
      instructions: 'Pincer runs these tools on one workspace under its policy, path guard, command judge and scrubber. '
        + 'A refused call says why; do not try to reach the same effect another way.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(deps) }));
  // Registered through the protocol layer, which parses the request against CallToolRequestSchema once.
  // Server's own tools/call registration wraps the handler to parse the request a second time and the
  // result a third: a zod pass over every result on every call, for results toCallToolResult builds
  // to the type already (and Pincer offers no tasks, the wrapper's other case).
  Protocol.prototype.setRequestHandler.call(server, CallToolRequestSchema, (req, extra) => callTool(deps, req.params.name, req.params.arguments, extra.signal));
  return server;
}
