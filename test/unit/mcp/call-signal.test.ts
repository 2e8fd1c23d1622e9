// The signal an MCP call hands the SDK: under the pipeline a light one aborted through onAbort, with
// the members the SDK reads; outside it, the context's own signal.
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
});
