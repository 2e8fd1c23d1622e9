// The abort of one MCP call, in the shape the SDK reads. The SDK's Protocol.request checks
// `aborted` and `throwIfAborted()` when it sends, adds one 'abort' listener (which it never removes:
// each call needs a signal of its own) and reads `reason` when it fires; then it sends the server
// `notifications/cancelled`. Node takes several microseconds to make a real AbortSignal, more than
// the rest of the pipeline takes, so under the pipeline a call hands the SDK the call's own CallAbort,
// which has just those members and is aborted by the pipeline (timeout or Stop). A context made
// outside the pipeline with an onAbort of its own gets a CallAbort aborted through it; one without,
// its own signal as it is.
import { abortOf, CallAbort } from '../tools/call-context';
import type { ToolContext } from '../tools/types';

/** The signal to hand the SDK for this call: aborted exactly when the call is. */
export function sdkSignal(ctx: ToolContext): AbortSignal {
  // Only the SDK's request reads it, and only the members above (bridge.test.ts proves the cancel).
  const own = abortOf(ctx);
  if (own) return own as unknown as AbortSignal;
  if (!ctx.onAbort) return ctx.signal;
  const call = new CallAbort();
  ctx.onAbort((reason) => call.abort(reason));
  return call as unknown as AbortSignal;
}
