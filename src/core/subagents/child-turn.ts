// One turn of a child: a full chat turn in the child's own session, at its depth, on channel
// `subagent`, within its limits, watched for activity. What ends it early (a cancel, the stall
// watchdog, the wall clock, the tree's budget) is decided by the manager, which aborts the turn's
// signal with its reason; the turn reports back what it said and what it cost.
import type { ChatTurnRequest } from '../agent/chat-service';
import type { TurnEvent, TurnResult } from '../agent/agent-types';
import type { TurnUsage } from '../agent/agent-usage';
import type { SubagentStatus } from './types';

/** Runs one chat turn (ChatService.turn): the child's loop is the same loop a person's chat uses. */
export type ChildTurnRunner = (req: ChatTurnRequest) => Promise<TurnResult>;

/** Why the manager stopped a child: the status it ends with and the words its parent reads. */
export interface StopReason {
  status: Extract<SubagentStatus, 'cancelled' | 'failed' | 'stalled' | 'interrupted'>;
  message: string;
}

export interface ChildTurnInput {
  sessionKey: string;
  agentId: string;
  text: string;
  depth: number;
  maxIterations: number;
  maxRetries: number;
  /** Tokens this turn may still spend (the child's and its tree's budget, whichever is less). */
  maxTokens?: number;
  signal: AbortSignal;
  /** Set before the signal aborts: why the manager stopped it. */
  stopReason: () => StopReason | undefined;
  /** Model output, a tool result, a new request: the stall watchdog's clock restarts. */
  onActivity: () => void;
  onEvent: (e: TurnEvent) => void;
}

export interface ChildTurnOutcome {
  status: Extract<SubagentStatus, 'done' | 'failed' | 'cancelled' | 'stalled' | 'interrupted'>;
  result: string;
  usage: TurnUsage;
}

/** What the child's system prompt adds: it works for another agent, and its last answer goes back. */
const CHILD_INSTRUCTIONS = 'You are a subagent: another agent started you for one task and reads only your final answer. '
  + 'Do the task with your tools, then answer with the result itself (what you found, changed or decided), briefly and completely. '
  + 'Nobody can answer questions while you work; if something blocks you, say what and stop.';

export async function runChildTurn(runner: ChildTurnRunner, input: ChildTurnInput): Promise<ChildTurnOutcome> {
  let usage: TurnUsage = { input: 0, output: 0, cached: 0 };
  let r: TurnResult;
  try {
    r = await runner({
      sessionKey: input.sessionKey, agentId: input.agentId, text: input.text, signal: input.signal, extra: CHILD_INSTRUCTIONS,
      toolContext: { channel: 'subagent', subagentDepth: input.depth },
      limits: { maxIterations: input.maxIterations, maxRetries: input.maxRetries, ...(input.maxTokens !== undefined ? { maxTurnTokens: input.maxTokens } : {}) },
      onEvent: (e) => {
        if (e.type === 'request' || e.type === 'text' || e.type === 'tool-end' || e.type === 'usage') input.onActivity();
        if (e.type === 'usage') usage = e.usage;
        input.onEvent(e);
      },
    });
  } catch (e) {
    // No model, no store, a session refused: the child never ran.
    const stop = input.stopReason();
    if (stop) return { ...stop, result: stop.message, usage };
    return { status: 'failed', result: `Could not start: ${e instanceof Error ? e.message : String(e)}`, usage };
  }
  const stop = input.stopReason();
  if (stop) return { status: stop.status, result: withPartial(stop.message, r.text), usage: r.usage };
  if (r.stopReason === 'end') return { status: 'done', result: r.text || '(the child ended without an answer)', usage: r.usage };
  if (r.stopReason === 'cancelled') return { status: 'cancelled', result: withPartial('Cancelled.', r.text), usage: r.usage };
  return { status: 'failed', result: withPartial(r.message ?? `Stopped (${r.stopReason}).`, r.text), usage: r.usage };
}

/** The reason, with what the child had said so far (so the parent can use a partial answer). */
function withPartial(message: string, text: string): string {
  return text ? `${message}\nIts last words before that: ${text}` : message;
}

/** Usage summed over a child's turns (no arguments: zero). */
export function addUsage(...parts: TurnUsage[]): TurnUsage {
  const sum: TurnUsage = { input: 0, output: 0, cached: 0 };
  for (const u of parts) {
    sum.input += u.input;
    sum.output += u.output;
    sum.cached += u.cached;
    if (u.costUsd !== undefined) sum.costUsd = (sum.costUsd ?? 0) + u.costUsd;
  }
  return sum;
}
