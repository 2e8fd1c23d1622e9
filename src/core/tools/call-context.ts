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
  // Made at the first listener: most calls end without one being added (a tool that reads `signal`).
  private listeners: ((reason: unknown) => void)[] | undefined = undefined;
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
    else (this.listeners ??= []).push(listener);
  };

  /** Aborts the call (only the first reason counts); answers whether this was the first abort. */
  abort(reason: unknown): boolean {
    if (this.abortedBy) return false;
    this.abortedBy = { reason };
    this.controller?.abort(reason);
    const listeners = this.listeners ?? [];
    this.listeners = undefined;
    for (const listener of listeners) {
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
// The listener stays for the signal's life; its calls are a list linked through their entries, in
// the order they started (a Set's add and delete per call leave its table to be rebuilt every few calls).
interface CallersCalls {
  first?: CallerEntry;
  last?: CallerEntry;
}

/** One call heard on its caller's abort, until `forget` (the call's end). */
export class CallerEntry {
  prev: CallerEntry | undefined;
  next: CallerEntry | undefined = undefined;
  private linked = true;

  constructor(private readonly calls: CallersCalls, readonly listener: (reason: unknown) => void) {
    this.prev = calls.last;
    if (calls.last) calls.last.next = this;
    else calls.first = this;
    calls.last = this;
  }

  forget(): void {
    if (!this.linked) return;
    this.linked = false;
    if (this.prev) this.prev.next = this.next;
    else this.calls.first = this.next;
    if (this.next) this.next.prev = this.prev;
    else this.calls.last = this.prev;
    this.prev = this.next = undefined;
  }
}

const callersCalls = new WeakMap<AbortSignal, CallersCalls>();

/** Runs `listener` when `signal` aborts, until the returned entry is forgotten (the call's end). */
export function onCallerAbort(signal: AbortSignal, listener: (reason: unknown) => void): CallerEntry {
  let calls = callersCalls.get(signal);
  if (!calls) {
    const list: CallersCalls = (calls = {});
    callersCalls.set(signal, list);
    signal.addEventListener('abort', () => {
      const listeners: ((reason: unknown) => void)[] = [];
      for (let e = list.first; e; e = e.next) listeners.push(e.listener);
      for (const l of listeners) l(signal.reason);
    });
  }
  return new CallerEntry(calls, listener);
}

const ABORT = Symbol('call abort');

// One getter for every call context (a getter made per call would cost as much as the signal).
function signalOfCall(this: { [ABORT]: CallAbort }): AbortSignal {
  return this[ABORT].signal;
}

/** Object.prototype's legacy __defineGetter__, which every JavaScript engine of the editor's kind has. */
interface DefinesGetters {
  __defineGetter__(key: string, getter: () => unknown): void;
}

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
  // An own enumerable, configurable accessor, as Object.defineProperty would make it with those
  // attributes; __defineGetter__ takes the getter without a descriptor object to read, which is
  // about a third of defineProperty's cost here (a fraction of a microsecond on every call).
  (out as unknown as DefinesGetters).__defineGetter__('signal', signalOfCall);
  return out as unknown as ToolContext;
}
