import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineTool, ok, type Tool, type ToolContext } from '../../../src/core/tools/types';
import { SessionLocks } from '../../../src/core/tools/session-lock';
import { runtimeWith, sleepTool, stubTool } from '../../support/test-tools';

const ctxOf = (rt: ReturnType<typeof runtimeWith>, over: Partial<ToolContext> = {}) => rt.context({ channel: 'test', sessionKey: 's1', ...over });

/** Records how many calls of one kind overlap; per-call state lives only in the call. */
function tracker(name: string, capability: 'read-only' | 'mutating') {
  const state = { active: 0, maxActive: 0 };
  const tool = defineTool({
    name, group: 'fs', capability, description: 'x', parameters: z.object({ id: z.number(), ms: z.number(), fail: z.boolean().optional() }),
    async execute(a, ctx) {
      state.active++;
      state.maxActive = Math.max(state.maxActive, state.active);
      await new Promise((r) => setTimeout(r, a.ms));
      state.active--;
      if (a.fail) throw new Error(`call ${a.id} failed on purpose`);
      return ok(`id=${a.id} session=${ctx.sessionKey}`);
    },
  });
  return { tool: tool as Tool, state };
}

describe('registry: concurrency', () => {
  it('10 concurrent calls, one throwing: the others succeed with their own arguments', async () => {
    const { tool } = tracker('work', 'read-only');
    const rt = runtimeWith({ 'rateLimit.enabled': false }, [tool]);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      rt.registry.execute('work', { id: i, ms: 5 + ((i * 7) % 11), fail: i === 4 }, ctxOf(rt, { sessionKey: `s${i % 3}` }))));
    results.forEach((r, i) => {
      if (i === 4) {
        assert.equal(r.isError, true);
        assert.equal(r.forLLM, 'work failed: call 4 failed on purpose');
      } else {
        assert.equal(r.isError, false);
        assert.equal(r.forLLM, `id=${i} session=s${i % 3}`);
      }
    });
  });

  it('read-only calls of one session run in parallel; mutating calls run one at a time', async () => {
    const reads = tracker('peek', 'read-only');
    const writes = tracker('poke', 'mutating');
    const rt = runtimeWith({ 'rateLimit.enabled': false }, [reads.tool, writes.tool]);
    await Promise.all(Array.from({ length: 5 }, (_, i) => rt.registry.execute('peek', { id: i, ms: 30 }, ctxOf(rt))));
    assert.ok(reads.state.maxActive >= 2, `reads overlapped: ${reads.state.maxActive}`);
    await Promise.all(Array.from({ length: 5 }, (_, i) => rt.registry.execute('poke', { id: i, ms: 10 }, ctxOf(rt))));
    assert.equal(writes.state.maxActive, 1);
  });

  it('mutating calls of different sessions do not wait for each other', async () => {
    const writes = tracker('poke', 'mutating');
    const rt = runtimeWith({ 'rateLimit.enabled': false }, [writes.tool]);
    await Promise.all(Array.from({ length: 4 }, (_, i) => rt.registry.execute('poke', { id: i, ms: 30 }, ctxOf(rt, { sessionKey: `s${i}` }))));
    assert.ok(writes.state.maxActive >= 2);
  });

  it('a write waits for running reads, and reads queued behind a write wait for it (FIFO, no starvation)', async () => {
    const locks = new SessionLocks();
    const order: string[] = [];
    const hold = (name: string, exclusive: boolean, ms: number) => locks.acquire('s', exclusive).then(async (release) => {
      order.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, ms));
      order.push(`end ${name}`);
      release();
    });
    await Promise.all([hold('r1', false, 30), hold('w', true, 10), hold('r2', false, 5)]);
    assert.deepEqual(order, ['start r1', 'end r1', 'start w', 'end w', 'start r2', 'end r2']);
    assert.equal(locks.size, 0, 'idle sessions are dropped');
  });

  it('a failing or timed-out call releases the session lock', async () => {
    const rt = runtimeWith({ 'rateLimit.enabled': false }, [
      stubTool('crash', 'fs', 'mutating', { execute: async () => { throw new Error('x'); } }),
      { ...sleepTool, name: 'hang', capability: 'mutating', timeoutMs: 30 } as Tool,
    ]);
    await rt.registry.execute('crash', {}, ctxOf(rt));
    await rt.registry.execute('hang', { ms: 10_000, ignoreAbort: true }, ctxOf(rt));
    assert.equal(rt.registry.locks.size, 0);
  });
});

describe('registry: loop detection in the pipeline', () => {
  it('warns in the result, then stops the run and refuses further calls until reset', async () => {
    const rt = runtimeWith({ 'rateLimit.enabled': false }, [stubTool('look', 'fs', 'read-only')]);
    const results = [];
    for (let i = 0; i < 8; i++) {
      const r = await rt.registry.execute('look', { same: true }, ctxOf(rt));
      results.push(r);
      if (r.halt) break;
    }
    const firstWarning = results.findIndex((r) => r.forLLM.includes('[Pincer loop warning]'));
    const halted = results.findIndex((r) => r.halt);
    assert.ok(firstWarning >= 1, 'a warning reaches the model');
    assert.ok(halted > firstWarning, 'critical comes after the warning');
    assert.match(results[halted].forLLM, /\[Pincer stopped this run\]/);
    const after = await rt.registry.execute('datetime', {}, ctxOf(rt));
    assert.ok(after.halt && after.isError, 'a halted run refuses other tools too');
    const otherSession = await rt.registry.execute('datetime', {}, ctxOf(rt, { sessionKey: 'other' }));
    assert.equal(otherSession.isError, false);
    rt.loops.reset('s1');
    assert.equal((await rt.registry.execute('datetime', {}, ctxOf(rt))).isError, false);
  });

  it('a model that keeps calling a denied tool is caught as a loop too', async () => {
    const rt = runtimeWith({ 'rateLimit.enabled': false, 'tools.deny': ['look'] }, [stubTool('look', 'fs', 'read-only')]);
    let halted = false;
    for (let i = 0; i < 12 && !halted; i++) halted = !!(await rt.registry.execute('look', { x: 1 }, ctxOf(rt))).halt;
    assert.ok(halted);
  });

  it('loop detection off: repeats are never flagged', async () => {
    const rt = runtimeWith({ 'rateLimit.enabled': false, 'loopDetection.enabled': false }, [stubTool('look', 'fs', 'read-only')]);
    for (let i = 0; i < 40; i++) {
      const r = await rt.registry.execute('look', { same: true }, ctxOf(rt));
      assert.ok(!r.halt && !r.forLLM.includes('loop'));
    }
  });
});
