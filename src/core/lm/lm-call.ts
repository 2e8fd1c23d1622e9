// A call from VS Code's own agent to one of Pincer's tools (`pincer_<tool>`), through Registry.execute
// like every other call: channel `lm` (so pincer.tools.byChannel.lm applies), the tools
// pincer.lm.offeredTools names as the request's allow list (a tool left out is refused by the
// pipeline, in its words, even when another extension calls vscode.lm.invokeTool by name), and the
// result as the model would see it in Pincer's own chat: scrubbed and capped.
import type { PincerRuntime } from '../runtime';
import type { ToolResult } from '../tools/types';
import { pincerToolName } from './lm-tools';

export interface LmCallDeps {
  rt: PincerRuntime;
  /** pincer.lm.offeredTools as read now (offeredLmTools). */
  offered: () => readonly string[];
  workspaceRoot: () => string | undefined;
  trusted: () => boolean;
}

/** VS Code's agent is one caller: its calls share a rate limit and loop detection, as one session does. */
export const LM_SESSION = 'lm:vscode-agent';

export async function callFromLm(deps: LmCallDeps, lmName: string, input: unknown, signal: AbortSignal): Promise<ToolResult> {
  const offered = deps.offered();
  // A name without the prefix is passed on as it is: the pipeline refuses it as a tool not offered.
  const tool = pincerToolName(lmName) ?? lmName;
  const ctx = deps.rt.context({
    channel: 'lm', agentId: 'default', provider: 'vscode-lm', sessionKey: LM_SESSION, signal,
    workspaceRoot: deps.workspaceRoot(), workspaceTrusted: deps.trusted(),
    offeredTools: new Set(offered), requestAllow: offered,
  });
  const result = await deps.rt.registry.execute(tool, input ?? {}, ctx);
  // VS Code does not tell a tool which turn calls it, so the one session would stay halted until the
  // window closes: the call that hit the critical loop is refused with the reason (the agent is told
  // to stop) and the next call starts a new run.
  if (result.halt) deps.rt.loops.reset(LM_SESSION);
  return result;
}
