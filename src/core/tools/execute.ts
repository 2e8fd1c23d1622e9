// The execute pipeline, in order:
//   resolve (real tools before aliases) → offered? → policy at call time → halted run? → rate limit →
//   arguments (JSON, empty-arguments guard, zod) → session lock → run with signal + deadline (a thrown
//   exception becomes an error result) → scrub ForLLM and ForUser → cap → untrusted markers (when the
//   result is external text) → loop check → timing → log.
// Scrubbing comes before capping: a cap that cut a secret in half would leave a fragment no pattern
// recognises. Refusals and invalid calls are fed to the loop detector too: a model that keeps
// calling a denied tool is looping.
import { stableJson } from '../guard/stable-json';
import { parseArguments } from './arguments';
import { CallAbort, callContext, onCallerAbort, type CallerEntry } from './call-context';
import { callAfter, cancelCallTimer, type CallTimer } from './call-timers';
import type { CallEnd, Outcome } from './call-record';
import type { Registry } from './registry';
import { knownErrorResult } from './known-errors';
import { capText } from './result-cap';
import { untrustedText } from './untrusted-content';
import { fail, type CallOptions, type Tool, type ToolContext, type ToolOutcome, type ToolResult } from './types';

/** The result's outcome for each way the pipeline saw a call end. */
const RESULT_OUTCOME: Readonly<Record<Outcome, ToolOutcome>> = {
  ok: 'ok', error: 'error', refused: 'denied', denied: 'denied', 'rejected-by-user': 'rejected-by-user', 'rate-limited': 'error',
  invalid: 'error', cancelled: 'cancelled', timeout: 'timed-out', loop: 'error', 'unknown-tool': 'error',
};

/** The pipeline's record of a result a tool returned. */
const CALL_OUTCOME: Readonly<Record<ToolOutcome, Outcome>> = {
  ok: 'ok', error: 'error', denied: 'denied', 'rejected-by-user': 'rejected-by-user', cancelled: 'cancelled', 'timed-out': 'timeout',
};

let seq = 0;

// The allowed list of the last decision as a set: the policy engine hands back the same decision (and
// list) while nothing changed, and a search of the list compares names one by one on every call.
let allowedList: readonly string[] | undefined;
let allowedSet: ReadonlySet<string> = new Set();

function allows(allowed: readonly string[], name: string): boolean {
  if (allowed !== allowedList) {
    allowedSet = new Set(allowed);
    allowedList = allowed;
  }
  return allowedSet.has(name);
}

/** The start of a result as one line, for logs and lists. */
function oneLine(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

class CallTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`);
  }
}

function summarizeArgs(args: unknown): string {
  let s: string;
  try {
    s = typeof args === 'string' ? args : stableJson(args ?? {});
  } catch {
    s = String(args);
  }
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

/**
 * Never throws: whatever goes wrong before or after the tool runs is a rejected promise, as from an
 * async function. Not an async function itself: a call that runs resolves with its finished result
 * in the step that hears the tool's answer (runWithLimits), without the two steps of awaiting it here.
 */
export function executeCall(reg: Registry, name: string, rawArgs: unknown, ctx: ToolContext, opts: CallOptions = {}): Promise<ToolResult> {
  try {
    const r = pipeline(reg, name, rawArgs, ctx, opts);
    return r instanceof Promise ? r : Promise.resolve(r);
  } catch (e) {
    return Promise.reject(e);
  }
}

function pipeline(reg: Registry, name: string, rawArgs: unknown, ctx: ToolContext, opts: CallOptions): ToolResult | Promise<ToolResult> {
  const { scrubber, rateLimiter, loops, policy } = reg.deps;
  // The call's id (`c<n>`) is made only for the events that carry it.
  const n = ++seq;
  const startedAt = reg.clock.now();
  const t0 = performance.now();
  // A registered name first (every call but an alias's): resolve() makes an object per call.
  const tool = reg.get(name) ?? reg.resolve(name)?.tool;
  const toolName = tool?.name ?? name;
  // Loops are judged per run: an agent's turn, or one call a person started (see ToolContext.turnId).
  const run = ctx.turnId ?? ctx.sessionKey;

  const finish = (result: ToolResult, outcome: Outcome, extra: Partial<CallEnd> = {}): ToolResult => {
    const scrubbedLLM = scrubber.scrub(result.forLLM);
    const scrubbedUser = result.forUser === undefined ? undefined : scrubber.scrub(result.forUser);
    // Most results fit: capText's answer (an object) is made only for one that does not.
    const capped = scrubbedLLM.length <= reg.limits.maxResultChars ? undefined : capText(scrubbedLLM, reg.limits.maxResultChars, 'pincer.tools.maxResultChars');
    const text = capped ? capped.text : scrubbedLLM;
    // Copied with Object.assign, not a spread: fields added to a spread's copy (outcome below) take
    // V8 off its fast path, microseconds on every call.
    const out: ToolResult = Object.assign({}, result);
    out.forLLM = result.untrusted ? untrustedText(result.untrusted, text) : text;
    // Wrapped once: a result handed on through another call is not wrapped again.
    if (result.untrusted) out.untrusted = undefined;
    // Pixels cannot be scrubbed; where an image came from (a URL with a token in it) can.
    if (result.images) out.images = result.images.map((image) => ({ ...image, source: scrubber.scrub(image.source) }));
    if (scrubbedUser !== undefined) out.forUser = capText(scrubbedUser, reg.limits.maxUserChars, 'pincer.tools.maxResultChars').text;
    if (capped?.truncated) out.details = { ...out.details, truncatedChars: capped.omitted };

    let loopWarning: string | undefined;
    // With detection off the record is not built (LoopDetector.record would answer ok unread).
    if (outcome !== 'loop' && loops.enabled) {
      const verdict = loops.record(run, { tool: toolName, args: rawArgs, capability: tool?.capability ?? 'external', poll: tool?.poll }, scrubbedLLM, result.isError);
      if (verdict.level === 'warning') {
        loopWarning = verdict.message;
        out.forLLM += `\n\n[Pincer loop warning] ${verdict.message}`;
      } else if (verdict.level === 'critical') {
        loopWarning = verdict.message;
        out.forLLM += `\n\n[Pincer stopped this run] ${verdict.message}`;
        out.isError = true;
        out.halt = { reason: verdict.message };
        outcome = 'loop';
      }
    }
    // A result that failed says how; one that did not is ok (a halt above made it an error).
    out.outcome = !out.isError ? 'ok' : RESULT_OUTCOME[outcome] === 'ok' ? 'error' : RESULT_OUTCOME[outcome];
    const durationMs = performance.now() - t0;
    if (tool && !tool.interactive && (outcome === 'ok' || outcome === 'error' || outcome === 'denied')) reg.timing.record(tool.name, durationMs);
    // The record's arguments are serialised and scrubbed only for someone who reads them (the tool
    // log in the editor); a CLI run or the MCP server has no listener and pays nothing for it.
    if (reg.onCallEnd.listening) {
      reg.onCallEnd.fire({
        id: `c${n}`, tool: toolName, calledAs: name, sessionKey: ctx.sessionKey, agentId: ctx.agentId, channel: ctx.channel,
        startedAt, durationMs, outcome, args: scrubber.scrub(summarizeArgs(rawArgs)),
        message: outcome === 'ok' ? undefined : oneLine(out.forLLM),
        loopWarning, truncated: capped?.truncated || undefined, ...extra,
      });
    }
    return out;
  };

  if (!tool) {
    const offered = reg.deps.policy.evaluate(reg.policyRequest(ctx)).allowed;
    return finish(fail(`Unknown tool "${name}". Tools you can call: ${offered.join(', ') || '(none)'}.`), 'unknown-tool');
  }
  if (ctx.offeredTools && !ctx.offeredTools.has(name) && !ctx.offeredTools.has(tool.name)) {
    return finish(fail(`Tool "${name}" was not offered to you in this request; use only the tools you were given.`), 'refused');
  }
  const decision = policy.evaluate(reg.policyRequest(ctx));
  if (!allows(decision.allowed, tool.name)) {
    const why = decision.removed.find((r) => r.tool === tool.name);
    return finish(fail(`Tool "${name}" is not allowed by policy here${why ? ` (${why.step}: ${why.detail})` : ''}. Do not try to reach the same effect another way; tell the user what you needed instead.`), 'refused');
  }
  const halted = loops.haltedReason(run);
  if (halted) return finish(fail(`This run was stopped: ${halted}`, { halt: { reason: halted } }), 'loop');

  const rate = rateLimiter.take(ctx.sessionKey || `channel:${ctx.channel}`, tool.capability);
  if (!rate.allowed) {
    const secs = Math.ceil(rate.retryAfterMs / 1000);
    return finish(fail(`Rate limit reached for this session: wait about ${secs} s before calling ${name} again, and batch or narrow your requests (pincer.rateLimit settings).`, { details: { retryAfterMs: rate.retryAfterMs } }), 'rate-limited');
  }

  const args = parseArguments(tool.name, tool.parameters, rawArgs, opts.malformed);
  if (!args.ok) return finish(fail(args.message, { details: { argumentError: args.kind } }), 'invalid');

  if (reg.onCallStart.listening) reg.onCallStart.fire({ id: `c${n}`, tool: tool.name, sessionKey: ctx.sessionKey, channel: ctx.channel, startedAt });
  const exclusive = tool.capability !== 'read-only';
  const start = (release: () => void, now: number): Promise<ToolResult> => runWithLimits(reg, tool, args.value, ctx, n, now, (result, outcome) => {
    try {
      return finish(result, outcome);
    } finally {
      release();
    }
  }, release);
  const quick = reg.locks.tryAcquire(ctx.sessionKey, exclusive);
  // A call that did not wait for the lock starts when it was made (the clock is not read again).
  if (quick) return start(quick, startedAt);
  return reg.locks.acquire(ctx.sessionKey, exclusive).then((release) => start(release, reg.clock.now()));
}

/** How a call that ran ended, as the pipeline records it. */
type Ended = (result: ToolResult, outcome: Outcome) => ToolResult;

/** A tool's answer as the pipeline's result and outcome. */
function answered(tool: Tool, result: ToolResult, end: Ended): ToolResult {
  if (!result || typeof result.forLLM !== 'string') return end(fail(`${tool.name} returned no usable result (an internal error in the tool).`), 'error');
  // A tool's own outcome other than ok makes the result an error, whatever isError said.
  const own = result.outcome && result.outcome !== 'ok' ? result.outcome : result.isError ? 'error' : 'ok';
  return end(own === 'ok' ? result : { ...result, isError: true }, CALL_OUTCOME[own]);
}

/** A call that threw, was stopped or timed out, as the pipeline's result and outcome. */
function failed(tool: Tool, call: CallAbort, e: unknown, end: Ended): ToolResult {
  if (e instanceof CallTimeout) return end(fail(`${tool.name} ${e.message} and was stopped. Narrow the request, or split it into smaller steps.`), 'timeout');
  if (call.aborted) return end(fail(`${tool.name} was cancelled by the user.`), 'cancelled');
  const known = knownErrorResult(e);
  if (known) return end(known, 'error');
  const msg = e instanceof Error ? e.message : String(e);
  return end(fail(`${tool.name} failed: ${msg}`, { details: { exception: e instanceof Error ? e.name : typeof e } }), 'error');
}

/**
 * Runs the tool under its limits and resolves with `end`'s result: in the same step that hears the
 * tool's answer (no promise of its own to settle and await in between), or one step after the abort
 * (a timeout or the caller's Stop), so that what the abort's listeners do comes first as before.
 * `n`: the call's number (its id is `c<n>`); `now`: the call's start on the registry's clock; `release` gives the session lock back when the
 * limits' set-up fails (`end` does otherwise).
 */
function runWithLimits(reg: Registry, tool: Tool, args: unknown, ctx: ToolContext, n: number, now: number, end: Ended, release: () => void): Promise<ToolResult> {
  if (ctx.signal.aborted) return settledWith(() => end(fail(`${tool.name} was cancelled before it started.`), 'cancelled'));
  const own = tool.timeoutMs ?? (tool.interactive ? Infinity : reg.limits.defaultTimeoutMs);
  // setTimeout takes at most 2^31-1 ms; a longer budget is the same as none for a call.
  const budget = Math.min(2 ** 31 - 1, Math.max(0, Math.min(ctx.deadline, now + own) - now));
  return new Promise<ToolResult>((resolve, reject) => {
    let timer: CallTimer | undefined;
    let caller: CallerEntry | undefined;
    const settle = (make: () => ToolResult) => {
      cancelCallTimer(timer);
      caller?.forget();
      try {
        resolve(make());
      } catch (e) {
        reject(e);
      }
    };
    // Only this function aborts the call: the first abort settles it, and the tool's answer after
    // that is not heard (call.aborted).
    const call = new CallAbort();
    const abort = (reason: unknown) => {
      if (call.abort(reason)) void Promise.resolve().then(() => settle(() => failed(tool, call, reason, end)));
    };
    const callerStop = () => abort(ctx.signal.reason ?? new Error('cancelled'));
    try {
      const callCtx = callContext(ctx, now + budget, call);
      // The tool starts first and the limits are armed while it waits: what a call does before its
      // first await (an MCP call's request is written there) is not held up by their set-up, and
      // nothing can abort it in between (its synchronous part cannot be interrupted).
      let running: Promise<ToolResult>;
      try {
        running = tool.execute(args, callCtx);
      } catch (e) {
        running = Promise.reject(e);
      }
      Promise.resolve(running).then(
        (result) => call.aborted || settle(() => answered(tool, result, end)),
        (e: unknown) => call.aborted || settle(() => failed(tool, call, e, end)),
      );
      // One listener per caller's signal, shared by its calls (call-context.ts).
      caller = onCallerAbort(ctx.signal, callerStop);
      if (ctx.signal.aborted) callerStop();
      // One entry per call in the calls' shared timer (call-timers.ts): it fires the slow-call notice
      // first when that comes before the budget, then waits out the rest of the budget. Both count
      // from the call's start, not from here (a tool's synchronous part may have been long).
      const slowAfter = reg.timing.slowThresholdMs(tool.name);
      const timeout = () => abort(new CallTimeout(budget));
      const started = reg.clock.now() - now;
      // Not armed when the call already ended (an abort above, or nothing left to wait for).
      if (!call.aborted) {
        timer = !tool.interactive && slowAfter < budget
          ? callAfter(Math.max(0, slowAfter - started), () => {
            timer = callAfter(Math.max(0, budget - Math.max(slowAfter, started)), timeout);
            reg.onSlow.fire({ id: `c${n}`, tool: tool.name, sessionKey: ctx.sessionKey, elapsedMs: slowAfter, thresholdMs: slowAfter });
          })
          : callAfter(Math.max(0, budget - started), timeout);
      }
    } catch (e) {
      // The limits' own set-up failed (not the tool): the call ends with that error, as it did
      // when this was an async function, and the lock is given back. The tool, if it started, is
      // stopped, and its answer is not heard (call.aborted).
      call.abort(e);
      cancelCallTimer(timer);
      caller?.forget();
      release();
      reject(e);
    }
  });
}

/** `make`'s result as a promise (rejected when it throws). */
function settledWith(make: () => ToolResult): Promise<ToolResult> {
  try {
    return Promise.resolve(make());
  } catch (e) {
    return Promise.reject(e);
  }
}
