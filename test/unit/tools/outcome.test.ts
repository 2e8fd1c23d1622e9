// Every result the pipeline returns says how the call ended as data (ToolResult.outcome), and the
// tool log's record agrees; isError is true exactly when the outcome is not ok.
import assert from 'node:assert/strict';
import { z } from 'zod';
import type { CallEnd } from '../../../src/core/tools/call-record';
import { defineTool, fail, ok, type Tool, type ToolContext, type ToolResult } from '../../../src/core/tools/types';
import { runtimeWith, sleepTool } from '../../support/test-tools';

type Rt = ReturnType<typeof runtimeWith>;
const ctxOf = (rt: Rt, over: Partial<ToolContext> = {}) => rt.context({ channel: 'test', sessionKey: 'outcomes', ...over });

/** A tool that returns whatever result it is told to, so each shape can be sent through the pipeline. */
function answering(name: string, result: ToolResult): Tool {
  return defineTool({ name, group: 'fs', capability: 'read-only', description: 'x', parameters: z.object({}), execute: async () => result }) as Tool;
}

function logged(rt: Rt): CallEnd[] {
  const calls: CallEnd[] = [];
  rt.registry.onCallEnd.on((c) => calls.push(c));
  return calls;
}

describe('tool results carry their outcome', () => {
  it('ok, error, and the outcomes a tool states itself (denied, rejected-by-user) with isError kept consistent', async () => {
    const rt = runtimeWith({ 'rateLimit.enabled': false, 'loopDetection.enabled': false }, [
      answering('fine', ok('done')),
      answering('broken', fail('it broke')),
      answering('judged', fail('The command was denied: destructive_ops.', { outcome: 'denied' })),
      answering('refused_diff', fail('The user rejected the change.', { outcome: 'rejected-by-user' })),
      // A tool that says "rejected" but forgot isError: the outcome wins, isError follows it.
      answering('sloppy', ok('The user said no.', { outcome: 'rejected-by-user' })),
    ]);
    const log = logged(rt);
    const run = (n: string) => rt.registry.execute(n, {}, ctxOf(rt));
    const results = { fine: await run('fine'), broken: await run('broken'), judged: await run('judged'), refused_diff: await run('refused_diff'), sloppy: await run('sloppy') };
    assert.deepEqual(Object.values(results).map((r) => [r.outcome, r.isError]), [
      ['ok', false], ['error', true], ['denied', true], ['rejected-by-user', true], ['rejected-by-user', true],
    ]);
    assert.deepEqual(log.map((c) => c.outcome), ['ok', 'error', 'denied', 'rejected-by-user', 'rejected-by-user']);
  });

  it('the pipeline sets denied for policy refusals, error for unknown tools, bad arguments and rate limits', async () => {
    const rt = runtimeWith({ 'tools.deny': ['datetime'], 'rateLimit.perMinute': 1, 'rateLimit.burst': 3, 'loopDetection.enabled': false }, [sleepTool as Tool]);
    const log = logged(rt);
    const policy = await rt.registry.execute('datetime', {}, ctxOf(rt));
    assert.equal(policy.outcome, 'denied');
    const notOffered = await rt.registry.execute('sleep', { ms: 0 }, ctxOf(rt, { offeredTools: new Set(['session_status']) }));
    assert.equal(notOffered.outcome, 'denied');
    const unknown = await rt.registry.execute('no_such_tool', {}, ctxOf(rt));
    assert.equal(unknown.outcome, 'error');
    const first = await rt.registry.execute('sleep', { ms: 0 }, ctxOf(rt));
    assert.equal(first.outcome, 'ok');
    let limited = first;
    for (let i = 0; i < 5 && !/Rate limit reached/.test(limited.forLLM); i++) limited = await rt.registry.execute('sleep', { ms: 0 }, ctxOf(rt));
    assert.match(limited.forLLM, /Rate limit reached/);
    assert.equal(limited.outcome, 'error');
    const invalid = await rt.registry.execute('sleep', '{"ms": "soon"}', ctxOf(rt, { sessionKey: 'other' }));
    assert.equal(invalid.outcome, 'error');
    assert.deepEqual([...new Set(log.map((c) => c.outcome))], ['refused', 'unknown-tool', 'ok', 'rate-limited', 'invalid']);
    for (const r of [policy, notOffered, unknown, limited, invalid]) assert.equal(r.isError, true);
  });

  it('cancelled by the caller and timed out at the deadline', async () => {
    const rt = runtimeWith({ 'rateLimit.enabled': false }, [sleepTool as Tool, { ...sleepTool, name: 'slow', timeoutMs: 1 } as Tool]);
    const aborted = new AbortController();
    aborted.abort(new Error('stop'));
    const cancelled = await rt.registry.execute('sleep', { ms: 0 }, ctxOf(rt, { signal: aborted.signal }));
    assert.equal(cancelled.outcome, 'cancelled');
    const running = new AbortController();
    const pending = rt.registry.execute('sleep', { ms: 600_000 }, ctxOf(rt, { signal: running.signal }));
    running.abort(new Error('the person pressed Stop'));
    assert.equal((await pending).outcome, 'cancelled');
    // The tool's own limit (1 ms) passes long before the ten minutes it would sleep.
    const late = await rt.registry.execute('slow', { ms: 600_000 }, ctxOf(rt));
    assert.equal(late.outcome, 'timed-out');
    assert.match(late.forLLM, /timed out/);
  });
});
