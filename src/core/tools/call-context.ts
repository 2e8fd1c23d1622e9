// A call's context: its caller's, with the call's own deadline and abort. The call's AbortSignal is
// made the first time something reads `signal`: Node takes several microseconds to make one, more
// than the rest of the pipeline takes per call, and a tool that only needs to hear of the abort (the
// MCP bridge) listens through `onAbort` instead. The context is one object literal of ToolContext's
// fields, read from the caller's, rather than a spread (one that adds a field its source lacks, or an
// accessor, leaves V8's fast path) or a key-by-key copy of the caller's keys (each store a lookup of
// its own, and the accessor then defined on an object of a shape made per caller: in a loop of MCP
// calls, where this code is cold after each wait for the server, ~0.7 us more per call).
import type { ToolContext } from './types';

/**
 * One call's abort: the timeout or the caller's Stop, heard by the signal (once made) and by every
 * listener. It also has the members of an AbortSignal that the MCP SDK's request() reads (aborted,
 * reason, throwIfAborted, addEventListener, onabort), so an MCP call hands the SDK this object itself
 * (call-signal.ts) rather than a real signal (several microseconds to make) or an adapter of its own.
 */
export class CallAbort {
  private controller?: AbortController;
  // Made at the first listener: most calls end without one being added (a tool that reads `signal`).
  private listeners: ((reason: unknown) => void)[] | undefined = undefined;
  private events: ((event: Event) => void)[] | undefined = undefined;
  private abortedBy?: { reason: unknown };
  /** As on an AbortSignal: run first at the abort, with the abort event. */
  onabort: ((event: Event) => void) | null = null;

  get aborted(): boolean {
    return this.abortedBy !== undefined;
  }

  /** As on an AbortSignal: the abort's reason, undefined before it. */
  get reason(): unknown {
    return this.abortedBy?.reason;
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

  /** As on an AbortSignal: throws the reason once aborted. */
  throwIfAborted(): void {
    if (this.abortedBy) throw this.abortedBy.reason;
  }

  /** As on an AbortSignal: 'abort' listeners, run with the event; one added after the abort is never run. */
  addEventListener(type: string, listener: (event: Event) => void): void {
    if (type === 'abort' && !this.abortedBy) (this.events ??= []).push(listener);
  }

  removeEventListener(type: string, listener: (event: Event) => void): void {
    const i = type === 'abort' && this.events ? this.events.indexOf(listener) : -1;
    if (i >= 0) this.events!.splice(i, 1);
  }

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
    // The event is made only here: a call that is not aborted never pays for one.
    if (this.onabort || this.events) {
      const event = new Event('abort');
      const events = this.onabort ? [this.onabort, ...(this.events ?? [])] : this.events!;
      this.events = undefined;
      for (const l of events) {
        try {
          l(event);
        } catch {
          // As above.
        }
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

/** The abort of the call `ctx` was made for by callContext (a spread of it included); undefined for any other context. */
export function abortOf(ctx: ToolContext): CallAbort | undefined {
  return (ctx as unknown as { [ABORT]?: CallAbort })[ABORT];
}

/** Every field of ToolContext but `signal`, each present (undefined where the caller's is absent). */
type ContextFields = { -readonly [K in Exclude<keyof ToolContext, 'signal'>]-?: ToolContext[K] | undefined };

/**
 * The context a tool gets for one call: the caller's ToolContext fields (the compiler checks that the
 * literal names every one), the call's deadline and abort. A field the caller left out is present as
 * undefined; a key outside ToolContext is not carried (no tool can read one without a cast). `signal`
 * is an own enumerable field (a spread of this context, as a tool calling another does, copies the
 * signal itself), read from `abort`.
 */
export function callContext(ctx: ToolContext, deadline: number, abort: CallAbort): ToolContext {
  const fields: ContextFields = {
    sessionKey: ctx.sessionKey, turnId: ctx.turnId, agentId: ctx.agentId, channel: ctx.channel, subagentDepth: ctx.subagentDepth,
    isOwner: ctx.isOwner, provider: ctx.provider, workspaceRoot: ctx.workspaceRoot, onAbort: abort.listen, deadline,
    offeredTools: ctx.offeredTools, requestAllow: ctx.requestAllow, profileOverride: ctx.profileOverride,
    workspaceTrusted: ctx.workspaceTrusted, onProgress: ctx.onProgress, imageInput: ctx.imageInput,
  };
  const out = fields as ContextFields & { [ABORT]: CallAbort };
  out[ABORT] = abort;
  // An own enumerable, configurable accessor, as Object.defineProperty would make it with those
  // attributes; __defineGetter__ takes the getter without a descriptor object to read, which is
  // about a third of defineProperty's cost here (a fraction of a microsecond on every call).
  (out as unknown as DefinesGetters).__defineGetter__('signal', signalOfCall);
  return out as unknown as ToolContext;
}
