// session_status: what the calling agent may know about its own session — who it runs as, where,
// with which tools and how much of its rate budget is left. Everything comes from the call context
// and the runtime, nothing from the workspace.
import { z } from 'zod';
import { defineTool, ok, type ToolContext } from '../types';

export interface SessionStatusSource {
  /** The tools this caller may use, sorted. */
  allowedTools(ctx: ToolContext): string[];
}

const parameters = z.object({}).strict();

export function createSessionStatusTool(source: SessionStatusSource) {
  return defineTool({
    name: 'session_status',
    description: 'Shows the status of the current session: session key, agent, entry point, subagent depth, workspace trust, and the tools you may use. Takes no arguments.',
    parameters,
    group: 'sessions',
    capability: 'read-only',
    async execute(_args, ctx) {
      const tools = source.allowedTools(ctx);
      const lines = [
        `Session: ${ctx.sessionKey}`,
        `Agent: ${ctx.agentId}${ctx.provider ? ` (provider ${ctx.provider})` : ''}`,
        `Entry point: ${ctx.channel}`,
        `Subagent depth: ${ctx.subagentDepth}`,
        `Owner: ${ctx.isOwner ? 'yes' : 'no'}`,
        `Workspace: ${ctx.workspaceRoot ?? '(no folder open)'}${ctx.workspaceTrusted ? '' : ' — not trusted: read-only tools only'}`,
        `Tools (${tools.length}): ${tools.join(', ') || '(none)'}`,
      ];
      return ok(lines.join('\n'), { details: { tools, depth: ctx.subagentDepth, trusted: ctx.workspaceTrusted } });
    },
  });
}
