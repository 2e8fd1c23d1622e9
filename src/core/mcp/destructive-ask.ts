// An MCP tool that declares `destructiveHint: true` asks before each call, through the same approval
// prompt commands use: the person sees the server, the tool and the arguments, and answers each
// call (a server's own hint is not a rule Pincer could store as "always"). Where nobody can answer,
// the call is refused.
import { randomUUID } from 'node:crypto';
import { askApproval } from '../exec/approval-ask';
import type { Approver } from '../exec/exec-types';
import type { ToolContext, ToolOutcome } from '../tools/types';

export interface DestructiveAskDeps {
  approver: () => Approver | undefined;
  approvalTimeoutMs: () => number;
}

/** Undefined: go ahead; otherwise why the call must not run (for the model) and its outcome. */
export type AskFirst = (args: unknown, ctx: ToolContext) => Promise<{ message: string; outcome: ToolOutcome } | undefined>;

export function destructiveAsk(deps: DestructiveAskDeps, server: string, tool: string): AskFirst {
  return async (args, ctx) => {
    const approver = deps.approver();
    if (!approver) return { outcome: 'denied', message: `${tool} on the MCP server "${server}" is marked destructive and needs a person's approval, which nobody can give here.` };
    const { answer, note } = await askApproval(approver, {
      id: randomUUID(), tool: 'mcp', command: `${server} / ${tool} ${JSON.stringify(args)}`, cwd: ctx.workspaceRoot ?? '', host: 'process',
      reason: `the MCP server "${server}" marks ${tool} as destructive`, segments: [],
      alwaysUnavailable: 'each call of a tool its server marks destructive is confirmed on its own',
      sessionKey: ctx.sessionKey, agentId: ctx.agentId,
    }, { timeoutMs: deps.approvalTimeoutMs(), signal: ctx.signal });
    if (answer === 'once' || answer === 'always') return undefined;
    return { outcome: 'rejected-by-user', message: `The user did not allow ${tool} on the MCP server "${server}"${note ? ` (${note})` : ''}. Do not retry it; ask them what they want instead.` };
  };
}
