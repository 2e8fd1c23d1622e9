// The abort of one MCP call, in the shape the SDK reads. The SDK's Protocol.request checks
// `aborted` and `throwIfAborted()` when it sends, adds one 'abort' listener (which it never removes:
// each call needs a signal of its own) and reads `reason` when it fires; then it sends the server
// `notifications/cancelled`. Node takes several microseconds to make a real AbortSignal, more than
// the rest of the pipeline takes, and even an EventTarget of our own costs its construction and
// Node's listener bookkeeping on every call; so under the pipeline a call hands the SDK this plain
// object with just those members, aborted by the pipeline's onAbort (timeout or Stop). A context
// made outside the pipeline has no onAbort: its own signal is passed as it is.
import type { ToolContext } from '../tools/types';

type AbortListener = (event: Event) => void;

class CallAbortSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: AbortListener | null = null;
  private listeners: AbortListener[] | undefined = undefined;

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(type: string, listener: AbortListener): void {
    if (type !== 'abort') return;
    if (this.aborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(type: string, listener: AbortListener): void {
    const i = type === 'abort' && this.listeners ? this.listeners.indexOf(listener) : -1;
    if (i >= 0) this.listeners!.splice(i, 1);
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    // The event is made only here: a call that is not aborted never pays for one.
    const event = new Event('abort');
    this.onabort?.(event);
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    for (const l of listeners) l(event);
  }
}

/** The signal to hand the SDK for this call: aborted exactly when the call is. */
export function sdkSignal(ctx: ToolContext): AbortSignal {
  if (!ctx.onAbort) return ctx.signal;
  const signal = new CallAbortSignal();
  ctx.onAbort((reason) => signal.abort(reason));
  // Only the SDK's request reads it, and only the members above (bridge.test.ts proves the cancel).
  return signal as unknown as AbortSignal;
}
