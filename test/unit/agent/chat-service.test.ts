// A chat turn end to end: the real OpenAI provider against the loopback server, sessions in a real
// database, the agent's SOUL.md from the real routing service in the system prompt, the file tools on
// a temp workspace. The next turn sees the stored history; sessions_send runs a turn elsewhere.
import assert from 'node:assert/strict';
import { ChatService, titleFrom } from '../../../src/core/agent/chat-service';
import { toChatMessages } from '../../../src/core/chat/chat-history';
import { createOpenAiProvider } from '../../../src/core/agent/providers/openai-provider';
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { createFsTools } from '../../../src/core/fs/fs-tools';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { SESSION_MIGRATIONS, SessionStore } from '../../../src/core/sessions/session-store';
import { Database } from '../../../src/core/storage/database';
import { makeGuard, makeWorkspace, removeTempDirs } from '../../support/fs-fixtures';
import { reply, text, toolCall, type ScriptRequest, type ScriptStep } from '../../support/model-script';
import type { ModelServer } from '../../support/model-server-base';
import { makeImage } from '../../support/make-images';
import { startOpenAiChatServer } from '../../support/openai-chat-server';
import { STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { runtimeWith } from '../../support/test-tools';
import { openRouted, shared, type Routed } from '../memory/routed-fixture';

type Msg = { role: string; content?: unknown };

describe('chat service', () => {
  let server: ModelServer | undefined;
  let db: Database | undefined;
  let routed: Routed | undefined;
  afterEach(async () => {
    await server?.close();
    await db?.close();
    await routed?.db.close();
    server = undefined;
  });
  after(removeTempDirs);

  async function setup(script: (req: ScriptRequest) => ScriptStep, settings: Record<string, unknown> = {}, extra: Partial<ConstructorParameters<typeof ChatService>[0]> = {}) {
    const ws = makeWorkspace({ 'notes.txt': 'The launch code is banana7\n' });
    const fs = new NodeWorkspaceFs();
    const rt = runtimeWith({ 'rateLimit.enabled': false, ...settings }, createFsTools({ guard: makeGuard([ws.root]), fs, reviewer: new AutoApplyReviewer(fs) }));
    server = await startOpenAiChatServer(script);
    db = await Database.open({ dir: tempDir('chat'), workerPath: STORAGE_WORKER, migrations: SESSION_MIGRATIONS });
    const store = new SessionStore(db, undefined, (t) => rt.scrubber.scrub(t));
    routed = await openRouted();
    await routed.routed.write(shared('coder'), 'SOUL.md', 'You are Coder. Answer in one sentence.', { actor: 'person', level: 'agent' });
    const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: 'sk-test-0123456789abcdef' });
    const chat = new ChatService({
      rt, sessions: async () => store, model: async () => ({ provider, model: 'test-model' }),
      agent: (id) => routed!.agents.resolve(id), contextFiles: routed.routed, user: () => 'alice',
      workspace: () => ({ root: ws.root, name: 'ws' }), toolContext: () => ({ workspaceRoot: ws.root, workspaceTrusted: true, isOwner: true }),
      ...extra,
    });
    return { chat, store, server: server! };
  }

  it('runs a turn with the agent\'s context in the prompt, stores it, and the next turn sees it', async () => {
    const { chat, store, server } = await setup((req) => {
      const msgs = req.body.messages as Msg[];
      if (!msgs.some((m) => m.role === 'tool')) return reply(text('Reading.'), toolCall('read_file', { path: 'notes.txt' }));
      return reply(text(`It is banana7. (turn ${msgs.filter((m) => m.role === 'user').length})`));
    });
    const s = await store.create('coder');
    const events: string[] = [];
    const r = await chat.turn({ sessionKey: s.key, agentId: 'coder', text: 'What is the launch code?\nBe quick.', signal: new AbortController().signal, onEvent: (e) => events.push(e.type) });
    assert.equal(r.stopReason, 'end');
    assert.match(r.text, /banana7/);
    assert.ok(events.includes('tool-start') && events.includes('text'));
    const first = server.requests[0] as { messages: Msg[] };
    assert.equal(first.messages[0].role, 'system');
    assert.match(String(first.messages[0].content), /You are Coder/);
    const stored = await store.messages(s.key);
    assert.deepEqual(stored.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
    const rec = await store.owned(s.key, 'coder');
    assert.equal(rec.title, 'What is the launch code?');
    assert.ok(rec.usage.inputTokens > 0, 'usage stored');

    const again = await chat.turn({ sessionKey: s.key, agentId: 'coder', text: 'And again?', signal: new AbortController().signal });
    assert.match(again.text, /turn 2/, 'the second turn carried the first in its history');
    const lastReq = server.requests.at(-1) as { messages: Msg[] };
    assert.equal(lastReq.messages[0].content, first.messages[0].content, 'the same system prompt, byte for byte (prompt caches hit)');
  });

  it("refuses another agent's session and says what to do without a model", async () => {
    const { chat, store } = await setup(() => reply(text('hi')));
    const theirs = await store.create('support');
    await assert.rejects(chat.turn({ sessionKey: theirs.key, agentId: 'coder', text: 'x', signal: new AbortController().signal }), /does not belong/);
  });

  it('sessions_send runs a turn in the other session and returns its answer', async () => {
    const { chat, store } = await setup(() => reply(text('Handled over there.')));
    const other = await store.create('coder', { title: 'Other' });
    const r = await chat.runner().send(other.key, 'please handle', { agentId: 'coder', signal: new AbortController().signal } as never);
    assert.equal(r.reply, 'Handled over there.');
    assert.equal((await store.messages(other.key)).length, 2);
  });

  it('prices from pincer.chat.pricing give the turn a cost; a model without one has none', async () => {
    const { chat, store } = await setup(() => ({ ...reply(text('ok')), usage: { input: 1_000_000, output: 500_000 } }), {
      'chat.pricing': { 'test-model': { inputPerMTok: 2, outputPerMTok: 8 } },
    });
    const s = await store.create('coder');
    const r = await chat.turn({ sessionKey: s.key, agentId: 'coder', text: 'hi', signal: new AbortController().signal });
    assert.equal(r.usage.costUsd, 2 + 4);
  });

  it('a team lead\'s turn has TEAM.md in its system prompt; a subagent\'s turn (a member) never asks for it', async () => {
    const asked: string[] = [];
    let lead = { key: '' };
    const { chat, store, server } = await setup(() => reply(text('ok')), {}, {
      teamMd: async (key, agent) => {
        asked.push(agent);
        return agent === 'coder' && key === lead.key ? '# TEAM.md — team Web (web)\nYou lead it.' : undefined;
      },
    });
    lead = await store.create('coder');
    await chat.turn({ sessionKey: lead.key, agentId: 'coder', text: 'Plan the work.', signal: new AbortController().signal });
    const member = await store.create('coder');
    await chat.turn({ sessionKey: member.key, agentId: 'coder', text: 'Do task 1.', signal: new AbortController().signal, toolContext: { subagentDepth: 1 } });
    const systems = server.requests.map((r) => String((r as { messages: Msg[] }).messages[0].content));
    assert.match(systems[0]!, /# TEAM\.md — team Web \(web\)\nYou lead it\./);
    assert.doesNotMatch(systems[1]!, /TEAM\.md/);
    assert.deepEqual(asked, ['coder'], 'asked once, for the top-level turn only');
  });

  it('a pasted image goes to the model as an image part of the user message, and is stored with it', async () => {
    const { chat, store, server } = await setup(() => reply(text('A login form.')));
    const s = await store.create('coder');
    const png = await makeImage('image/png', 40, 30);
    const r = await chat.turn({ sessionKey: s.key, agentId: 'coder', text: 'What is this?', images: [{ name: 'shot.png', data: png.toString('base64') }], signal: new AbortController().signal });
    assert.equal(r.text, 'A login form.');
    const user = (server.requests[0] as { messages: Msg[] }).messages[1];
    assert.deepEqual(user, { role: 'user', content: [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
    ] });
    const [stored] = await store.messages(s.key);
    assert.deepEqual(stored.parts[1], { type: 'image', mimeType: 'image/png', data: png.toString('base64'), width: 40, height: 30, bytes: png.length, source: 'pasted image "shot.png"' });
  });

  it('a pasted image too large for the model is shrunk; one that is not an image fails the turn before anything is stored or sent', async () => {
    const { chat, store, server } = await setup(() => reply(text('ok')));
    const s = await store.create('coder');
    const big = await makeImage('image/jpeg', 2000, 100);
    await chat.turn({ sessionKey: s.key, agentId: 'coder', text: 'Wide one', images: [{ name: 'wide.jpg', data: big.toString('base64') }], signal: new AbortController().signal });
    const [stored] = await store.messages(s.key);
    const part = stored.parts[1] as { width: number; original?: { width: number } };
    assert.equal(part.width, 1568);
    assert.equal(part.original?.width, 2000);
    const other = await store.create('coder');
    const fake = Buffer.from('just some notes, not a picture').toString('base64');
    await assert.rejects(chat.turn({ sessionKey: other.key, agentId: 'coder', text: 'And this?', images: [{ name: 'notes.gif', data: fake }], signal: new AbortController().signal }),
      /pasted image "notes\.gif" is not an image/);
    assert.equal((await store.messages(other.key)).length, 0);
    assert.equal(server.requests.length, 1, 'only the first turn reached the model');
  });

  it('an image sent without words is a user message of the image alone, shown when the session is opened again', async () => {
    const { chat, store, server } = await setup(() => reply(text('A chart.')));
    const s = await store.create('coder');
    const png = await makeImage('image/png', 20, 20);
    await chat.turn({ sessionKey: s.key, agentId: 'coder', text: '', images: [{ name: 'chart.png', data: png.toString('base64') }], signal: new AbortController().signal });
    const user = (server.requests[0] as { messages: Msg[] }).messages[1];
    assert.deepEqual(user, { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } }] });
    const stored = await store.messages(s.key);
    assert.deepEqual(stored[0].parts.map((p) => p.type), ['image']);
    assert.equal((await store.find(s.key))?.title, 'pasted image "chart.png"');
    const shown = toChatMessages(stored);
    // A small image is its own thumbnail when the session is opened again.
    assert.deepEqual(shown[0], { role: 'user', id: `m${stored[0].seq}`, text: '', images: ['pasted image "chart.png"'], thumbnails: [{ mimeType: 'image/png', data: png.toString('base64') }] });
  });

  it('titles come from the first line, shortened', () => {
    assert.equal(titleFrom('  Fix the build\nplease'), 'Fix the build');
    assert.equal(titleFrom('x'.repeat(100)).length, 58);
    assert.equal(titleFrom('   '), 'New chat');
  });
});
