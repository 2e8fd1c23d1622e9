// A call's context: its caller's, with the call's own deadline and abort. The call's AbortSignal is
// made the first time something reads `signal`: Node takes several microseconds to make one, more
// than the rest of the pipeline takes per call, and a tool that only needs to hear of the abort (the
// MCP bridge) listens through `onAbort` instead. The context is built by copying the caller's fields
// rather than by an object spread: a spread that adds a field its source lacks (`onAbort`) or an
// accessor (`signal`) leaves V8's fast path and costs microseconds per call as well.
import type { ToolContext } from './types';

/** One call's abort: the timeout or the caller's Stop, heard by the signal (once made) and by every listener. */
export class CallAbort {
  private controller?: AbortController;
  private listeners: ((reason: unknown) => void)[] = [];
  private abortedBy?: { reason: unknown };

  get aborted(): boolean {
    return this.abortedBy !== undefined;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedBy) this.controller.abort(this.abortedBy.reason);
    }
    return this.controller.signal;
  }

  /** Runs `listener` on the abort, or at once when the call is already aborted. */
  readonly listen = (listener: (reason: unknown) => void): void => {
    if (this.abortedBy) listener(this.abortedBy.reason);
    else this.listeners.push(listener);
  };

  /** Aborts the call (only the first reason counts); answers whether this was the first abort. */
  abort(reason: unknown): boolean {
    if (this.abortedBy) return false;
    this.abortedBy = { reason };
    this.controller?.abort(reason);
    for (const listener of this.listeners.splice(0)) {
      try {
        listener(reason);
      } catch {
        // One listener's failure must not keep the call from ending.
      }
    }
    return true;
  }
}

// The calls running under one caller's signal, heard through one listener per signal: adding and
// removing a listener on an AbortSignal for every call costs Node's listener bookkeeping each time.
// The listener stays for the signal's life; the set empties as its calls end.
const callersCalls = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();

/** Runs `listener` when `signal` aborts, until the returned function is called (the call's end). */
export function onCallerAbort(signal: AbortSignal, listener: (reason: unknown) => void): () => void {
  let calls = callersCalls.get(signal);
  if (!calls) {
    const set = (calls = new Set());
    callersCalls.set(signal, set);
    signal.addEventListener('abort', () => {
      for (const l of [...set]) l(signal.reason);
    });
  }
  calls.add(listener);
  const set = calls;
  return () => {
    set.delete(listener);
  };
}

const ABORT = Symbol('call abort');
// One getter for every call context (a getter made per call would cost as much as the signal).
const SIGNAL: PropertyDescriptor = {
  get(this: { [ABORT]: CallAbort }) {
    return this[ABORT].signal;
  },
  enumerable: true,
};

/**
 * The context a tool gets for one call. `signal` is an own enumerable field (a spread of this
 * context, as a tool calling another does, copies the signal itself), read from `abort`.
 */
export function callContext(ctx: ToolContext, deadline: number, abort: CallAbort): ToolContext {
  const out: Record<string | symbol, unknown> = {};
  for (const key in ctx) if (key !== 'signal' && key !== 'onAbort') out[key] = (ctx as unknown as Record<string, unknown>)[key];
  out.deadline = deadline;
  out.onAbort = abort.listen;
  out[ABORT] = abort;
  Object.defineProperty(out, 'signal', SIGNAL);
  return out as unknown as ToolContext;
}
