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
import { CallAbort, callContext, onCallerAbort } from './call-context';
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

export async function executeCall(reg: Registry, name: string, rawArgs: unknown, ctx: ToolContext, opts: CallOptions = {}): Promise<ToolResult> {
  const { scrubber, rateLimiter, loops, policy } = reg.deps;
  const id = `c${++seq}`;
  const startedAt = reg.clock.now();
  const t0 = performance.now();
  const resolved = reg.resolve(name);
  const tool = resolved?.tool;
  const toolName = tool?.name ?? name;
  // Loops are judged per run: an agent's turn, or one call a person started (see ToolContext.turnId).
  const run = ctx.turnId ?? ctx.sessionKey;

  const finish = (result: ToolResult, outcome: Outcome, extra: Partial<CallEnd> = {}): ToolResult => {
    const scrubbedLLM = scrubber.scrub(result.forLLM);
    const scrubbedUser = result.forUser === undefined ? undefined : scrubber.scrub(result.forUser);
    const capped = capText(scrubbedLLM, reg.limits.maxResultChars, 'pincer.tools.maxResultChars');
    // Copied with Object.assign, not a spread: fields added to a spread's copy (outcome below) take
    // V8 off its fast path, microseconds on every call.
    const out: ToolResult = Object.assign({}, result);
    out.forLLM = result.untrusted ? untrustedText(result.untrusted, capped.text) : capped.text;
    // Wrapped once: a result handed on through another call is not wrapped again.
    if (result.untrusted) out.untrusted = undefined;
    // Pixels cannot be scrubbed; where an image came from (a URL with a token in it) can.
    if (result.images) out.images = result.images.map((image) => ({ ...image, source: scrubber.scrub(image.source) }));
    if (scrubbedUser !== undefined) out.forUser = capText(scrubbedUser, reg.limits.maxUserChars, 'pincer.tools.maxResultChars').text;
    if (capped.truncated) out.details = { ...out.details, truncatedChars: capped.omitted };

    let loopWarning: string | undefined;
    if (outcome !== 'loop') {
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
        id, tool: toolName, calledAs: name, sessionKey: ctx.sessionKey, agentId: ctx.agentId, channel: ctx.channel,
        startedAt, durationMs, outcome, args: scrubber.scrub(summarizeArgs(rawArgs)),
        message: outcome === 'ok' ? undefined : oneLine(out.forLLM),
        loopWarning, truncated: capped.truncated || undefined, ...extra,
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
  if (!decision.allowed.includes(tool.name)) {
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

  if (reg.onCallStart.listening) reg.onCallStart.fire({ id, tool: tool.name, sessionKey: ctx.sessionKey, channel: ctx.channel, startedAt });
  const exclusive = tool.capability !== 'read-only';
  const quick = reg.locks.tryAcquire(ctx.sessionKey, exclusive);
  const release = quick ?? await reg.locks.acquire(ctx.sessionKey, exclusive);
  try {
    // A call that did not wait for the lock starts when it was made (the clock is not read again).
    const { result, outcome } = await runWithLimits(reg, tool, args.value, ctx, id, quick ? startedAt : reg.clock.now());
    return finish(result, outcome);
  } finally {
    release();
  }
}

/** `now`: the call's start on the registry's clock. */
async function runWithLimits(reg: Registry, tool: Tool, args: unknown, ctx: ToolContext, id: string, now: number): Promise<{ result: ToolResult; outcome: Outcome }> {
  if (ctx.signal.aborted) return { result: fail(`${tool.name} was cancelled before it started.`), outcome: 'cancelled' };
  const own = tool.timeoutMs ?? (tool.interactive ? Infinity : reg.limits.defaultTimeoutMs);
  // setTimeout takes at most 2^31-1 ms; a longer budget is the same as none for a call.
  const budget = Math.min(2 ** 31 - 1, Math.max(0, Math.min(ctx.deadline, now + own) - now));
  // Only this function aborts the call, so it settles the call's promise itself (no listener of its own).
  const call = new CallAbort();
  let stop: (reason: unknown) => void = () => undefined;
  const abort = (reason: unknown) => {
    if (call.abort(reason)) stop(reason);
  };
  const callCtx = callContext(ctx, now + budget, call);
  const callerStop = () => abort(ctx.signal.reason ?? new Error('cancelled'));
  let timer: CallTimer | undefined;
  let forgetCaller: (() => void) | undefined;
  try {
    // The tool starts first and the limits are armed while it waits: what a call does before its
    // first await (an MCP call's request is written there) is not held up by their set-up, and
    // nothing can abort it in between (its synchronous part cannot be interrupted).
    let running: Promise<ToolResult>;
    try {
      running = tool.execute(args, callCtx);
    } catch (e) {
      running = Promise.reject(e);
    }
    const settled = new Promise<ToolResult>((resolve, reject) => {
      stop = reject;
      running.then(resolve, reject);
    });
    // One listener per caller's signal, shared by its calls (call-context.ts).
    forgetCaller = onCallerAbort(ctx.signal, callerStop);
    if (ctx.signal.aborted) callerStop();
    // One entry per call in the calls' shared timer (call-timers.ts): it fires the slow-call notice
    // first when that comes before the budget, then waits out the rest of the budget. Both count
    // from the call's start, not from here (a tool's synchronous part may have been long).
    const slowAfter = reg.timing.slowThresholdMs(tool.name);
    const timeout = () => abort(new CallTimeout(budget));
    const started = reg.clock.now() - now;
    timer = !tool.interactive && slowAfter < budget
      ? callAfter(Math.max(0, slowAfter - started), () => {
        timer = callAfter(Math.max(0, budget - Math.max(slowAfter, started)), timeout);
        reg.onSlow.fire({ id, tool: tool.name, sessionKey: ctx.sessionKey, elapsedMs: slowAfter, thresholdMs: slowAfter });
      })
      : callAfter(Math.max(0, budget - started), timeout);
    const result = await settled;
    if (!result || typeof result.forLLM !== 'string') {
      return { result: fail(`${tool.name} returned no usable result (an internal error in the tool).`), outcome: 'error' };
    }
    // A tool's own outcome other than ok makes the result an error, whatever isError said.
    const own = result.outcome && result.outcome !== 'ok' ? result.outcome : result.isError ? 'error' : 'ok';
    return { result: own === 'ok' ? result : { ...result, isError: true }, outcome: CALL_OUTCOME[own] };
  } catch (e) {
    if (e instanceof CallTimeout) {
      return { result: fail(`${tool.name} ${e.message} and was stopped. Narrow the request, or split it into smaller steps.`), outcome: 'timeout' };
    }
    if (call.aborted) return { result: fail(`${tool.name} was cancelled by the user.`), outcome: 'cancelled' };
    const known = knownErrorResult(e);
    if (known) return { result: known, outcome: 'error' };
    const msg = e instanceof Error ? e.message : String(e);
    return { result: fail(`${tool.name} failed: ${msg}`, { details: { exception: e instanceof Error ? e.name : typeof e } }), outcome: 'error' };
  } finally {
    cancelCallTimer(timer);
    forgetCaller?.();
  }
}
