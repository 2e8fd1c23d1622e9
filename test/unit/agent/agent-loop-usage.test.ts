import assert from 'node:assert/strict';
import { addTurnUsage, costOf, EMPTY_SESSION_USAGE, mergeResponseUsage, type SessionUsage } from '../../../src/core/agent/agent-usage';
import { answer, toolCalls, usage } from '../../support/scripted-provider';
import { everyCallAnswered, harness } from './agent-loop-harness';

const pricing = { inputPerMTok: 3, outputPerMTok: 15, cachedPerMTok: 0.3 };

describe('agent loop: tokens, cost and budget', () => {
  it('usage is summed over the turn\'s requests, and reported after each', async () => {
    const h = harness([
      toolCalls([{ name: 'echo', args: { text: 'a' } }], { usage: usage(1000, 50) }),
      toolCalls([{ name: 'echo', args: { text: 'b' } }], { usage: usage(1100, 40, 1000) }),
      answer('done', usage(1200, 30, 1100)),
    ]);
    const r = await h.run();
    assert.deepEqual(r.usage, { input: 3300, output: 120, cached: 2100 });
    assert.deepEqual(h.events.flatMap((e) => (e.type === 'usage' ? [e.usage.input] : [])), [1000, 2100, 3300]);
  });

  it('with pricing the turn has a cost in USD; without, the cost is unknown', async () => {
    const script = () => [toolCalls([{ name: 'echo', args: { text: 'a' } }], { usage: usage(1_000_000, 0, 500_000) }), answer('ok', usage(0, 100_000))];
    const priced = await harness(script(), { deps: { pricing } }).run();
    // 500k uncached × $3 + 500k cached × $0.30 + 100k output × $15, per million.
    assert.ok(Math.abs((priced.usage.costUsd ?? NaN) - (1.5 + 0.15 + 1.5)) < 1e-9, String(priced.usage.costUsd));
    const unpriced = await harness(script()).run();
    assert.equal(unpriced.usage.costUsd, undefined);
    assert.ok(!('costUsd' in unpriced.usage), 'absent, not undefined, so stored JSON is the same');
  });

  it('cost: cached input at the input price when no cache price is given; nonsense prices give no cost', () => {
    assert.equal(costOf({ input: 2_000_000, output: 0, cached: 1_000_000 }, { inputPerMTok: 1, outputPerMTok: 2 }), 2);
    assert.equal(costOf({ input: 10, output: 10, cached: 50 }, { inputPerMTok: 1e6, outputPerMTok: 0, cachedPerMTok: 0 }), 0, 'cached never exceeds input');
    assert.equal(costOf({ input: 1, output: 1, cached: 0 }, { inputPerMTok: -1, outputPerMTok: 1 }), undefined);
    assert.equal(costOf({ input: 1, output: 1, cached: 0 }, { inputPerMTok: Number.NaN, outputPerMTok: 1 }), undefined);
  });

  it('a session sums its turns; one turn of unknown cost makes the session\'s cost unknown', async () => {
    let session: SessionUsage = EMPTY_SESSION_USAGE;
    for (let i = 0; i < 3; i++) {
      const r = await harness([answer(`turn ${i}`, usage(1_000_000, 100_000, 200_000))], { deps: { pricing } }).run();
      session = addTurnUsage(session, r.usage);
    }
    assert.equal(session.turns, 3);
    assert.deepEqual({ input: session.input, output: session.output, cached: session.cached }, { input: 3_000_000, output: 300_000, cached: 600_000 });
    assert.ok(Math.abs((session.costUsd ?? NaN) - 3 * (2.4 + 0.06 + 1.5)) < 1e-9);
    const first = session;
    const r = await harness([answer('no price', usage(10, 10))]).run();
    session = addTurnUsage(session, r.usage);
    assert.equal(session.turns, 4);
    assert.equal(session.costUsd, undefined);
    assert.ok(first.costUsd !== undefined, 'an earlier snapshot is not changed');
    assert.deepEqual(JSON.parse(JSON.stringify(session)), session);
    assert.throws(() => { (EMPTY_SESSION_USAGE as { turns: number }).turns = 5; }, 'the empty usage is frozen');
  });

  it('usage reported in pieces (input first, output later) or cumulatively counts once', () => {
    const split = mergeResponseUsage(mergeResponseUsage(undefined, { inputTokens: 500, outputTokens: 1, cachedInputTokens: 100 }), { inputTokens: 0, outputTokens: 42 });
    assert.deepEqual(split, { inputTokens: 500, outputTokens: 42, cachedInputTokens: 100 });
    const cumulative = [10, 20, 30].reduce<ReturnType<typeof mergeResponseUsage> | undefined>((u, n) => mergeResponseUsage(u, { inputTokens: 500, outputTokens: n }), undefined);
    assert.deepEqual(cumulative, { inputTokens: 500, outputTokens: 30, cachedInputTokens: 0 });
    assert.deepEqual(mergeResponseUsage(undefined, { inputTokens: -5, outputTokens: Number.NaN }), { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });
  });

  it('the token budget: a request whose prompt alone would go over it is not sent (stop "budget")', async () => {
    // Each request: 400 in + 100 out. After two (1,000 spent) the next prompt (≥ 500) would pass 1,400.
    const h = harness(Array.from({ length: 6 }, (_, i) => toolCalls([{ name: 'echo', args: { text: `s${i}` } }], { usage: usage(400, 100) })));
    const r = await h.run({ limits: { maxTurnTokens: 1400 } });
    assert.equal(r.stopReason, 'budget');
    assert.equal(r.iterations, 2);
    assert.equal(h.provider.requests.length, 2);
    assert.ok(r.usage.input + r.usage.output <= 1400);
    assert.equal(r.message, 'Stopped: this turn has used 1000 tokens of its 1400-token budget, and the next request would go over it. Send another message to let it continue.');
    assert.ok(everyCallAnswered(r.messages), 'the last reply\'s calls ran before the stop');
  });

  it('the budget never blocks the first request, and an answer within it ends normally', async () => {
    const h = harness([answer('short', usage(5000, 10))]);
    const r = await h.run({ limits: { maxTurnTokens: 100 } });
    assert.equal(r.stopReason, 'end');
    assert.equal(r.text, 'short');
  });

  it('the context window: a conversation that no longer fits stops with "budget"', async () => {
    const h = harness([toolCalls([{ name: 'echo', args: { text: 'x' } }], { usage: usage(7900, 150) }), answer('never')], { deps: { contextTokens: 8000 } });
    const r = await h.run();
    assert.equal(r.stopReason, 'budget');
    assert.equal(r.iterations, 1);
    assert.match(r.message ?? '', /the conversation \(8050 tokens\) no longer fits the model's 8000-token context window/);
  });

  it('maxOutputTokens and temperature reach the provider', async () => {
    const h = harness([answer('ok')]);
    await h.run({ limits: { maxOutputTokens: 256 }, temperature: 0.2 });
    assert.equal(h.provider.requests[0].maxOutputTokens, 256);
    assert.equal(h.provider.requests[0].temperature, 0.2);
  });
});
