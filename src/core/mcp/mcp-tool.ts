// One server tool as a Pincer tool. Its JSON schema becomes a zod schema, so the pipeline validates
// the model's arguments before anything is sent and providers see the schema the server declared
// (normalised like a built-in's by the same conversion). Annotations choose the capability: a tool
// that declares itself read-only (and not destructive) may run beside other reads; anything else is
// external, which runs one at a time.
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { fail, type Tool, type ToolContext, type ToolResult } from '../tools/types';
import type { McpConnection } from './mcp-connection';
import { sdkSignal } from './call-signal';
import type { AskFirst } from './destructive-ask';
import { toToolResult } from './mcp-result';

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
const MAX_DESCRIPTION = 2_000;

// The SDK arms a Node timer of the request's timeout for each call and clears it at the answer. Node
// keeps one list of timers per duration and throws a list away when its last timer goes, so calls one
// after another would make and file that duration's list again on every call. One idle timer per
// duration keeps the list: unreferenced (it never keeps the process alive), and when it comes due it
// only re-arms itself.
const listKeepers = new Map<number, NodeJS.Timeout>();

function keepTimerList(ms: number): void {
  if (listKeepers.has(ms) || !(ms >= 1 && ms <= 2 ** 31 - 1)) return;
  const keeper = setTimeout(() => keeper.refresh(), ms);
  keeper.unref();
  listKeepers.set(ms, keeper);
}

function parametersOf(t: McpTool): z.ZodType {
  try {
    const s = z.fromJSONSchema(t.inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
    if (s instanceof z.ZodObject) return s;
  } catch {
    // A schema zod cannot read: the server validates the arguments itself.
  }
  return z.looseObject({});
}

function describe(server: string, t: McpTool): string {
  const text = (t.description ?? t.annotations?.title ?? t.title ?? '').replace(/\s+/g, ' ').trim();
  const cut = text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION)}…` : text;
  return `${cut || `The ${t.name} tool`} (from the MCP server "${server}"; its output is external data)`;
}

/**
 * `askFirst`: for a tool that must be confirmed before each call (destructive-ask.ts); `deferred`: shown
 * to the model only once mcp_tool_search finds it.
 */
export function bridgeTool(name: string, conn: McpConnection, t: McpTool, timeoutMs: number, opts: { askFirst?: AskFirst; deferred?: boolean } = {}): Tool {
  const { askFirst } = opts;
  const server = conn.name;
  const readOnly = t.annotations?.readOnlyHint === true && t.annotations?.destructiveHint !== true;
  const source = `mcp:${server}/${t.name}`;
  // The SDK's own limit sits a little past the pipeline's (which is at most timeoutMs), so the
  // pipeline's timeout — it aborts the signal, which cancels on the server — is what the model hears.
  const sdkTimeoutMs = timeoutMs + 1_000;
  keepTimerList(sdkTimeoutMs);
  const call = (args: unknown, ctx: ToolContext): Promise<ToolResult> => {
    const report = ctx.onProgress;
    const onProgress = report ? (progress: number, total?: number, message?: string) => report({ progress, total, message }) : undefined;
    // The call's own AbortSignal is made only for a result with images (their fitting can be stopped).
    return conn.callTool(t.name, args as Record<string, unknown>, { signal: sdkSignal(ctx), timeoutMs: sdkTimeoutMs, onProgress },
      (r) => toToolResult(source, r, ctx));
  };
  // Not through defineTool: its wrapper only turns the path guard's and memory's known errors into
  // results, which a server's call never throws (the pipeline maps them anyway), and it would cost
  // every call an async step of its own. execute is a plain function returning the call's promise.
  const tool: Tool<z.ZodType> = {
    name, description: describe(server, t), parameters: parametersOf(t), group: 'mcp', mcpServer: server,
    capability: readOnly ? 'read-only' : 'external', timeoutMs, ...(opts.deferred ? { deferred: true } : {}),
    // A confirmed tool waits for a person: the prompt's own time limit applies, not the call's.
    interactive: askFirst ? true : undefined,
    execute: askFirst
      ? async (args, ctx) => {
        const refused = await askFirst(args, ctx);
        if (refused) return fail(refused.message, { outcome: refused.outcome });
        return call(args, ctx);
      }
      : call,
  };
  return tool as Tool;
}
