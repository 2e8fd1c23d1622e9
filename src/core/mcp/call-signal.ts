// The abort of one MCP call, in the shape the SDK reads. The SDK's Protocol.request checks
// `aborted` and `throwIfAborted()` when it sends, adds one 'abort' listener (which it never removes:
// each call needs a signal of its own) and reads `reason` when it fires; then it sends the server
// `notifications/cancelled`. Node takes several microseconds to make a real AbortSignal, more than
// the rest of the pipeline takes, so under the pipeline a call hands the SDK this EventTarget,
// aborted by the pipeline's onAbort (timeout or Stop). A context made outside the pipeline has no
// onAbort: its own signal is passed as it is.
import type { ToolContext } from '../tools/types';

class CallAbortSignal extends EventTarget {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: Event) => void) | null = null;

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const event = new Event('abort');
    this.onabort?.(event);
    this.dispatchEvent(event);
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
