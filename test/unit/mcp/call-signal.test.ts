// The signal an MCP call hands the SDK: under the pipeline the call's own abort, which has the members
// the SDK reads; a context with an onAbort of its own, a light one aborted through it; otherwise the
// context's own signal.
import assert from 'node:assert/strict';
import { sdkSignal } from '../../../src/core/mcp/call-signal';
import { CallAbort, callContext } from '../../../src/core/tools/call-context';
import type { ToolContext } from '../../../src/core/tools/types';

const base = (): ToolContext => ({ sessionKey: 'k', agentId: 'a', channel: 'test', subagentDepth: 0, isOwner: true, signal: new AbortController().signal, deadline: Date.now() + 1000, workspaceTrusted: true });

describe('MCP call signal', () => {
  it('a context without onAbort: its own signal, unchanged', () => {
    const ctx = base();
    assert.equal(sdkSignal(ctx), ctx.signal);
  });

  it('under the pipeline: aborted with the call\'s reason, once, as the SDK reads it', () => {
    const call = new CallAbort();
    const ctx = callContext(base(), Date.now() + 1000, call);
    const signal = sdkSignal(ctx);
    assert.equal(signal.aborted, false);
    signal.throwIfAborted();
    const heard: unknown[] = [];
    signal.addEventListener('abort', () => heard.push(signal.reason));
    signal.onabort = () => heard.push('onabort');
    const why = new Error('timed out');
    call.abort(why);
    call.abort(new Error('again'));
    assert.equal(signal.aborted, true);
    assert.equal(signal.reason, why);
    assert.deepEqual(heard, ['onabort', why]);
    assert.throws(() => signal.throwIfAborted(), /timed out/);
  });

  it('a call aborted before the SDK asks: the signal it gets is already aborted', () => {
    const call = new CallAbort();
    const ctx = callContext(base(), Date.now() + 1000, call);
    call.abort('Stop');
    const signal = sdkSignal(ctx);
    assert.equal(signal.aborted, true);
    assert.throws(() => signal.throwIfAborted(), (e) => e === 'Stop');
  });

  it('a context made elsewhere with an onAbort of its own: a light signal aborted through it', () => {
    let stop: ((reason: unknown) => void) | undefined;
    const ctx: ToolContext = { ...base(), onAbort: (l) => void (stop = l) };
    const signal = sdkSignal(ctx);
    assert.notEqual(signal, ctx.signal);
    const heard: unknown[] = [];
    signal.addEventListener('abort', () => heard.push(signal.reason));
    assert.equal(signal.aborted, false);
    stop?.('Stop');
    assert.equal(signal.aborted, true);
    assert.deepEqual(heard, ['Stop']);
  });

  it('a listener removed before the abort, or added after it, is not run; one that throws does not keep the others from running', () => {
    const call = new CallAbort();
    const signal = sdkSignal(callContext(base(), Date.now() + 1000, call));
    const heard: string[] = [];
    const removed = () => heard.push('removed');
    signal.addEventListener('abort', () => {
      throw new Error('listener failed');
    });
    signal.addEventListener('abort', removed);
    signal.addEventListener('abort', (e) => heard.push(e.type));
    signal.removeEventListener('abort', removed);
    call.abort('why');
    signal.addEventListener('abort', () => heard.push('late'));
    assert.deepEqual(heard, ['abort']);
  });
});
