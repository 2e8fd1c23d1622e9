// The agent loop's own shapes: what a turn needs (deps, input, limits), what it reports while it runs
// (events for the chat view) and what it returns. Everything a turn returns is plain JSON (no class
// instances, no functions), so sessions can store it as it is and replay it to any provider.
import type { Clock } from '../clock';
import type { PincerRuntime } from '../runtime';
import type { ToolContext, ToolOutcome } from '../tools/types';
import type { ModelMessage, ModelProvider, ModelTool } from './model-types';
import type { Pricing, TurnUsage } from './agent-usage';

/** The part of the runtime a turn uses: the one execute pipeline and its context defaults. */
export type AgentRuntime = Pick<PincerRuntime, 'registry' | 'context'>;

export interface AgentLoopDeps {
  provider: ModelProvider;
  runtime: AgentRuntime;
  /** Provider-scoped model id for every request of the turn. */
  model: string;
  /**
   * The model's context window in tokens, when known: a turn stops (reason 'budget') rather than
   * send a request whose prompt alone would no longer fit.
   */
  contextTokens?: number;
  /** Durations of tool calls; Date.now by default. */
  clock?: Clock;
  /** Retry backoff waits here; tests inject an instant one. Must resolve or reject on abort. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1); Math.random by default. */
  random?: () => number;
  /** Cost of the turn in USD from its token counts; without it the cost is unknown. */
  pricing?: Pricing;
  /** Backoff tuning (defaults: base 1 s, cap 30 s, longest Retry-After honoured 60 s). */
  retry?: Partial<RetryTuning>;
}

export interface RetryTuning {
  baseMs: number;
  maxDelayMs: number;
  /** A provider asking for a longer wait than this is not retried: the turn ends with its message. */
  maxRetryAfterMs: number;
}

export interface TurnLimits {
  /** Model requests per turn (20). */
  maxIterations: number;
  /** Tokens (input + output, summed over the turn's requests) the turn may spend; none by default. */
  maxTurnTokens?: number;
  /** Retries of one request after a retryable provider error (3). */
  maxRetries: number;
  /** Output cap passed to the provider with every request. */
  maxOutputTokens?: number;
}

export const DEFAULT_TURN_LIMITS: TurnLimits = Object.freeze({ maxIterations: 20, maxRetries: 3 });

/** Context fields the host decides (trust, ownership, workspace); the loop sets the rest itself. */
export type TurnToolContext = Partial<Omit<ToolContext, 'sessionKey' | 'agentId' | 'turnId' | 'signal' | 'offeredTools' | 'provider' | 'imageInput'>>;

export interface TurnInput {
  sessionKey: string;
  agentId: string;
  turnId: string;
  /** Earlier turns, oldest first (no system message: `system` is sent with every request). */
  history: readonly ModelMessage[];
  /** This turn's user message: plain text, or a message with several parts (context chips). */
  user: string | ModelMessage;
  /** The system prompt (buildSystemPrompt): identical across requests, so provider caches hit. */
  system: string;
  /** The tools offered for this turn (Registry.definitions for this caller; see turnTools). */
  tools: readonly ModelTool[];
  signal: AbortSignal;
  limits?: Partial<TurnLimits>;
  temperature?: number;
  /** Host-decided context fields; channel 'chat', owner and trusted by default (PincerRuntime.context). */
  toolContext?: TurnToolContext;
  /** Progress for the UI; a listener that throws is ignored. */
  onEvent?: (e: TurnEvent) => void;
  /**
   * Messages that arrived for this session while the turn ran (background subagents' results):
   * asked before every model request, and whatever it returns is added to the turn there.
   */
  inbox?: () => readonly ModelMessage[];
}

export type TurnStopReason =
  | 'end' // a final answer
  | 'max-iterations'
  | 'loop' // the loop detector's critical level halted the run
  | 'cancelled'
  | 'budget' // the turn's token budget or the model's context window
  | 'error' // a provider error that is not retryable, or still failing after the retries
  | 'length' // the answer was cut off at the output limit
  | 'content-filter';

export interface TurnResult {
  /** The messages this turn added after the user message: assistant replies and tool results, in order. */
  messages: ModelMessage[];
  usage: TurnUsage;
  /** Model requests made (a retried request counts once). */
  iterations: number;
  stopReason: TurnStopReason;
  /** The final answer: the text of the last assistant reply ('' when it had none). */
  text: string;
  /** Why the turn stopped, for a person; absent for 'end'. For 'error', the provider's message. */
  message?: string;
}

export type TurnEvent =
  /** A model request starts (iteration counts from 1). */
  | { type: 'request'; iteration: number }
  /** A streamed piece of the reply's text. */
  | { type: 'text'; iteration: number; text: string }
  /** A retryable provider error; the request is sent again after `delayMs`. */
  | { type: 'retry'; iteration: number; attempt: number; delayMs: number; message: string }
  /** A tool call starts. `args` is the call's JSON, scrubbed and shortened for display. */
  | { type: 'tool-start'; iteration: number; id: string; name: string; args: string }
  /** A running tool call reported progress (an MCP server's notifications): `progress` of `total`, with its message. */
  | { type: 'tool-progress'; iteration: number; id: string; name: string; args: string; progress: number; total?: number; message?: string }
  /** A tool call ended; `preview` is the start of what a person sees (scrubbed by the pipeline). */
  | { type: 'tool-end'; iteration: number; id: string; name: string; args: string; durationMs: number; isError: boolean; outcome: ToolOutcome; preview: string }
  /** A message was added to the turn (assistant reply or tool result): sessions may store it now. */
  | { type: 'message'; message: ModelMessage }
  /** Token usage of the turn so far, after each response. */
  | { type: 'usage'; usage: TurnUsage };
