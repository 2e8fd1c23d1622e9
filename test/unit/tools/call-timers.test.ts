// The calls' shared timer and the caller's shared abort listener: every call still hears its own time
// limit, slow notice and Stop, calls that ended are never fired on, and the timer keeps a process
// alive only while a call is pending (a CLI run ends when its calls have).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import path from 'node:path';
import { z } from 'zod';
import { onCallerAbort } from '../../../src/core/tools/call-context';
import { callAfter, cancelCallTimer } from '../../../src/core/tools/call-timers';
import { defineTool, ok, type Tool, type ToolContext } from '../../../src/core/tools/types';
import { runtimeWith } from '../../support/test-tools';

const ctxOf = (rt: ReturnType<typeof runtimeWith>, over: Partial<ToolContext> = {}) => rt.context({ channel: 'test', sessionKey: 's1', ...over });

/** A read-only tool that ends when `release` is called, or never. */
function held(name: string, timeoutMs?: number): { tool: Tool; release: () => void } {
  let release: () => void = () => undefined;
  const tool = defineTool({
    name, group: 'fs', capability: 'read-only', description: 'held', parameters: z.object({ n: z.number() }), timeoutMs,
    execute: (args) => new Promise((resolve) => {
      const prev = release;
      release = () => {
        prev();
        resolve(ok(`done ${args.n}`));
      };
    }),
  }) as Tool;
  return { tool, release: () => release() };
}

describe('call timers', () => {
  it('fire in order of their time, and a cancelled one never fires', async () => {
    const fired: string[] = [];
    let done: () => void = () => undefined;
    const all = new Promise<void>((resolve) => (done = resolve));
    const late = callAfter(30, () => {
      fired.push('late');
      done();
    });
    const gone = callAfter(10, () => fired.push('cancelled'));
    callAfter(5, () => fired.push('early'));
    cancelCallTimer(gone);
    await all;
    cancelCallTimer(late);
    assert.deepEqual(fired, ['early', 'late']);
  });

  it('a handler that throws does not keep the next ones from firing', async () => {
    const fired: string[] = [];
    const heard = new Promise<void>((resolve) => {
      callAfter(1, () => {
        throw new Error('a handler that fails');
      });
      callAfter(1, () => {
        fired.push('second');
        resolve();
      });
    });
    await heard;
    assert.deepEqual(fired, ['second']);
  });

  it('keeps a process alive while a call is pending, and not after every call ended', () => {
    const module = path.resolve(__dirname, '../../../src/core/tools/call-timers.js');
    // Pending: the process waits for it and runs it. Cancelled: the process ends at once, not after
    // the hour the timer was armed for (the test's own time limit would fail first).
    const script = `const t = require(${JSON.stringify(module)});
      t.callAfter(20, () => console.log('fired'));
      const hour = t.callAfter(3600000, () => console.log('the hour'));
      t.cancelCallTimer(hour);`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'fired');
    const idle = spawnSync(process.execPath, ['-e', `const t = require(${JSON.stringify(module)}); t.cancelCallTimer(t.callAfter(3600000, () => console.log('the hour')));`], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(idle.status, 0, idle.stderr);
    assert.equal(idle.stdout, '');
  });
});

describe('one abort listener per caller signal', () => {
  it('a Stop reaches every call running under the signal; the signal keeps one listener however many calls ran', async () => {
    const a = held('held_a');
    const rt = runtimeWith({}, [a.tool]);
    const stop = new AbortController();
    const ctx = ctxOf(rt, { signal: stop.signal });
    for (let i = 0; i < 5; i++) {
      const p = rt.registry.execute('held_a', { n: i }, ctx);
      a.release();
      assert.equal((await p).forLLM, `done ${i}`);
    }
    assert.equal(getEventListeners(stop.signal, 'abort').length, 1);
    const running = [0, 1, 2].map((n) => rt.registry.execute('held_a', { n }, ctx));
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort(new Error('Stop pressed'));
    const results = await Promise.all(running);
    assert.deepEqual(results.map((r) => r.outcome), ['cancelled', 'cancelled', 'cancelled']);
    assert.equal(getEventListeners(stop.signal, 'abort').length, 1);
  });

  it('a call that ended is not told of a later abort, and the time limit still stops a call under a signal shared with others', async () => {
    const heard: unknown[] = [];
    const signal = new AbortController();
    const ended = onCallerAbort(signal.signal, (reason) => heard.push(reason));
    const kept = onCallerAbort(signal.signal, (reason) => heard.push(`kept: ${String(reason)}`));
    ended.forget();
    signal.abort('Stop');
    kept.forget();
    assert.deepEqual(heard, ['kept: Stop']);

    const slow = held('held_slow', 40);
    const rt = runtimeWith({}, [slow.tool]);
    const shared = new AbortController();
    const r = await rt.registry.execute('held_slow', { n: 1 }, ctxOf(rt, { signal: shared.signal }));
    assert.equal(r.outcome, 'timed-out');
    assert.match(r.forLLM, /timed out after 40 ms/);
    assert.equal(shared.signal.aborted, false);
  });
});
