// Sessions in a real workspace database: created only on purpose, owned by one agent, messages in
// order with their usage, scrubbed on the way in, paged, deleted whole, there again after a reopen;
// and the session tools through the real pipeline with GoClaw's ownership and phantom-session checks.
import assert from 'node:assert/strict';
import type { ModelMessage } from '../../../src/core/agent/model-types';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { SESSION_MIGRATIONS, SessionStore, childSessionName } from '../../../src/core/sessions/session-store';
import { createSessionsHistoryTool } from '../../../src/core/sessions/tools/sessions-history';
import { createSessionsListTool } from '../../../src/core/sessions/tools/sessions-list';
import { createSessionsSendTool, type SessionRunner } from '../../../src/core/sessions/tools/sessions-send';
import { Database } from '../../../src/core/storage/database';
import { STORAGE_WORKER, removeTempDirs, tempDir } from '../../support/storage-fixtures';
import { runtimeWith } from '../../support/test-tools';

after(removeTempDirs);

const user = (text: string): ModelMessage => ({ role: 'user', parts: [{ type: 'text', text }] });

describe('session store', () => {
  let db: Database;
  let dir: string;
  let clock = 1_000;
  const scrubber = new Scrubber();
  const SECRET = 'sk-live-0123456789abcdefABCDEF';
  scrubber.register(SECRET);
  const open = async () => {
    db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: SESSION_MIGRATIONS });
    return new SessionStore(db, { now: () => clock++ }, (t) => scrubber.scrub(t));
  };
  beforeEach(() => { dir = tempDir('sessions'); });
  afterEach(() => db.close());

  it('creates on purpose only; keeps messages in order with usage; survives a reopen', async () => {
    let store = await open();
    assert.equal(await store.find('agent:default:nope'), undefined, 'a look-up creates nothing');
    assert.equal((await store.list('default')).length, 0);
    const s = await store.create('default', { title: 'First' });
    assert.match(s.key, /^agent:default:/);
    await store.append(s.key, [user('hello'), { role: 'assistant', parts: [{ type: 'text', text: 'hi' }] }], { inputTokens: 10, outputTokens: 3 });
    await store.append(s.key, [user('again')], { inputTokens: 5, outputTokens: 1, cachedInputTokens: 4 });
    await db.close();
    store = await open();
    const again = await store.owned(s.key, 'default');
    assert.equal(again.messageCount, 3);
    assert.deepEqual(again.usage, { inputTokens: 15, outputTokens: 4, cachedInputTokens: 4 });
    const msgs = await store.messages(s.key);
    assert.deepEqual(msgs.map((m) => [m.seq, m.role]), [[1, 'user'], [2, 'assistant'], [3, 'user']]);
    assert.deepEqual((await store.messages(s.key, { fromSeq: 2, limit: 1 })).map((m) => m.seq), [2]);
  });

  it('scrubs text, tool arguments and tool results before they are stored', async () => {
    const store = await open();
    const s = await store.create('default');
    await store.append(s.key, [
      user(`my key is ${SECRET}`),
      { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'exec', args: { command: `curl -H "Authorization: Bearer ${SECRET}" x` } }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 'c1', name: 'exec', content: `echoed ${SECRET}`, isError: false }] },
    ]);
    const raw = await db.query<{ parts: string }>('SELECT parts FROM session_messages');
    assert.ok(raw.every((r) => !r.parts.includes(SECRET)), 'the secret is nowhere in the database');
    const msgs = await store.messages(s.key);
    assert.equal(typeof (msgs[1].parts[0] as { args: { command: string } }).args.command, 'string', 'arguments stay an object');
  });

  it('ownership: another agent (or a look-alike prefix) is refused; delete removes everything', async () => {
    const store = await open();
    const mine = await store.create('a');
    const theirs = await store.create('ab');
    await assert.rejects(store.owned(theirs.key, 'a'), /does not belong to agent "a"/);
    await assert.rejects(store.owned('agent:a:missing', 'a'), /There is no session/);
    assert.deepEqual((await store.list('a')).map((x) => x.key), [mine.key]);
    await store.append(mine.key, [user('x')]);
    await store.delete(mine.key);
    assert.equal(await store.find(mine.key), undefined);
    assert.equal((await db.query('SELECT * FROM session_messages')).length, 0);
  });

  it('the person\'s list leaves out subagents\' sessions, even the newest; the full list keeps them', async () => {
    const store = await open();
    const chat = await store.create('a', { title: 'chat' });
    const child = await store.create('a', { name: childSessionName('sa-1'), title: 'child' });
    const lookalike = await store.create('a', { name: 'subagent', title: 'a chat named subagent' });
    await store.append(child.key, [user('newest')]);
    assert.deepEqual((await store.list('a', { withoutChildren: true })).map((x) => x.title).sort(), ['a chat named subagent', 'chat']);
    assert.equal((await store.list('a', { withoutChildren: true, limit: 1 }))[0].key !== child.key, true, 'the newest is not the child');
    assert.deepEqual((await store.list('a')).map((x) => x.key).sort(), [chat.key, child.key, lookalike.key].sort());
  });

  it('marks: kept after the message they followed, completed in place, scrubbed, paged by seq, deleted with the session', async () => {
    const store = await open();
    const s = await store.create('default');
    await store.append(s.key, [user('run it'), { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'exec', args: {} }] }]);
    const card = await store.mark(s.key, 'approval', { pending: 'ap-1' });
    await store.mark(s.key, 'tool', { callId: 'c1', status: 'denied', durationMs: 12 });
    await store.append(s.key, [{ role: 'assistant', parts: [{ type: 'text', text: 'ok' }] }]);
    await store.mark(s.key, 'turn-end', { stopReason: 'end' });
    await store.updateMark(card, { command: `curl -H "Authorization: Bearer ${SECRET}" x`, answer: 'deny' });
    const marks = await store.marks(s.key);
    assert.deepEqual(marks.map((m) => [m.seq, m.kind]), [[2, 'approval'], [2, 'tool'], [3, 'turn-end']]);
    assert.equal((marks[0].data as { answer: string }).answer, 'deny', 'completed in its place');
    assert.ok(!JSON.stringify(marks).includes(SECRET), 'the secret is scrubbed from a mark');
    assert.deepEqual((await store.marks(s.key, { fromSeq: 3 })).map((m) => m.kind), ['turn-end']);
    assert.deepEqual((await store.marks(s.key, { toSeq: 2 })).map((m) => m.kind), ['approval', 'tool']);
    await store.delete(s.key);
    assert.equal((await db.query('SELECT * FROM session_marks')).length, 0);
  });

  it('the session tools: only your own sessions, look-ups never create, sessions_send runs the other session', async () => {
    const store = await open();
    const mine = await store.create('default', { title: 'Build fixes' });
    const other = await store.create('reviewer', { title: 'Secret review' });
    await store.append(mine.key, [user('fix the build'), { role: 'assistant', parts: [{ type: 'text', text: 'done' }] }]);
    const sent: string[] = [];
    const runner: SessionRunner = { async send(key, text) { sent.push(`${key}:${text}`); await store.append(key, [user(text)]); return { reply: 'on it' }; } };
    const rt = runtimeWith();
    rt.replaceTools([createSessionsListTool(async () => store), createSessionsHistoryTool(async () => store), createSessionsSendTool(async () => store, () => runner)] as never);
    const ctx = (agentId: string, sessionKey = `agent:${agentId}:current`) => rt.context({ channel: 'test', agentId, sessionKey });
    const list = await rt.registry.execute('sessions_list', {}, ctx('default'));
    assert.match(list.forLLM, /Build fixes/);
    assert.doesNotMatch(list.forLLM, /Secret review/);
    const hist = await rt.registry.execute('sessions_history', { key: mine.key }, ctx('default'));
    assert.match(hist.forLLM, /#1 user: fix the build\n#2 assistant: done/);
    const foreign = await rt.registry.execute('sessions_history', { key: other.key }, ctx('default'));
    assert.equal(foreign.isError, true);
    const phantom = await rt.registry.execute('sessions_history', { key: 'agent:default:ghost' }, ctx('default'));
    assert.equal(phantom.isError, true);
    assert.equal(await store.find('agent:default:ghost'), undefined, 'the look-up created nothing');
    const reply = await rt.registry.execute('sessions_send', { key: mine.key, message: 'and the tests' }, ctx('default'));
    assert.match(reply.forLLM, /Reply from "Build fixes":\non it/);
    assert.deepEqual(sent, [`${mine.key}:and the tests`]);
    const self = await rt.registry.execute('sessions_send', { key: mine.key, message: 'x' }, ctx('default', mine.key));
    assert.equal(self.isError, true);
    const cross = await rt.registry.execute('sessions_send', { key: other.key, message: 'x' }, ctx('default'));
    assert.equal(cross.isError, true);
    assert.equal(sent.length, 1);
  });
});
