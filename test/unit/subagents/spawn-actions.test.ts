// The spawn tool's actions end to end: a parent's chat turn against the loopback OpenAI server calls
// spawn, the child runs its own full turn (its own session, channel subagent, depth 1) and the
// parent reads the result as a tool result (run, wait) or as one announcement (spawn).
import assert from 'node:assert/strict';
import { reply, text, toolCall } from '../../support/model-script';
import { messagesOf, rigPerTest, until, userTexts } from './subagent-rig';

const hold = (t: string) => ({ parts: [text(t)], holdAfter: 2 });
const toolResults = (body: Record<string, unknown>) => messagesOf(body).filter((m) => m.role === 'tool').map((m) => String(m.content));

describe('spawn tool: actions', () => {
  const rigs = rigPerTest();

  it('run: the child answers in its own session, and the parent reads its answer with tokens and duration', async () => {
    const r = await rigs.start({
      roles: {
        parent: (req, n) => (n === 0 ? reply(toolCall('spawn', { action: 'run', task: 'Count the files', label: 'counter' })) : reply(text('The child said 3.'))),
        child: (_task, _req, n) => (n === 0 ? reply(toolCall('echo', { text: 'three' })) : { ...reply(text('There are 3 files.')), usage: { input: 120, output: 7 } }),
      },
    });
    const key = await r.session();
    const turn = await r.turn(key, 'How many files?');
    assert.equal(turn.stopReason, 'end');
    const result = toolResults(r.server.requests[r.server.requests.length - 1])[0];
    assert.match(result, /^### sa-[0-9a-f]{8} "counter" — done \(\d[\d,]* tokens in, \d+ out, \d+\.\d s\)\nThere are 3 files\.$/);
    const [child] = r.manager.list({ parentSessionKey: key });
    assert.equal(child.status, 'done');
    assert.equal(child.depth, 1);
    assert.ok(child.usage.input >= 120 && child.usage.output >= 7, 'both of its requests counted');
    assert.match(child.sessionKey, /^agent:default:subagent-sa-/);
    const stored = await r.sessions.messages(child.sessionKey);
    assert.deepEqual(stored.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant'], 'its transcript is a persisted session');
    assert.equal(r.childRequests().length, 2);
  });

  it('spawn returns at once; the result reaches the parent as an announcement at its next request; wait returns results', async () => {
    const r = await rigs.start({
      roles: {
        parent: (_req, n) => (n === 0 ? reply(toolCall('spawn', { action: 'spawn', task: 'A' })) : reply(text(`parent ${n}`))),
        child: () => reply(text('child A finished')),
      },
    });
    const key = await r.session();
    const turn = await r.turn(key, 'start A');
    assert.match(toolResultsOfTurn(turn.messages)[0], /^Started sa-[0-9a-f]{8} in the background\./);
    await until(() => r.manager.list({ parentSessionKey: key })[0]?.status === 'done');
    await r.turn(key, 'anything new?');
    const next = r.server.requests.filter((b) => !String(messagesOf(b)[0].content).includes('You are a subagent')).at(-1)!;
    const users = userTexts(next);
    assert.match(users.at(-1)!, /^\[Subagent results\] A subagent you started has finished\.\n\n### sa-[0-9a-f]{8} — done \(.* s\)\nchild A finished$/);
    assert.equal(r.manager.list({ parentSessionKey: key })[0].delivered, true);
    assert.deepEqual(r.manager.inbox(key), [], 'delivered once');
  });

  it('list shows the caller\'s own children only; cancel takes an id, last or all; foreign ids are refused', async () => {
    const r = await rigs.start({ roles: { child: (task) => hold(`working on ${task}`) } });
    const mine = await r.session();
    const theirs = await r.session();
    const exec = (args: unknown, key = mine) => r.x.rt.registry.execute('spawn', args, r.x.rt.context({ channel: 'chat', sessionKey: key }));
    for (const task of ['one', 'two', 'three']) assert.equal((await exec({ action: 'spawn', task, label: task })).isError, false);
    const other = await exec({ action: 'spawn', task: 'theirs' }, theirs);
    await until(() => r.manager.list().every((c) => r.events.some((e) => e.type === 'output' && e.id === c.id)));
    const listed = await exec({ action: 'list' });
    assert.equal(listed.forLLM.split('\n').length, 3);
    assert.match(listed.forLLM, /"one" — running.*: one\n.*"two" — running.*\n.*"three" — running/);

    const foreign = other.details!.id as string;
    const refused = await exec({ action: 'cancel', id: foreign });
    assert.equal(refused.isError, true);
    assert.match(refused.forLLM, /is not one of your subagents/);
    assert.equal(r.manager.get(foreign)!.status, 'running', 'another session\'s child is untouched');

    const last = await exec({ action: 'cancel', id: 'last' });
    assert.match(last.forLLM, /^Cancelled sa-/);
    assert.deepEqual(r.manager.list({ parentSessionKey: mine }).map((c) => c.status), ['running', 'running', 'cancelled']);
    const first = r.manager.list({ parentSessionKey: mine })[0].id;
    await exec({ action: 'cancel', id: first });
    assert.equal(r.manager.get(first)!.status, 'cancelled');
    await exec({ action: 'cancel', id: 'all' });
    assert.deepEqual(r.manager.list({ parentSessionKey: mine }).map((c) => c.status), ['cancelled', 'cancelled', 'cancelled']);
    assert.match((await exec({ action: 'list' })).forLLM, /^(.* — cancelled.*\n?){3}$/);
    // The server hears each aborted request when its socket closes, an event that may come after cancel returns.
    await until(() => r.server.log.filter((l) => l.clientClosed).length >= 3);
  });

  it('steer: the child stops and starts again with the new instruction after its transcript', async () => {
    const r = await rigs.start({
      roles: {
        child: (_task, req, n) => (n === 0 ? hold('starting on the old plan') : reply(text(`steered: ${userTexts(req.body).join(' | ')}`))),
      },
    });
    const key = await r.session();
    const exec = (args: unknown) => r.x.rt.registry.execute('spawn', args, r.x.rt.context({ channel: 'chat', sessionKey: key }));
    const id = (await exec({ action: 'spawn', task: 'Write the report' })).details!.id as string;
    await until(() => r.events.some((e) => e.type === 'output' && e.id === id));
    const steered = await exec({ action: 'steer', id, message: 'Only the summary' });
    assert.match(steered.forLLM, /^Steered sa-/);
    const done = await r.manager.settled(id);
    assert.equal(done!.status, 'done');
    assert.match(done!.result!, /^steered: Write the report \| New instruction from the agent that started you .*: Only the summary$/);
    assert.equal(r.events.filter((e) => e.type === 'started').length, 2);
  });

  it('wait: blocks for the listed children, returns each result, and reports the ones still running at the timeout', async () => {
    const r = await rigs.start({ roles: { child: (task) => (task === 'slow' ? hold('thinking') : reply(text(`${task} is done`))) } });
    const key = await r.session();
    const exec = (args: unknown) => r.x.rt.registry.execute('spawn', args, r.x.rt.context({ channel: 'chat', sessionKey: key }));
    const fast = (await exec({ action: 'spawn', task: 'fast' })).details!.id as string;
    const slow = (await exec({ action: 'spawn', task: 'slow' })).details!.id as string;
    // The fast child's end is awaited first: the one-second timeout is then only the slow child's
    // (a busy machine must not turn "fast" into "still running").
    await r.manager.settled(fast);
    const waited = await exec({ action: 'wait', timeoutSeconds: 1 });
    assert.match(waited.forLLM, new RegExp(`^### ${fast} — done .*\\nfast is done\\n\\nStill running after the wait: ${slow} `));
    assert.deepEqual(waited.details, { finished: 1, running: 1 });
    assert.deepEqual(r.manager.inbox(key), [], 'a waited-for result is not announced again');
    await exec({ action: 'cancel', id: slow });
    const again = await exec({ action: 'wait' });
    assert.match(again.forLLM, new RegExp(`^### ${slow} — cancelled`));
  });

  it('the alias sessions_spawn runs spawn; a call without a task says what is missing', async () => {
    const r = await rigs.start({ roles: {} });
    const key = await r.session();
    const ctx = r.x.rt.context({ channel: 'chat', sessionKey: key });
    const viaAlias = await r.x.rt.registry.execute('sessions_spawn', { action: 'run', task: 'hello' }, ctx);
    assert.equal(viaAlias.isError, false);
    assert.match(viaAlias.forLLM, /\ndone: hello$/);
    const missing = await r.x.rt.registry.execute('spawn', { action: 'run' }, ctx);
    assert.match(missing.forLLM, /run needs a task/);
  });
});

function toolResultsOfTurn(messages: { role: string; parts: { type: string; content?: string }[] }[]): string[] {
  return messages.flatMap((m) => m.parts.filter((p) => p.type === 'tool-result').map((p) => p.content ?? ''));
}
