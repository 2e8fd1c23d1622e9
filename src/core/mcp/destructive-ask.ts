// An MCP tool that declares `destructiveHint: true` asks before each call, through the same approval
// prompt commands use: the person sees the server, the tool and the arguments, and allows this call,
// or that tool always (kept per workspace, like a command's "Always allow"; the CLI keeps it for the
// run). Where nobody can answer, the call is refused.
import { randomUUID } from 'node:crypto';
import { askApproval } from '../exec/approval-ask';
import type { Approver } from '../exec/exec-types';
import type { ToolContext, ToolOutcome } from '../tools/types';

export interface DestructiveAskDeps {
  approver: () => Approver | undefined;
  approvalTimeoutMs: () => number;
  /** Tools the person allowed always; absent: "Always allow" is not offered. */
  alwaysAllowed?: McpAlwaysAllowed;
}

export interface McpAlwaysAllowed {
  has(server: string, tool: string): boolean;
  add(server: string, tool: string): void;
}

/** Undefined: go ahead; otherwise why the call must not run (for the model) and its outcome. */
export type AskFirst = (args: unknown, ctx: ToolContext) => Promise<{ message: string; outcome: ToolOutcome } | undefined>;

export function destructiveAsk(deps: DestructiveAskDeps, server: string, tool: string): AskFirst {
  return async (args, ctx) => {
    const always = deps.alwaysAllowed;
    if (always?.has(server, tool)) return undefined;
    const approver = deps.approver();
    if (!approver) return { outcome: 'denied', message: `${tool} on the MCP server "${server}" is marked destructive and needs a person's approval, which nobody can give here.` };
    const { answer, note } = await askApproval(approver, {
      id: randomUUID(), tool: 'mcp', command: `${server} / ${tool} ${JSON.stringify(args)}`, cwd: ctx.workspaceRoot ?? '', host: 'process',
      reason: `the MCP server "${server}" marks ${tool} as destructive`, segments: [],
      ...(always ? { always: [{ executable: `mcp:${server}/${tool}` }] } : { alwaysUnavailable: 'nothing here can keep the answer' }),
      sessionKey: ctx.sessionKey, agentId: ctx.agentId,
    }, { timeoutMs: deps.approvalTimeoutMs(), signal: ctx.signal });
    if (answer === 'always' && always) always.add(server, tool);
    if (answer === 'once' || answer === 'always') return undefined;
    return { outcome: 'rejected-by-user', message: `The user did not allow ${tool} on the MCP server "${server}"${note ? ` (${note})` : ''}. Do not retry it; ask them what they want instead.` };
  };
}
