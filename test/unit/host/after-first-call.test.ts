// The window's after-first-call queue: work waits for the first tool call to end (not for a timer that
// would fire between the call's own awaits), or for the fallback when no call comes; later work runs at once.
import * as assert from 'assert';
import { Emitter } from '../../../src/core/events';
import { afterFirstCall } from '../../../src/host/after-first-call';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('host: after the first call', () => {
  it('work waits for the first call to end, runs in order just after it, and later work runs at once', async () => {
    const calls = new Emitter<unknown>();
    const later = afterFirstCall(calls, 60_000);
    const ran: string[] = [];
    later.run(() => ran.push('watchers'));
    later.run(() => ran.push('report'));
    await turn();
    assert.strictEqual(ran.length, 0, 'nothing runs before a call ended');
    calls.fire({});
    assert.strictEqual(ran.length, 0, 'not inside the call\'s own end event either');
    await turn();
    assert.deepStrictEqual(ran, ['watchers', 'report']);
    calls.fire({});
    await turn();
    assert.deepStrictEqual(ran, ['watchers', 'report'], 'each piece of work runs once');
    later.run(() => ran.push('after'));
    assert.deepStrictEqual(ran, ['watchers', 'report', 'after']);
    assert.strictEqual(calls.listening, false, 'no listener is left on the registry');
    later.dispose();
  });

  it('without a call the work runs after the fallback', async () => {
    const calls = new Emitter<unknown>();
    const later = afterFirstCall(calls, 1);
    const done = new Promise<void>((resolve) => later.run(resolve));
    await done;
    assert.strictEqual(calls.listening, false);
    later.dispose();
  });

  it('work queued before dispose never runs', async () => {
    const calls = new Emitter<unknown>();
    const later = afterFirstCall(calls, 1);
    let ran = false;
    later.run(() => {
      ran = true;
    });
    later.dispose();
    calls.fire({});
    // A timer of the same delay set after the fallback's fires after it (Node runs them in order).
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
    await turn();
    assert.strictEqual(ran, false);
    assert.strictEqual(calls.listening, false);
  });

  it('one piece of work failing does not keep the next from running; the error still surfaces', async () => {
    const calls = new Emitter<unknown>();
    const later = afterFirstCall(calls, 60_000);
    // mocha's own handler would fail this test: while it runs, only ours sees uncaught errors.
    const mochas = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    try {
      const surfaced = new Promise<Error>((resolve) => process.once('uncaughtException', resolve));
      let second = false;
      later.run(() => {
        throw new Error('watchers failed');
      });
      later.run(() => {
        second = true;
      });
      calls.fire({});
      assert.strictEqual((await surfaced).message, 'watchers failed');
      assert.strictEqual(second, true);
    } finally {
      for (const l of mochas) process.on('uncaughtException', l);
      later.dispose();
    }
  });
});
