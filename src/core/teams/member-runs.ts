// Members run as subagents of the lead's session (same limits, budgets, cancel and tree view as any
// child): this is the port the team service uses to start, watch and stop those runs, over the
// window's subagent manager.
import type { SubagentManager } from '../subagents/subagent-manager';

export interface MemberRun {
  runId: string;
  /** The run's own session: tool calls from it are the member's. */
  sessionKey: string;
}

export interface RunEnded {
  runId: string;
  status: string;
  result?: string;
}

export interface MemberRuns {
  /** Starts `agent` as a background child of the lead's session with `text` as its task. */
  start(req: { leadSessionKey: string; leadAgent: string; agent: string; text: string; label: string }): Promise<MemberRun>;
  /** Ids of the runs whose loop is still live (queued or running). */
  live(): ReadonlySet<string>;
  /** Stops the run; does not wait for it to settle (a run may stop itself from inside a tool call). */
  cancel(runId: string, why: string): void;
  onEnded(listener: (e: RunEnded) => void): { dispose(): void };
}

const LIVE = new Set(['queued', 'running']);

export function subagentMemberRuns(manager: SubagentManager): MemberRuns {
  return {
    async start(req) {
      const r = await manager.spawn({
        parentSessionKey: req.leadSessionKey, callerAgentId: req.leadAgent, callerDepth: 0, task: req.text, label: req.label, agent: req.agent, mode: 'spawn',
      });
      return { runId: r.id, sessionKey: r.sessionKey };
    },
    live: () => new Set(manager.list({ includeArchived: true }).filter((r) => LIVE.has(r.status)).map((r) => r.id)),
    cancel: (runId, why) => void manager.cancel(runId, why),
    onEnded: (listener) => manager.onEvent((e) => {
      if (e.type === 'finished') listener({ runId: e.record.id, status: e.record.status, ...(e.record.result !== undefined ? { result: e.record.result } : {}) });
    }),
  };
}
