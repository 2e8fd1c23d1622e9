// One model request: stream the response (text forwarded as it arrives, tool calls collected), and
// retry it after a transient provider error with exponential backoff. Nothing here throws: every
// outcome — an answer, tool calls, a cut-off, a cancel, an error — comes back as a ModelResponse.
import { TurnCancelled, untilAborted } from './agent-abort';
import type { RetryTuning } from './agent-types';
import { mergeResponseUsage } from './agent-usage';
import { ModelError, type ModelEvent, type ModelProvider, type ModelRequest, type StopReason, type TokenUsage, type ToolCallPart } from './model-types';

export interface ModelResponse {
  text: string;
  calls: ToolCallPart[];
  usage?: TokenUsage;
  stop: StopReason;
  /** The provider's stop message, or the error's, for 'error'. */
  message?: string;
  /** Whether any text or tool call of this response reached the turn (and so the user). */
  emitted: boolean;
  /** What the provider threw, if it did. */
  thrown?: unknown;
}

export const DEFAULT_RETRY_TUNING: RetryTuning = Object.freeze({ baseMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 });

/** Streams one response. Returns on the provider's 'stop', at the end of the stream, on abort, or on a throw. */
export async function streamResponse(provider: ModelProvider, req: ModelRequest, onText: (text: string) => void): Promise<ModelResponse> {
  const r: ModelResponse = { text: '', calls: [], stop: 'end', emitted: false };
  let it: AsyncIterator<ModelEvent> | undefined;
  try {
    it = provider.stream(req)[Symbol.asyncIterator]();
    for (;;) {
      // Raced against the signal: a provider that does not notice the abort cannot hold the turn.
      const next = await untilAborted(it.next(), req.signal);
      if (next.done) break;
      const e = next.value;
      if (e.type === 'text') {
        if (!e.text) continue;
        r.text += e.text;
        r.emitted = true;
        onText(e.text);
      } else if (e.type === 'tool-call') {
        r.calls.push(e.call);
        r.emitted = true;
      } else if (e.type === 'usage') {
        r.usage = mergeResponseUsage(r.usage, e.usage);
      } else if (e.type === 'stop') {
        r.stop = e.reason;
        if (e.message) r.message = e.message;
        break;
      }
    }
  } catch (err) {
    if (err instanceof TurnCancelled || req.signal.aborted) {
      r.stop = 'cancelled';
    } else {
      r.stop = 'error';
      r.thrown = err;
      r.message = errorText(err);
    }
  } finally {
    // Let the provider close its connection; its own cleanup must not hold or fail the turn.
    if (it?.return) Promise.resolve().then(() => it?.return?.()).catch(() => undefined);
  }
  if (req.signal.aborted) r.stop = 'cancelled';
  return r;
}

export function errorText(err: unknown): string {
  if (err instanceof ModelError) return err.status ? `${err.message} (HTTP ${err.status})` : err.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * How long to wait before retry `attempt` (1-based): exponential from `baseMs`, with "equal jitter"
 * (half fixed, half random) so clients that failed together do not retry together, capped at
 * `maxDelayMs`, and never shorter than the provider's Retry-After. Undefined when the provider asks
 * for a longer wait than `maxRetryAfterMs`: better to end the turn and say so than hang for minutes.
 */
export function backoffDelay(attempt: number, err: ModelError, tuning: RetryTuning, random: () => number): number | undefined {
  const exp = Math.min(tuning.maxDelayMs, tuning.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(exp / 2 + (exp / 2) * Math.min(1, Math.max(0, random())));
  const after = err.retryAfterMs;
  if (after === undefined || !Number.isFinite(after) || after <= 0) return jittered;
  if (after > tuning.maxRetryAfterMs) return undefined;
  return Math.max(Math.ceil(after), jittered);
}

export interface RetryOptions {
  maxRetries: number;
  tuning: RetryTuning;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
  onText: (text: string) => void;
  /** Every attempt's usage, a failed attempt's too: its tokens were billed. */
  onUsage: (usage: TokenUsage) => void;
  onRetry: (attempt: number, delayMs: number, message: string) => void;
}

/** streamResponse, sent again after retryable errors (at most `maxRetries` times). */
export async function requestWithRetry(provider: ModelProvider, req: ModelRequest, opts: RetryOptions): Promise<ModelResponse> {
  for (let attempt = 0; ; attempt++) {
    const r = await streamResponse(provider, req, opts.onText);
    if (r.usage) opts.onUsage(r.usage);
    if (r.stop !== 'error' || r.thrown === undefined) return r;
    const err = r.thrown;
    if (!(err instanceof ModelError) || !err.retryable) return r;
    // Once text or a tool call of this response has reached the user, a retry would stream a second,
    // different reply after the first one's beginning (or duplicate tool calls): what was shown could
    // not be taken back. End the turn with the partial reply kept, and let the user ask again.
    if (r.emitted) return { ...r, message: `${r.message} — the reply broke off after it had started, so it was not retried.` };
    if (attempt >= opts.maxRetries) {
      return { ...r, message: attempt === 0 ? r.message : `${r.message} — still failing after ${attempt} ${attempt === 1 ? 'retry' : 'retries'}.` };
    }
    const delay = backoffDelay(attempt + 1, err, opts.tuning, opts.random);
    if (delay === undefined) {
      return { ...r, message: `${r.message} — the provider asks to wait ${Math.ceil((err.retryAfterMs ?? 0) / 1000)} s before trying again.` };
    }
    opts.onRetry(attempt + 1, delay, r.message ?? 'provider error');
    try {
      await untilAborted(opts.sleep(delay, req.signal), req.signal);
    } catch {
      return { text: '', calls: [], stop: 'cancelled', emitted: false };
    }
    if (req.signal.aborted) return { text: '', calls: [], stop: 'cancelled', emitted: false };
  }
}
