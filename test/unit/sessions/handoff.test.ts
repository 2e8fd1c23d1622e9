// handoff: a chat's agent hands the conversation to another agent, whose turns then run in the same
// session with its whole history, until `handoff clear` gives it back. Real chat turns against the
// loopback model server, sessions and handoffs in a real workspace database, the tool through the
// runtime's pipeline.
import assert from 'node:assert/strict';
import { ChatService } from '../../../src/core/agent/chat-service';
import { createOpenAiProvider } from '../../../src/core/agent/providers/openai-provider';
import { HandoffStore } from '../../../src/core/sessions/handoff-store';
import { SessionStore } from '../../../src/core/sessions/session-store';
import { createHandoffTool } from '../../../src/core/sessions/tools/handoff';
import { Database } from '../../../src/core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../../../src/core/storage/workspace-migrations';
import type { ToolContext, ToolResult } from '../../../src/core/tools/types';
import { removeTempDirs } from '../../support/fs-fixtures';
import { reply, text, toolCall, type ScriptRequest, type ScriptStep } from '../../support/model-script';
import type { ModelServer } from '../../support/model-server-base';
import { startOpenAiChatServer } from '../../support/openai-chat-server';
import { STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { runtimeWith } from '../../support/test-tools';
import { closeRouted, openRouted } from '../memory/routed-fixture';

type Msg = { role: string; content?: unknown };
const system = (req: ScriptRequest) => String((req.body.messages as Msg[])[0]!.content);
const lastUser = (req: ScriptRequest) => String([...(req.body.messages as Msg[])].reverse().find((m) => m.role === 'user')?.content ?? '');
const toolAnswered = (req: ScriptRequest) => (req.body.messages as Msg[]).at(-1)?.role === 'tool';

describe('handoff: a chat handed to another agent and back', () => {
  let server: ModelServer | undefined;
  let db: Database | undefined;
  afterEach(async () => {
    await server?.close();
    await db?.close();
    await closeRouted();
    server = undefined;
    db = undefined;
  });
  after(removeTempDirs);

  async function setup(script: (req: ScriptRequest) => ScriptStep) {
    const routed = await openRouted();
    db = await Database.open({ dir: tempDir('handoff'), workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
    const sessions = new SessionStore(db);
    const handoffs = new HandoffStore(db);
    const tool = createHandoffTool({ handoffs: async () => handoffs, sessions: async () => sessions, agents: () => routed.agents.all(), now: () => 42 });
    const rt = runtimeWith({ 'rateLimit.enabled': false }, [tool]);
    server = await startOpenAiChatServer(script);
    const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: 'sk-test-0123456789abcdef' });
    const service = () => new ChatService({
      rt, sessions: async () => sessions, model: async () => ({ provider, model: 'test-model' }),
      agent: (id) => routed.agents.resolve(id), contextFiles: routed.routed, user: () => 'alice',
      workspace: () => undefined, toolContext: () => ({ workspaceTrusted: true, isOwner: true }),
      handedTo: async (key) => (await handoffs.get(key))?.agent,
    });
    const call = (args: Record<string, unknown>, ctx: Partial<ToolContext>) => rt.registry.execute('handoff', args, rt.context({ channel: 'chat', agentId: 'coder', ...ctx } as Partial<ToolContext> & Pick<ToolContext, 'channel'>)) as Promise<ToolResult>;
    return { service, sessions, handoffs, call, server: server! };
  }

  it('the person\'s next messages go to the agent handed the chat, with its history, until it hands it back', async () => {
    const { service, sessions, handoffs, server } = await setup((req) => {
      const who = /You are (\w+) \(agent/.exec(system(req))?.[1] ?? '?';
      const said = lastUser(req);
      if (toolAnswered(req)) return reply(text(`${who}: done handing over.`));
      if (said === 'My invoice is wrong.' && who === 'Coder') return reply(toolCall('handoff', { action: 'to', agent: 'support', reason: 'a billing question' }));
      if (said === 'Thanks, that was all.' && who === 'Support') return reply(toolCall('handoff', { action: 'clear', reason: 'billing answered' }));
      const seen = (req.body.messages as Msg[]).filter((m) => m.role === 'user').length;
      return reply(text(`${who} answers, having seen ${seen} messages of the person.`));
    });
    const s = await sessions.create('coder');
    const turn = (chat: ChatService, t: string) => chat.turn({ sessionKey: s.key, agentId: 'coder', text: t, signal: new AbortController().signal });

    const first = service();
    assert.equal((await turn(first, 'My invoice is wrong.')).text, 'Coder: done handing over.');
    assert.deepEqual(await handoffs.get(s.key), { agent: 'support', from: 'coder', reason: 'a billing question', at: 42 });
    // A new service (a window reload) reads the handoff back: Support answers in the same session, with its history.
    const second = service();
    assert.equal((await turn(second, 'The amount is doubled.')).text, 'Support answers, having seen 2 messages of the person.');
    assert.equal((await turn(second, 'Thanks, that was all.')).text, 'Support: done handing over.');
    assert.equal(await handoffs.get(s.key), undefined);
    assert.equal((await turn(second, 'Now the build, please.')).text, 'Coder answers, having seen 4 messages of the person.');

    const who = server.requests.map((body) => /You are (\w+) \(agent/.exec(String((body as { messages: Msg[] }).messages[0]!.content))?.[1]);
    assert.deepEqual(who, ['Coder', 'Coder', 'Support', 'Support', 'Support', 'Coder']);
    assert.equal((await sessions.find(s.key))?.agentId, 'coder', 'the session stays the chat\'s own: it is listed where it always was');
    const stored = await sessions.messages(s.key);
    assert.ok(stored.some((m) => m.parts.some((p) => p.type === 'tool-result' && /Handed the conversation to support \(a billing question\)/.test(JSON.stringify(p)))),
      'the handoff stays in the transcript as the tool\'s card');
  });

  it('refused for a subagent, another channel, an unknown agent, the agent itself, and clearing what is not handed over; a deleted chat takes its handoff along', async () => {
    const { sessions, handoffs, call } = await setup(() => reply(text('unused')));
    const s = await sessions.create('coder');
    const at = { sessionKey: s.key };
    assert.match((await call({ action: 'to', agent: 'support' }, { ...at, subagentDepth: 1 })).forLLM, /not allowed by policy here \(subagent deny/, 'a subagent is never offered it');
    assert.match((await call({ action: 'to', agent: 'support' }, { ...at, channel: 'lm' })).forLLM, /^Only the agent of a chat conversation/);
    assert.match((await call({ action: 'to', agent: 'nobody' }, at)).forLLM, /^There is no agent nobody: hand it to one of default, support\.$/);
    assert.match((await call({ action: 'to', agent: 'coder' }, at)).forLLM, /^This conversation is not handed over: it is with coder/);
    assert.match((await call({ action: 'to' }, at)).forLLM, /^handoff to needs agent: one of default, support\.$/);
    assert.match((await call({ action: 'clear' }, at)).forLLM, /^This conversation is not handed over/);
    assert.match((await call({ action: 'to', agent: 'support' }, { sessionKey: 'agent:coder:never-stored' })).forLLM, /is not stored/);
    assert.equal(await handoffs.get(s.key), undefined, 'no refusal recorded anything');

    const handed = await call({ action: 'to', agent: 'support' }, at);
    assert.equal(handed.isError, false, handed.forLLM);
    assert.match((await call({ action: 'to', agent: 'support' }, { ...at, agentId: 'support' })).forLLM, /^You already have this conversation/);
    await sessions.delete(s.key);
    assert.equal(await handoffs.get(s.key), undefined);
  });
});
