// Token and cost accounting: per response (as the provider reports it), per turn (summed over its
// requests) and per session (summed over its turns). Plain objects, so sessions store them as JSON.
//
// Convention: `input` counts every prompt token, cached ones included (OpenAI's prompt_tokens);
// `cached` is the part of `input` served from the provider's cache. A provider whose API reports
// cache reads separately (Anthropic) adds them into inputTokens before reporting.
import type { TokenUsage } from './model-types';

export interface TurnUsage {
  input: number;
  output: number;
  cached: number;
  /** USD, when pricing is known. */
  costUsd?: number;
}

/** Prices in USD per million tokens; cached input at the input price when no cache price is given. */
export interface Pricing {
  inputPerMTok: number;
  outputPerMTok: number;
  cachedPerMTok?: number;
}

export interface SessionUsage {
  turns: number;
  input: number;
  output: number;
  cached: number;
  /** USD; undefined as soon as one turn's cost is unknown (a sum with a hole in it would mislead). */
  costUsd?: number;
}

export const EMPTY_SESSION_USAGE: SessionUsage = Object.freeze({ turns: 0, input: 0, output: 0, cached: 0, costUsd: 0 });

/** A count a provider reported, or 0 for a missing, negative or non-finite one. */
function count(n: number | undefined): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

/**
 * One response's usage from its usage events. Providers report either once at the end or
 * cumulatively while streaming, and some split input and output across two events (Anthropic's
 * message_start and message_delta): the field-wise maximum is right for all of these.
 */
export function mergeResponseUsage(prev: TokenUsage | undefined, next: TokenUsage): TokenUsage {
  return {
    inputTokens: Math.max(count(prev?.inputTokens), count(next.inputTokens)),
    outputTokens: Math.max(count(prev?.outputTokens), count(next.outputTokens)),
    cachedInputTokens: Math.max(count(prev?.cachedInputTokens), count(next.cachedInputTokens)),
  };
}

export function emptyTurnUsage(): TurnUsage {
  return { input: 0, output: 0, cached: 0 };
}

/** Adds one response's usage to the turn's (in place: the loop owns the object). */
export function addResponseUsage(turn: TurnUsage, usage: TokenUsage | undefined): void {
  if (!usage) return;
  turn.input += count(usage.inputTokens);
  turn.output += count(usage.outputTokens);
  turn.cached += count(usage.cachedInputTokens);
}

export function costOf(usage: Pick<TurnUsage, 'input' | 'output' | 'cached'>, pricing: Pricing | undefined): number | undefined {
  if (!pricing) return undefined;
  const { inputPerMTok, outputPerMTok } = pricing;
  const cachedPrice = pricing.cachedPerMTok ?? inputPerMTok;
  if (![inputPerMTok, outputPerMTok, cachedPrice].every((p) => Number.isFinite(p) && p >= 0)) return undefined;
  const cached = Math.min(usage.cached, usage.input);
  return ((usage.input - cached) * inputPerMTok + cached * cachedPrice + usage.output * outputPerMTok) / 1e6;
}

/** The session's usage with one more turn; a new object (stored snapshots stay as they were). */
export function addTurnUsage(session: SessionUsage, turn: TurnUsage): SessionUsage {
  const costUsd = session.costUsd === undefined || turn.costUsd === undefined ? undefined : session.costUsd + turn.costUsd;
  const next: SessionUsage = {
    turns: session.turns + 1,
    input: session.input + turn.input,
    output: session.output + turn.output,
    cached: session.cached + turn.cached,
  };
  if (costUsd !== undefined) next.costUsd = costUsd;
  return next;
}
