// Provider failures as ModelErrors the agent loop can act on: retryable or not, with the wait the
// server asked for, and a message that says what to do — never containing the API key (servers echo
// a presented key back: "Incorrect API key provided: sk-…"). Both official SDKs share the error class
// layout (APIError with status/headers/type, APIConnectionError, APIConnectionTimeoutError), so one
// classifier serves both; each provider passes its SDK's classes.
import { ModelError } from '../model-types';
import { clip, redactKey, rootCause } from '../../guard/error-text';

type ErrorClass = abstract new (...args: never[]) => Error;

export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

export interface FailureContext {
  /** Who answered, for messages: 'OpenAI-compatible endpoint http://127.0.0.1:8080/v1'. */
  where: string;
  apiKey?: string;
}

/** Error types a provider sends inside a stream for a transient condition. */
const TRANSIENT_STREAM_TYPES = /overloaded|rate_limit|server_error|api_error|timeout|unavailable/i;
/** Error types that mean the request itself is wrong (retrying cannot help). */
const PERMANENT_STREAM_TYPES = /invalid_request|authentication|permission|not_found|request_too_large|billing/i;

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The server's requested wait: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Any error out of an SDK call or its stream as a ModelError (the caller handles aborts first). */
export function toModelError(err: unknown, ctx: FailureContext, classes: SdkErrorClasses): ModelError {
  if (err instanceof ModelError) return err;
  const make = (what: string, retryable: boolean, status?: number, wait?: number): ModelError =>
    new ModelError(redactKey(`${ctx.where}: ${what}`, ctx.apiKey), retryable, status, wait);
  if (err instanceof classes.APIConnectionTimeoutError) {
    return make('no answer within the time limit. Is the server overloaded, or the model still loading?', true);
  }
  if (err instanceof classes.APIConnectionError) {
    return make(`cannot connect (${rootCause(err)}). Is the server running at that address?`, true);
  }
  if (err instanceof classes.APIError) {
    const e = err as Error & { status?: number; headers?: Headers; type?: string | null; apiMessage?: string | null };
    const said = clip((e.apiMessage ?? e.message.replace(/^\d{3}\s*/, '')).replace(/\.$/, ''));
    if (typeof e.status !== 'number') {
      // An error event inside a stream that had started: the status was 200.
      const type = e.type ?? '';
      const retryable = TRANSIENT_STREAM_TYPES.test(type) || !PERMANENT_STREAM_TYPES.test(type);
      return make(`the response stream failed${type ? ` (${type})` : ''}: ${said}.`, retryable);
    }
    return make(httpAdvice(e.status, said, ctx.apiKey !== undefined), isRetryableStatus(e.status), e.status, retryAfterMs(e.headers));
  }
  // Outside the SDK's classes: undici's "terminated" when the connection drops mid-body, or a
  // malformed server-sent event. Both are the server's hiccup, so worth another try.
  const cause = err instanceof Error ? rootCause(err) : String(err);
  return make(`the connection broke off mid-response (${clip(cause)}).`, true);
}

function httpAdvice(status: number, said: string, hasKey: boolean): string {
  if (status === 401 || status === 403) {
    return hasKey
      ? `the API key was refused (HTTP ${status}: ${said}). Check the key configured for this provider.`
      : `the server requires an API key (HTTP ${status}: ${said}). Configure one for this provider.`;
  }
  if (status === 404) return `not found (HTTP 404: ${said}). Check the base URL (often ending in /v1) and the model name.`;
  if (status === 429) return `rate-limited (HTTP 429): ${said}.`;
  if (status >= 500) return `server error (HTTP ${status}): ${said}.`;
  if (status === 408 || status === 409) return `the request did not complete (HTTP ${status}): ${said}.`;
  return `request rejected (HTTP ${status}: ${said}).`;
}
