import assert from 'node:assert/strict';
import { z } from 'zod';
import { runAgentTurn } from '../../../src/core/agent/agent-loop';
import type { TurnEvent } from '../../../src/core/agent/agent-types';
import type { CallEnd } from '../../../src/core/tools/call-record';
import { defineTool, ok, type Tool } from '../../../src/core/tools/types';
import { answer, toolCalls, type ScriptedProvider } from '../../support/scripted-provider';
import { everyCallAnswered, harness, resultsOf } from './agent-loop-harness';

const endOrder = (events: TurnEvent[]) => events.flatMap((e) => (e.type === 'tool-end' ? [e.id] : []));
const eventOrder = (events: TurnEvent[]) => events.flatMap((e) => (e.type === 'tool-start' || e.type === 'tool-end' ? [`${e.type === 'tool-start' ? '>' : '<'}${e.id}`] : []));

describe('agent loop: running tool calls', () => {
  it('read-only calls of one reply run in parallel: each waits until the other has started', async () => {
    // Run one after the other, the first call would wait for its partner forever (the test's timeout).
    const clock = { t: 1000, now() { return this.t; } };
    const h = harness([toolCalls([{ name: 'meet', args: { tag: 'a' }, id: 'a' }, { name: 'meet', args: { tag: 'b' }, id: 'b' }]), answer('met')], {
      tools: [meetingTool(2, () => (clock.t += 300))], deps: { clock },
    });
    const r = await h.run();
    assert.deepEqual(resultsOf(r.messages).map((p) => p.content), ['met a', 'met b']);
    assert.deepEqual(eventOrder(h.events).slice(0, 2), ['>a', '>b'], 'both started before either ended');
    const ends = h.events.flatMap((e) => (e.type === 'tool-end' ? [e.durationMs] : []));
    assert.deepEqual(ends, [300, 300], 'each call reports its own duration, from its own start');
  });

  it('mutating calls run one at a time, in the order the model wrote them', async () => {
    const h = harness([toolCalls([
      { name: 'journal', args: { entry: 'first', ms: 120 } },
      { name: 'journal', args: { entry: 'second', ms: 10 } },
      { name: 'journal', args: { entry: 'third', ms: 40 } },
    ]), answer('written')]);
    const r = await h.run();
    assert.deepEqual(h.journal, ['start first', 'end first', 'start second', 'end second', 'start third', 'end third']);
    assert.deepEqual(resultsOf(r.messages).map((p) => p.content), ['wrote first', 'wrote second', 'wrote third']);
  });

  it('results come back in call order even when a later call finishes first', async () => {
    const h = harness([toolCalls([
      { name: 'sleep', args: { ms: 200, tag: 'slow' }, id: 'slow' },
      { name: 'sleep', args: { ms: 5, tag: 'fast' }, id: 'fast' },
    ]), answer('ok')]);
    const r = await h.run();
    assert.deepEqual(endOrder(h.events), ['fast', 'slow'], 'the fast one finished first');
    assert.deepEqual(r.messages.slice(1, 3).map((m) => (m.parts[0] as { id: string }).id), ['slow', 'fast']);
  });

  it('a read after a write waits for it, and a write waits for the reads before it', async () => {
    const h = harness([toolCalls([
      { name: 'sleep', args: { ms: 80, tag: 'r1' }, id: 'r1' },
      { name: 'echo', args: { text: 'r2' }, id: 'r2' },
      { name: 'journal', args: { entry: 'w', ms: 50 }, id: 'w' },
      { name: 'sleep', args: { ms: 5, tag: 'r3' }, id: 'r3' },
    ]), answer('ok')]);
    const r = await h.run();
    const order = eventOrder(h.events);
    // r1 and r2 overlap (r2 ends while r1 runs); w starts after both ended; r3 starts after w ended.
    assert.deepEqual(order, ['>r1', '>r2', '<r2', '<r1', '>w', '<w', '>r3', '<r3']);
    assert.deepEqual(resultsOf(r.messages).map((p) => p.id), ['r1', 'r2', 'w', 'r3']);
  });

  it('a call with cut-off arguments is not run; the pipeline answers it and asks for complete JSON arguments', async () => {
    const h = harness([
      toolCalls([
        { name: 'journal', args: '{"entry": "a very long ent', malformed: 'unexpected end of JSON input' },
        { name: 'echo', args: { text: 'fine' } },
      ]),
      answer('I will retry'),
    ]);
    const logged: CallEnd[] = [];
    h.rt.registry.onCallEnd.on((e) => logged.push(e));
    const r = await h.run();
    assert.deepEqual(h.journal, [], 'the malformed write did not run');
    const [bad, good] = resultsOf(r.messages);
    assert.equal(bad.isError, true);
    assert.match(bad.content, /^The arguments for journal could not be read \(unexpected end of JSON input\); it did not run\. This usually means your output was cut off/);
    assert.equal(good.content, 'fine');
    assert.equal(r.stopReason, 'end');
    // Through the one door: the tool log has its row like any other call's.
    assert.deepEqual(logged.map((e) => `${e.tool}:${e.outcome}`), ['journal:invalid', 'echo:ok']);
    // The malformed call is kept in history as the model sent it, answered by the guidance.
    assert.deepEqual(r.messages[0].parts[0], { type: 'tool-call', id: 'call-1', name: 'journal', args: '{"entry": "a very long ent', malformed: 'unexpected end of JSON input' });
  });

  it('cut-off calls count against the rate limit, and stay unrun even when nothing of them arrived', async () => {
    // A mutating call costs 2 of a burst of 3: the second cut-off write is over the limit.
    const h = harness([
      toolCalls([
        { name: 'journal', args: '', malformed: 'The arguments were cut off by the output token limit before any arrived.' },
        { name: 'journal', args: '{"entry":', malformed: 'cut off' },
      ]),
      answer('done'),
    ], { settings: { 'rateLimit.enabled': true, 'rateLimit.burst': 3, 'rateLimit.perMinute': 1 } });
    const r = await h.run();
    assert.deepEqual(h.journal, []);
    const [first, second] = resultsOf(r.messages);
    assert.match(first.content, /^The arguments for journal could not be read \(The arguments were cut off by the output token limit before any arrived\.\); it did not run/);
    assert.match(second.content, /^Rate limit reached for this session/);
  });

  it('the guidance stays short whatever the provider says went wrong', async () => {
    const h = harness([toolCalls([{ name: 'journal', args: 'x'.repeat(10_000), malformed: 'bad\n'.repeat(1000) }]), answer('ok')]);
    const [g] = resultsOf((await h.run()).messages);
    assert.ok(g.content.length < 600, `${g.content.length} characters`);
    assert.ok(!g.content.includes('\n'));
  });

  it('the loop detector halts the turn: the same failing call five times stops it with reason "loop"', async () => {
    const h = harness(Array.from({ length: 8 }, () => toolCalls([{ name: 'echo', args: {} }])));
    const r = await h.run();
    assert.equal(r.stopReason, 'loop');
    assert.equal(r.iterations, 5);
    assert.equal(h.provider.requests.length, 5);
    assert.match(r.message ?? '', /^Run stopped by loop detection: echo was called with the same arguments 5 times/);
    const results = resultsOf(r.messages);
    assert.match(results[0].content, /^echo received no arguments, but it needs "text"/);
    assert.match(results[2].content, /\[Pincer loop warning\]/);
    assert.match(results[4].content, /\[Pincer stopped this run\]/);
    // A new user turn resets the detector: the same session may call tools again.
    const again = harness([toolCalls([{ name: 'echo', args: { text: 'back' } }]), answer('ok')]);
    const r2 = await runAgainOn(h, again.provider);
    assert.equal(r2.stopReason, 'end');
    assert.equal(resultsOf(r2.messages)[0].content, 'back');
  });

  it('a halt in the middle of one reply: the calls after it are answered, not run', async () => {
    const calls = [...Array.from({ length: 6 }, () => ({ name: 'journal', args: { entry: 'same' } })), { name: 'echo', args: { text: 'after' } }];
    const h = harness([toolCalls(calls.map((c, i) => ({ ...c, id: `c${i}` }))), answer('never')]);
    const r = await h.run();
    assert.equal(r.stopReason, 'loop');
    assert.equal(h.journal.filter((l) => l.startsWith('end')).length, 5, 'the fifth identical write tripped the detector');
    const results = resultsOf(r.messages);
    assert.equal(results.length, 7);
    assert.match(results[4].content, /\[Pincer stopped this run\]/);
    assert.equal(results[5].content, 'journal did not run: the run was stopped by loop detection before this call.');
    assert.equal(results[6].content, 'echo did not run: the run was stopped by loop detection before this call.');
    assert.ok(everyCallAnswered(r.messages));
    assert.equal(h.provider.requests.length, 1);
  });

  it('loop thresholds from the settings apply (sameCall critical 3)', async () => {
    const h = harness(Array.from({ length: 5 }, () => toolCalls([{ name: 'echo', args: { text: 'same' } }])), {
      settings: { 'loopDetection.thresholds': { sameCall: { warn: 2, critical: 3 } } },
    });
    const r = await h.run();
    assert.equal(r.stopReason, 'loop');
    assert.equal(r.iterations, 3);
  });

  it('cancel while a tool runs: the tool stops, the turn ends at once, later calls are answered', async () => {
    // The sleep outlasts the test's timeout: the turn ends only because the cancel stopped it.
    const h = harness([toolCalls([
      { name: 'sleep', args: { ms: 600_000 }, id: 'long' },
      { name: 'journal', args: { entry: 'later' }, id: 'later' },
    ]), answer('never')]);
    const ac = new AbortController();
    const r = await h.run({ signal: ac.signal, onEvent: cancelOnStart(h.events, ac, 'long') });
    assert.equal(r.stopReason, 'cancelled');
    assert.equal(r.message, 'Stopped: you cancelled the turn.');
    const [long, later] = resultsOf(r.messages);
    assert.equal(long.isError, true);
    assert.match(long.content, /cancelled/);
    assert.equal(later.content, 'journal did not run: the user cancelled the turn before this call.');
    assert.deepEqual(h.journal, []);
    assert.equal(h.provider.requests.length, 1);
    assert.ok(everyCallAnswered(r.messages));
  });

  it('cancel while a tool ignores the signal: the turn still ends, with the tool still running', async () => {
    let release!: () => void;
    let finished = false;
    const stuck = defineTool({
      name: 'stuck', group: 'fs', capability: 'read-only', description: 'Ignores cancels.', parameters: z.object({}),
      async execute() {
        await new Promise<void>((r) => (release = r));
        finished = true;
        return ok('finished');
      },
    }) as Tool;
    const h = harness([toolCalls([{ name: 'stuck', args: {}, id: 's' }]), answer('never')], { tools: [stuck] });
    const ac = new AbortController();
    const r = await h.run({ signal: ac.signal, onEvent: cancelOnStart(h.events, ac, 's') });
    assert.equal(finished, false, 'the turn ended before the tool did');
    release();
    assert.equal(r.stopReason, 'cancelled');
    assert.equal(resultsOf(r.messages).length, 1);
    assert.ok(everyCallAnswered(r.messages));
  });

  it('tool-call events carry scrubbed arguments', async () => {
    const key = `sk-${'a1B2c3D4e5'.repeat(3)}`;
    const h = harness([toolCalls([{ name: 'echo', args: { text: `key ${key}` } }]), answer('ok')]);
    const r = await h.run();
    const start = h.events.find((e) => e.type === 'tool-start');
    assert.ok(start && start.type === 'tool-start');
    assert.ok(!start.args.includes(key), start.args);
    assert.ok(!resultsOf(r.messages)[0].content.includes(key), 'the pipeline scrubbed the result');
  });
});

/** Records the turn's events and cancels it once the call `id` has started. */
function cancelOnStart(events: TurnEvent[], ac: AbortController, id: string) {
  return (e: TurnEvent) => {
    events.push(e);
    if (e.type === 'tool-start' && e.id === id) setImmediate(() => ac.abort());
  };
}

/**
 * A read-only tool whose calls return only once `size` of them are running at the same time;
 * `meet()` runs once when they all have (the test moves its clock there).
 */
function meetingTool(size: number, meet: () => void): Tool {
  const waiting: (() => void)[] = [];
  return defineTool({
    name: 'meet', group: 'fs', capability: 'read-only', description: 'Waits for the other calls.',
    parameters: z.object({ tag: z.string() }),
    async execute(args, ctx) {
      await new Promise<void>((resolve, reject) => {
        waiting.push(resolve);
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
        if (waiting.length === size) {
          meet();
          for (const w of waiting.splice(0)) w();
        }
      });
      return ok(`met ${args.tag}`);
    },
  }) as Tool;
}

/** A second turn on the same runtime and session as `h`, answered by another script. */
function runAgainOn(h: ReturnType<typeof harness>, provider: ScriptedProvider) {
  return runAgentTurn({ ...h.deps, provider }, {
    sessionKey: 'chat:s1', agentId: 'default', turnId: 't2', history: [], user: 'again', system: 'You are a test.',
    tools: h.offered.tools, signal: new AbortController().signal,
  });
}
