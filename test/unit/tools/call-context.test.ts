// A call's context under the pipeline: the caller's fields, the call's own deadline, a signal made
// only when read (and then already in the call's state), and onAbort for tools that only need to
// hear of the abort. The session lock's fast path (tryAcquire) keeps the lock's FIFO order.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { CallAbort, callContext } from '../../../src/core/tools/call-context';
import { SessionLocks } from '../../../src/core/tools/session-lock';
import { defineTool, ok, type Tool, type ToolContext } from '../../../src/core/tools/types';
import { runtimeWith } from '../../support/test-tools';

const ctxOf = (rt: ReturnType<typeof runtimeWith>, over: Partial<ToolContext> = {}) => rt.context({ channel: 'test', sessionKey: 's1', ...over });

/** A tool that runs `body` with its context and never ends on its own unless `body` returns. */
function probe(name: string, body: (ctx: ToolContext) => Promise<string> | undefined, timeoutMs?: number): Tool {
  return defineTool({
    name, group: 'fs', capability: 'read-only', description: 'probe', parameters: z.object({}), timeoutMs,
    execute: async (_a, ctx) => ok(await (body(ctx) ?? new Promise<string>(() => undefined))),
  }) as Tool;
}

describe('call context', () => {
  it('carries the caller\'s fields and its own deadline; a spread of it (a tool calling another) copies a real signal', async () => {
    let seen: ToolContext | undefined;
    const rt = runtimeWith({}, [probe('look', async (ctx) => {
      seen = ctx;
      return 'done';
    })]);
    const caller = ctxOf(rt, { turnId: 't7', agentId: 'helper', deadline: Date.now() + 60_000 });
    assert.equal((await rt.registry.execute('look', {}, caller)).forLLM, 'done');
    assert.ok(seen);
    assert.equal(seen.sessionKey, 's1');
    assert.equal(seen.turnId, 't7');
    assert.equal(seen.agentId, 'helper');
    assert.ok(seen.deadline <= caller.deadline);
    assert.notEqual(seen.signal, caller.signal);
    const copy = { ...seen, sessionKey: 's1:gate' };
    assert.ok(copy.signal instanceof AbortSignal);
    assert.equal(copy.signal, seen.signal);
    assert.equal(copy.signal.aborted, false);
  });

  it('onAbort hears the time limit without the signal being made, and a signal read afterwards is already aborted', async () => {
    const heard: unknown[] = [];
    let late: AbortSignal | undefined;
    const rt = runtimeWith({}, [probe('wait', (ctx) => {
      ctx.onAbort!((reason) => {
        heard.push(reason);
        late = ctx.signal;
      });
      return undefined;
    }, 60)]);
    const r = await rt.registry.execute('wait', {}, ctxOf(rt));
    assert.equal(r.outcome, 'timed-out');
    assert.equal(heard.length, 1);
    assert.match(String((heard[0] as Error).message), /timed out after 60 ms/);
    assert.ok(late?.aborted);
    assert.equal(late.reason, heard[0]);
  });

  it('the caller\'s Stop reaches the signal and every listener, one that throws included, and a listener added after the abort runs at once', async () => {
    const order: string[] = [];
    let ctxSeen: ToolContext | undefined;
    const rt = runtimeWith({}, [probe('held', (ctx) => {
      ctxSeen = ctx;
      ctx.signal.addEventListener('abort', () => order.push('signal'));
      ctx.onAbort!(() => {
        order.push('throwing listener');
        throw new Error('a listener that fails');
      });
      ctx.onAbort!(() => order.push('second listener'));
      return undefined;
    })]);
    const stop = new AbortController();
    const pending = rt.registry.execute('held', {}, ctxOf(rt, { signal: stop.signal }));
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort(new Error('Stop pressed'));
    const r = await pending;
    assert.equal(r.outcome, 'cancelled');
    assert.deepEqual(order, ['signal', 'throwing listener', 'second listener']);
    let after: unknown;
    ctxSeen!.onAbort!((reason) => (after = reason));
    assert.match(String((after as Error).message), /Stop pressed/);
  });

  it('the time limit counts from the call\'s start: a tool whose synchronous part used up its budget is stopped at once', async () => {
    // A held clock: the tool's synchronous part moves it past the ten-minute limit.
    let t = 1_000_000;
    const clock = { now: () => t };
    const slowStart = defineTool({
      name: 'slow_start', group: 'fs', capability: 'read-only', description: 'x', parameters: z.object({}), timeoutMs: 600_000,
      execute: (_a, ctx) => {
        t += 600_001;
        return new Promise<never>((_resolve, reject) => ctx.onAbort!(reject));
      },
    }) as Tool;
    const rt = runtimeWith({}, [slowStart], clock);
    const r = await rt.registry.execute('slow_start', {}, rt.context({ channel: 'test', sessionKey: 's1', deadline: Number.MAX_SAFE_INTEGER }));
    assert.equal(r.outcome, 'timed-out', r.forLLM);
  });

  it('CallAbort: the first reason wins; listeners run once', () => {
    const call = new CallAbort();
    const reasons: unknown[] = [];
    call.listen((r) => reasons.push(r));
    assert.equal(call.abort('first'), true);
    assert.equal(call.abort('second'), false);
    assert.deepEqual(reasons, ['first']);
    assert.equal(call.signal.reason, 'first');
    const ctx = callContext({ sessionKey: 'k', agentId: 'a', channel: 'test', subagentDepth: 0, isOwner: true, signal: new AbortController().signal, deadline: 5, workspaceTrusted: true }, 3, call);
    assert.equal(ctx.deadline, 3);
    assert.equal(ctx.signal, call.signal);
    // The caller's fields are carried; one it left out reads as undefined; the signal is an own field a spread copies.
    assert.equal(ctx.sessionKey, 'k');
    assert.equal(ctx.turnId, undefined);
    assert.equal(typeof ctx.onAbort, 'function');
    assert.equal({ ...ctx }.signal, call.signal);
  });

  it('a call context carries every ToolContext field of its caller but the signal and deadline, which are the call\'s', () => {
    const caller: Required<ToolContext> = {
      sessionKey: 'k', turnId: 't', agentId: 'a', channel: 'test', subagentDepth: 2, isOwner: false, provider: 'p', workspaceRoot: '/w',
      signal: new AbortController().signal, onAbort: () => undefined, deadline: 99, offeredTools: new Set(['x']), requestAllow: ['x'],
      profileOverride: 'full', workspaceTrusted: false, onProgress: () => undefined, imageInput: true,
    };
    const call = new CallAbort();
    const ctx = callContext(caller, 7, call);
    for (const key of Object.keys(caller) as (keyof ToolContext)[]) {
      if (key === 'signal' || key === 'deadline' || key === 'onAbort') continue;
      assert.equal(ctx[key], caller[key], key);
    }
    assert.equal(ctx.deadline, 7);
    assert.notEqual(ctx.onAbort, caller.onAbort);
    assert.equal(ctx.signal, call.signal);
    assert.deepEqual(Object.keys(ctx).sort(), Object.keys(caller).sort());
  });
});

describe('session lock: the fast path', () => {
  it('tryAcquire takes a free lock at once and refuses one held against it or with someone waiting', async () => {
    const locks = new SessionLocks();
    const writer = locks.tryAcquire('s', true);
    assert.ok(writer);
    assert.equal(locks.tryAcquire('s', false), undefined);
    assert.equal(locks.tryAcquire('other', true) !== undefined, true);
    const order: string[] = [];
    const queued = locks.acquire('s', false).then((release) => {
      order.push('queued reader');
      return release;
    });
    writer();
    // The woken reader has not run yet: a newcomer must not pass it.
    assert.equal(locks.tryAcquire('s', false), undefined);
    const newcomer = locks.acquire('s', false).then((release) => {
      order.push('newcomer');
      return release;
    });
    (await queued)();
    (await newcomer)();
    assert.deepEqual(order, ['queued reader', 'newcomer']);
    assert.equal(locks.size, 1);
  });

  it('readers share through tryAcquire; a writer then waits for both', async () => {
    const locks = new SessionLocks();
    const a = locks.tryAcquire('s', false);
    const b = locks.tryAcquire('s', false);
    assert.ok(a !== undefined && b !== undefined);
    assert.equal(locks.tryAcquire('s', true), undefined);
    let wrote = false;
    const w = locks.acquire('s', true).then((release) => {
      wrote = true;
      release();
    });
    a();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(wrote, false);
    b();
    await w;
    assert.equal(wrote, true);
    assert.equal(locks.size, 0);
  });

  it('a lock dropped when its session went idle and taken by another session: a late second release of the first holder frees nothing', async () => {
    const locks = new SessionLocks();
    const first = locks.tryAcquire('s1', true);
    assert.ok(first);
    first();
    assert.equal(locks.size, 0);
    // The next session that needs a lock gets the one s1 dropped.
    const second = locks.tryAcquire('s2', true);
    assert.ok(second);
    first();
    assert.equal(locks.tryAcquire('s2', true), undefined, 's2 is still held by its writer');
    assert.equal(locks.tryAcquire('s2', false), undefined, 'and a reader waits too');
    let read = false;
    const reader = locks.acquire('s2', false).then((release) => {
      read = true;
      release();
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(read, false);
    second();
    await reader;
    assert.equal(read, true);
    assert.equal(locks.size, 0);
    assert.ok(locks.tryAcquire('s1', false), 's1 is free again');
  });
});
