import assert from 'node:assert/strict';
import { ModelError, type ModelMessage } from '../../../src/core/agent/model-types';
import { answer, toolCalls, usage } from '../../support/scripted-provider';
import { stubTool } from '../../support/test-tools';
import { everyCallAnswered, harness, resultsOf, texts } from './agent-loop-harness';

describe('agent loop: a turn and how it ends', () => {
  it('a final answer: text streamed as it comes, one assistant message, stop "end"', async () => {
    const h = harness([answer(['Hel', 'lo ', 'there.'])]);
    const r = await h.run();
    assert.equal(r.stopReason, 'end');
    assert.equal(r.text, 'Hello there.');
    assert.equal(r.iterations, 1);
    assert.equal(r.message, undefined);
    assert.deepEqual(r.messages, [{ role: 'assistant', parts: [{ type: 'text', text: 'Hello there.' }] }]);
    assert.deepEqual(h.events.filter((e) => e.type === 'text').map((e) => e.type === 'text' && e.text), ['Hel', 'lo ', 'there.']);
    // What the provider got: the system prompt, then the user message, and the offered tools sorted.
    const req = h.provider.requests[0];
    assert.equal(req.model, 'scripted-1');
    assert.deepEqual(req.messages, [
      { role: 'system', parts: [{ type: 'text', text: 'You are a test.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'hello' }] },
    ]);
    const names = req.tools.map((t) => t.name);
    assert.deepEqual(names, [...names].sort());
    assert.ok(names.includes('echo') && names.includes('journal') && names.includes('datetime'));
  });

  it('a tool call, its result fed back, then the answer', async () => {
    const h = harness([
      toolCalls([{ name: 'echo', args: { text: 'ping', times: 2 } }], { text: 'Let me check.' }),
      (req) => answer(`The tool said ${(req.messages.at(-1)!.parts[0] as { content: string }).content}.`),
    ]);
    const r = await h.run();
    assert.equal(r.stopReason, 'end');
    assert.equal(r.iterations, 2);
    assert.equal(r.text, 'The tool said pingping.');
    assert.deepEqual(r.messages, [
      { role: 'assistant', parts: [{ type: 'text', text: 'Let me check.' }, { type: 'tool-call', id: 'call-1', name: 'echo', args: { text: 'ping', times: 2 } }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'call-1', name: 'echo', content: 'pingping', isError: false }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'The tool said pingping.' }] },
    ]);
    // The second request carries the first reply and its result after the user message.
    assert.deepEqual(h.provider.requests[1].messages.slice(2), r.messages.slice(0, 2));
    const start = h.events.find((e) => e.type === 'tool-start');
    const end = h.events.find((e) => e.type === 'tool-end');
    assert.deepEqual(start, { type: 'tool-start', iteration: 1, id: 'call-1', name: 'echo', args: '{"text":"ping","times":2}' });
    assert.ok(end && end.type === 'tool-end');
    assert.equal(end.isError, false);
    assert.equal(end.preview, '**ping**', 'the preview is what a person sees (forUser)');
    assert.ok(end.durationMs >= 0);
    // Messages are announced as they are added, in order, for sessions to store.
    assert.deepEqual(h.events.flatMap((e) => (e.type === 'message' ? [e.message] : [])), r.messages);
    assert.equal(texts(h.events), 'Let me check.The tool said pingping.');
  });

  it('tools run with the turn\'s context: session, agent, turn, provider, channel chat', async () => {
    const h = harness([toolCalls([{ name: 'session_status', args: {} }]), answer('ok')]);
    const r = await h.run({ sessionKey: 'chat:abc', agentId: 'default', toolContext: { workspaceRoot: '/ws/demo' } });
    const status = resultsOf(r.messages)[0].content;
    assert.match(status, /^Session: chat:abc$/m);
    assert.match(status, /^Agent: default \(provider scripted\)$/m);
    assert.match(status, /^Entry point: chat$/m);
    assert.match(status, /^Workspace: \/ws\/demo$/m);
  });

  it('earlier turns go before the user message; a call left unanswered in history is answered there', async () => {
    const history: ModelMessage[] = [
      { role: 'user', parts: [{ type: 'text', text: 'first' }] },
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'old-1', name: 'echo', args: { text: 'x' } }, { type: 'tool-call', id: 'old-2', name: 'echo', args: { text: 'y' } }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'old-1', name: 'echo', content: 'x', isError: false }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'stray', name: 'echo', content: '?', isError: false }] },
    ];
    const h = harness([answer('second answer')]);
    await h.run({ history, user: { role: 'user', parts: [{ type: 'text', text: 'second' }, { type: 'text', text: '(selection: a.ts 1-3)' }] } });
    const sent = h.provider.requests[0].messages;
    assert.equal(sent.length, 6);
    assert.deepEqual(sent[1], history[0]);
    assert.deepEqual(sent[3], history[2]);
    assert.equal(sent[4].role, 'tool');
    assert.deepEqual(sent[4].parts[0], { type: 'tool-result', id: 'old-2', name: 'echo', content: 'echo did not run: the conversation was interrupted before this call finished; call it again if you still need it.', isError: true });
    assert.ok(everyCallAnswered(sent), 'the stray result is dropped and old-2 answered');
    assert.deepEqual(sent[5].parts.map((p) => p.type === 'text' && p.text), ['second', '(selection: a.ts 1-3)']);
  });

  it('the iteration cap ends a turn that keeps calling tools, and says so', async () => {
    let n = 0;
    const forever = () => toolCalls([{ name: 'echo', args: { text: `step ${++n}` } }]);
    const h = harness(Array.from({ length: 10 }, () => forever));
    const r = await h.run({ limits: { maxIterations: 3 } });
    assert.equal(r.stopReason, 'max-iterations');
    assert.equal(r.iterations, 3);
    assert.equal(h.provider.requests.length, 3);
    assert.match(r.message ?? '', /Stopped after 3 model requests without a final answer \(the limit for one turn is 3\)/);
    assert.deepEqual(resultsOf(r.messages).map((p) => p.content), ['step 1', 'step 2', 'step 3'], 'the last reply\'s calls still ran');
    assert.ok(everyCallAnswered(r.messages));
  });

  it('the default cap is 20 requests', async () => {
    const h = harness(Array.from({ length: 25 }, (_, i) => toolCalls([{ name: 'echo', args: { text: `n${i}` } }])));
    const r = await h.run();
    assert.equal(r.stopReason, 'max-iterations');
    assert.equal(r.iterations, 20);
    assert.equal(h.provider.remaining, 5);
  });

  it('an answer cut off at the output limit ends with "length"; a cut-off reply with tool calls goes on', async () => {
    const h = harness([[{ text: 'The answer is long and' }, { stop: 'length' }]]);
    const r = await h.run();
    assert.equal(r.stopReason, 'length');
    assert.equal(r.text, 'The answer is long and');
    assert.match(r.message ?? '', /cut off at the model's output limit/);

    const h2 = harness([[{ call: { id: 'a', name: 'echo', args: { text: 'z' } } }, { stop: 'length' }], answer('done')]);
    const r2 = await h2.run();
    assert.equal(r2.stopReason, 'end');
    assert.equal(resultsOf(r2.messages)[0].content, 'z');
  });

  it('a provider error that is not retryable ends the turn at once with its message', async () => {
    const h = harness([[{ throw: new ModelError('model "x" does not exist', false, 404) }], answer('never')]);
    const r = await h.run();
    assert.equal(r.stopReason, 'error');
    assert.equal(r.message, 'model "x" does not exist (HTTP 404)');
    assert.equal(h.provider.requests.length, 1);
    assert.deepEqual(h.sleeps, []);
    assert.deepEqual(r.messages, []);
  });

  it('a stream that ends with stop "error", and an error that is not a ModelError, end the turn too', async () => {
    const h = harness([[{ text: 'par' }, { stop: 'error', message: 'upstream closed' }]]);
    const r = await h.run();
    assert.equal(r.stopReason, 'error');
    assert.equal(r.message, 'upstream closed');
    assert.deepEqual(r.messages, [{ role: 'assistant', parts: [{ type: 'text', text: 'par' }] }]);

    const h2 = harness([[{ throw: new TypeError('fetch failed') }]]);
    const r2 = await h2.run();
    assert.equal(r2.stopReason, 'error');
    assert.equal(r2.message, 'fetch failed');
    assert.deepEqual(h2.sleeps, [], 'only ModelError says whether a retry helps');
  });

  it('a content filter stop ends the turn; its tool calls are answered, not run', async () => {
    const h = harness([[{ call: { id: 'w', name: 'journal', args: { entry: 'x' } } }, { stop: 'content-filter' }]]);
    const r = await h.run();
    assert.equal(r.stopReason, 'content-filter');
    assert.deepEqual(h.journal, []);
    assert.ok(everyCallAnswered(r.messages));
    assert.match(resultsOf(r.messages)[0].content, /^journal did not run: the provider's content filter/);
  });

  it('an unknown tool name goes through the pipeline, which answers with the tools there are', async () => {
    const h = harness([toolCalls([{ name: 'teleport', args: { to: 'mars' } }]), answer('sorry')]);
    const r = await h.run();
    const res = resultsOf(r.messages)[0];
    assert.equal(res.isError, true);
    assert.match(res.content, /^Unknown tool "teleport"\. Tools you can call: .*echo/);
    assert.equal(r.stopReason, 'end');
  });

  it('a tool that was not offered this turn is refused at call time', async () => {
    const h = harness([toolCalls([{ name: 'journal', args: { entry: 'sneaky' } }]), answer('ok')]);
    const r = await h.run({ tools: h.offered.tools.filter((t) => t.name !== 'journal') });
    assert.match(resultsOf(r.messages)[0].content, /was not offered to you in this request/);
    assert.deepEqual(h.journal, []);
  });

  it('an alias of an offered tool is accepted', async () => {
    const h = harness([toolCalls([{ name: 'Read', args: { path: 'a.txt' } }]), answer('ok')], { tools: [stubTool('read_file', 'fs', 'read-only')] });
    assert.ok(h.offered.aliases.some((a) => a.name === 'Read' && a.target === 'read_file'));
    const r = await h.run();
    assert.deepEqual(resultsOf(r.messages)[0], { type: 'tool-result', id: 'call-1', name: 'Read', content: 'read_file ran with {"path":"a.txt"}', isError: false });
  });

  it('a listener that throws does not change the turn', async () => {
    const h = harness([toolCalls([{ name: 'echo', args: { text: 'a' } }]), answer('fine')]);
    const r = await h.run({ onEvent: () => { throw new Error('view gone'); } });
    assert.equal(r.stopReason, 'end');
    assert.equal(r.text, 'fine');
  });

  it('a signal aborted before the turn starts: no request, stop "cancelled"', async () => {
    const h = harness([answer('never')]);
    const ac = new AbortController();
    ac.abort();
    const r = await h.run({ signal: ac.signal });
    assert.equal(r.stopReason, 'cancelled');
    assert.equal(h.provider.requests.length, 0);
    assert.deepEqual(r.messages, []);
  });

  it('an empty reply ends the turn with no message added', async () => {
    const h = harness([[{ usage: usage(5, 0) }, { stop: 'end' }]]);
    const r = await h.run();
    assert.equal(r.stopReason, 'end');
    assert.equal(r.text, '');
    assert.deepEqual(r.messages, []);
  });

  it('calls without ids (or with duplicate ids) get unique ones, matched by their results', async () => {
    const h = harness([[
      { call: { id: '', name: 'echo', args: { text: 'a' } } },
      { call: { id: 'dup', name: 'echo', args: { text: 'b' } } },
      { call: { id: 'dup', name: 'echo', args: { text: 'c' } } },
      { stop: 'tool-calls' },
    ], answer('ok')]);
    const r = await h.run();
    const ids = (r.messages[0].parts as { id: string }[]).map((p) => p.id);
    assert.equal(new Set(ids).size, 3);
    assert.deepEqual(resultsOf(r.messages).map((p) => [p.id, p.content]), [[ids[0], 'a'], [ids[1], 'b'], [ids[2], 'c']]);
    assert.ok(everyCallAnswered(r.messages));
  });

  it('the result is plain JSON: it survives a round trip unchanged', async () => {
    const h = harness([toolCalls([{ name: 'echo', args: { text: 'j' } }], { usage: usage(100, 7, 20) }), answer('done')]);
    const r = await h.run();
    assert.deepEqual(JSON.parse(JSON.stringify(r)), r);
  });
  describe('odd and hostile streams', () => {
    it('a stream that ends without a stop event counts as an answer; events after the stop are ignored', async () => {
      const h = harness([[{ text: 'no stop' }], [{ text: 'a' }, { stop: 'end' }, { text: 'ignored' }]]);
      const r = await h.run();
      assert.equal(r.stopReason, 'end');
      assert.equal(r.text, 'no stop');
      const r2 = await h.run();
      assert.equal(r2.text, 'a');
    });

    it('forty calls in one reply are all run and answered in order', async () => {
      const calls = Array.from({ length: 40 }, (_, i) => ({ name: 'echo', args: { text: `n${i}` }, id: `c${i}` }));
      const h = harness([toolCalls(calls), answer('done')]);
      const r = await h.run();
      assert.deepEqual(resultsOf(r.messages).map((p) => p.content), calls.map((c) => c.args.text));
      assert.ok(everyCallAnswered(r.messages));
    });

    it('huge arguments are shortened in events but sent back to the model whole', async () => {
      const big = 'z'.repeat(200_000);
      const h = harness([toolCalls([{ name: 'echo', args: { text: big } }]), answer('ok')]);
      const r = await h.run();
      const start = h.events.find((e) => e.type === 'tool-start');
      assert.ok(start && start.type === 'tool-start' && start.args.length <= 1001);
      const end = h.events.find((e) => e.type === 'tool-end');
      assert.ok(end && end.type === 'tool-end' && end.preview.length <= 501);
      assert.deepEqual((r.messages[0].parts[0] as { args: unknown }).args, { text: big });
      assert.deepEqual((h.provider.requests[1].messages[2].parts[0] as { args: unknown }).args, { text: big });
    });
  });
});
