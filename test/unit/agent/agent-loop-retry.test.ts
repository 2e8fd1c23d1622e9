import assert from 'node:assert/strict';
import { abortableSleep } from '../../../src/core/agent/agent-abort';
import { backoffDelay, DEFAULT_RETRY_TUNING } from '../../../src/core/agent/agent-stream';
import type { TurnEvent } from '../../../src/core/agent/agent-types';
import { ModelError } from '../../../src/core/agent/model-types';
import { answer, toolCalls, usage } from '../../support/scripted-provider';
import { everyCallAnswered, harness, texts } from './agent-loop-harness';

/** Records the turn's events and cancels it once `text` was streamed. */
function cancelAfterText(events: TurnEvent[], ac: AbortController, text: string) {
  return (e: TurnEvent) => {
    events.push(e);
    if (e.type === 'text' && e.text === text) setImmediate(() => ac.abort());
  };
}

const rateLimited = (retryAfterMs?: number) => [{ throw: new ModelError('Rate limit reached', true, 429, retryAfterMs) }];
const serverError = () => [{ throw: new ModelError('Internal server error', true, 500) }];

describe('agent loop: retries and cancel', () => {
  describe('backoff', () => {
    it('grows exponentially from 1 s with half of it jittered, and is capped', () => {
      const e = new ModelError('x', true, 503);
      const t = DEFAULT_RETRY_TUNING;
      assert.deepEqual([1, 2, 3, 4].map((n) => backoffDelay(n, e, t, () => 0)), [500, 1000, 2000, 4000]);
      assert.deepEqual([1, 2, 3, 4].map((n) => backoffDelay(n, e, t, () => 0.999999)), [1000, 2000, 4000, 8000]);
      assert.equal(backoffDelay(12, e, t, () => 1), 30_000);
      assert.equal(backoffDelay(60, e, t, () => 0.5), 22_500, 'huge attempt numbers stay finite and capped');
    });

    it('honours Retry-After as a minimum, and gives up on one longer than a minute', () => {
      const t = DEFAULT_RETRY_TUNING;
      assert.equal(backoffDelay(1, new ModelError('x', true, 429, 4200), t, () => 0.5), 4200);
      assert.equal(backoffDelay(3, new ModelError('x', true, 429, 10), t, () => 0.5), 3000, 'a tiny Retry-After does not shorten the backoff');
      assert.equal(backoffDelay(1, new ModelError('x', true, 429, 120_000), t, () => 0.5), undefined);
      assert.equal(backoffDelay(1, new ModelError('x', true, 429, Number.NaN), t, () => 0.5), 750);
    });
  });

  it('429 then success: waits the Retry-After, sends the request again, answers', async () => {
    const h = harness([rateLimited(1500), answer('second time lucky')]);
    const r = await h.run();
    assert.equal(r.stopReason, 'end');
    assert.equal(r.text, 'second time lucky');
    assert.equal(r.iterations, 1, 'a retried request is still one iteration');
    assert.deepEqual(h.sleeps, [1500]);
    assert.equal(h.provider.requests.length, 2);
    assert.deepEqual(h.provider.requests[1], h.provider.requests[0], 'the same request is sent again');
    assert.deepEqual(h.events.filter((e) => e.type === 'retry'), [{ type: 'retry', iteration: 1, attempt: 1, delayMs: 1500, message: 'Rate limit reached (HTTP 429)' }]);
  });

  it('three 500s then success, with the default three retries: exponential waits', async () => {
    const h = harness([serverError(), serverError(), serverError(), answer('up again')]);
    const r = await h.run();
    assert.equal(r.stopReason, 'end');
    assert.deepEqual(h.sleeps, [750, 1500, 3000]);
  });

  it('still failing after the last retry: stop "error", with the message and the count', async () => {
    const h = harness([serverError(), serverError(), serverError(), answer('too late')]);
    const r = await h.run({ limits: { maxRetries: 2 } });
    assert.equal(r.stopReason, 'error');
    assert.equal(r.message, 'Internal server error (HTTP 500) — still failing after 2 retries.');
    assert.equal(h.provider.requests.length, 3);
    assert.deepEqual(h.sleeps, [750, 1500]);
    assert.deepEqual(r.messages, []);
  });

  it('maxRetries 0 turns retries off', async () => {
    const h = harness([serverError(), answer('x')]);
    const r = await h.run({ limits: { maxRetries: 0 } });
    assert.equal(r.stopReason, 'error');
    assert.equal(r.message, 'Internal server error (HTTP 500)');
    assert.equal(h.provider.requests.length, 1);
  });

  it('a retry happens per request: each iteration has its own budget of retries', async () => {
    const h = harness([serverError(), serverError(), toolCalls([{ name: 'echo', args: { text: 'e' } }]), serverError(), serverError(), answer('done')]);
    const r = await h.run({ limits: { maxRetries: 2 } });
    assert.equal(r.stopReason, 'end');
    assert.equal(r.iterations, 2);
    assert.deepEqual(h.sleeps, [750, 1500, 750, 1500]);
  });

  it('no retry once text of the reply was shown: the partial reply is kept', async () => {
    const h = harness([[{ text: 'The answer is ' }, { throw: new ModelError('connection reset', true, 502) }], answer('a different answer')]);
    const r = await h.run();
    assert.equal(r.stopReason, 'error');
    assert.match(r.message ?? '', /^connection reset \(HTTP 502\) — the reply broke off after it had started, so it was not retried\.$/);
    assert.equal(h.provider.requests.length, 1);
    assert.deepEqual(h.sleeps, []);
    assert.equal(texts(h.events), 'The answer is ');
    assert.deepEqual(r.messages, [{ role: 'assistant', parts: [{ type: 'text', text: 'The answer is ' }] }]);
    assert.equal(r.text, 'The answer is ');
  });

  it('no retry once a tool call was streamed; the call is answered, not run', async () => {
    const h = harness([[{ call: { id: 'w', name: 'journal', args: { entry: 'x' } } }, { throw: new ModelError('overloaded', true, 529) }], answer('x')]);
    const r = await h.run();
    assert.equal(r.stopReason, 'error');
    assert.deepEqual(h.journal, []);
    assert.ok(everyCallAnswered(r.messages));
    assert.equal(h.provider.requests.length, 1);
  });

  it('a Retry-After longer than a minute ends the turn instead of hanging', async () => {
    const h = harness([rateLimited(300_000), answer('x')]);
    const r = await h.run();
    assert.equal(r.stopReason, 'error');
    assert.equal(r.message, 'Rate limit reached (HTTP 429) — the provider asks to wait 300 s before trying again.');
    assert.deepEqual(h.sleeps, []);
  });

  it('tokens of a failed attempt are counted (they were billed)', async () => {
    const h = harness([[{ usage: usage(40, 0) }, { throw: new ModelError('overloaded', true, 503) }], answer('ok', usage(40, 3))]);
    const r = await h.run();
    assert.deepEqual(r.usage, { input: 80, output: 3, cached: 0 });
  });

  it('cancel during the backoff stops at once, even with a sleep that ignores the signal', async () => {
    // Retry-After is 30 s (longer than the test's timeout), or the sleep never ends at all.
    for (const sleep of [abortableSleep, () => new Promise<void>(() => undefined)]) {
      const ac = new AbortController();
      const cancelInSleep = (ms: number, signal: AbortSignal) => {
        setImmediate(() => ac.abort());
        return sleep(ms, signal);
      };
      const h = harness([rateLimited(30_000), answer('never')], { deps: { sleep: cancelInSleep } });
      const r = await h.run({ signal: ac.signal });
      assert.equal(r.stopReason, 'cancelled');
      assert.equal(h.provider.requests.length, 1);
    }
  });

  it('cancel mid-stream: stops promptly, keeps what was said, aborts the provider\'s request', async () => {
    // The pause outlasts the test's timeout: the stream ends only because the cancel reached it.
    const h = harness([[{ text: 'Thinking about ' }, { text: 'it' }, { wait: 600_000 }, { text: ' — never shown' }, { stop: 'end' }]]);
    const ac = new AbortController();
    const r = await h.run({ signal: ac.signal, onEvent: cancelAfterText(h.events, ac, 'it') });
    assert.equal(r.stopReason, 'cancelled');
    assert.equal(r.message, 'Stopped: you cancelled the turn.');
    assert.deepEqual(r.messages, [{ role: 'assistant', parts: [{ type: 'text', text: 'Thinking about it' }] }]);
    assert.equal(texts(h.events), 'Thinking about it');
    assert.equal(h.provider.signals[0].aborted, true);
  });

  it('cancel mid-stream with a provider that never notices: the turn still ends promptly', async () => {
    const ac = new AbortController();
    const h = harness([[{ text: 'partial' }, { call: { id: 'c', name: 'journal', args: { entry: 'x' } } }, { hang: true, onHang: () => ac.abort() }]]);
    const r = await h.run({ signal: ac.signal });
    assert.equal(r.stopReason, 'cancelled');
    assert.deepEqual(h.journal, [], 'the streamed call did not run');
    assert.ok(everyCallAnswered(r.messages));
    assert.equal(r.text, 'partial');
  });

  it('cancel between requests: the next request is not sent', async () => {
    const ac = new AbortController();
    const h = harness([toolCalls([{ name: 'echo', args: { text: 'a' } }]), answer('never')]);
    const r = await h.run({ signal: ac.signal, onEvent: (e) => { if (e.type === 'tool-end') ac.abort(); } });
    assert.equal(r.stopReason, 'cancelled');
    assert.equal(h.provider.requests.length, 1);
    assert.equal(r.messages.length, 2, 'the reply and its result are kept');
  });
});
