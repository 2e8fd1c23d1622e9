// End to end: the agent loop with the real OpenAI provider (the official SDK) against the loopback
// Chat Completions server, and the real file tools on a temp workspace. A scripted model reads a
// file with read_file, then answers from what it read.
import assert from 'node:assert/strict';
import { runAgentTurn, turnTools } from '../../../src/core/agent/agent-loop';
import type { TurnEvent } from '../../../src/core/agent/agent-types';
import { createOpenAiProvider } from '../../../src/core/agent/providers/openai-provider';
import { buildSystemPrompt } from '../../../src/core/agent/system-prompt';
import { AutoApplyReviewer } from '../../../src/core/fs/auto-apply-reviewer';
import { createFsTools } from '../../../src/core/fs/fs-tools';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { makeGuard, makeWorkspace, removeTempDirs } from '../../support/fs-fixtures';
import { reply, text, toolCall, type ScriptRequest, type ScriptStep } from '../../support/model-script';
import type { ModelServer } from '../../support/model-server-base';
import { startOpenAiChatServer } from '../../support/openai-chat-server';
import { runtimeWith } from '../../support/test-tools';
import { everyCallAnswered, resultsOf } from './agent-loop-harness';

type ChatMessage = { role: string; content?: unknown; tool_call_id?: string; tool_calls?: { id: string; function: { name: string; arguments: string } }[] };

/** The model: first read notes.txt, then answer with the line it found there. */
function readThenAnswer(req: ScriptRequest): ScriptStep {
  const messages = req.body.messages as ChatMessage[];
  const toolResult = messages.find((m) => m.role === 'tool');
  if (!toolResult) return { ...reply(text('Let me read it.'), toolCall('read_file', { path: 'notes.txt' })), usage: { input: 300, output: 20 } };
  const found = /launch code is (\w+)/.exec(String(toolResult.content))?.[1] ?? 'nothing';
  return { ...reply(text(`The notes say the launch code is ${found}.`)), usage: { input: 420, output: 12, cachedInput: 256 } };
}

describe('agent loop end to end: OpenAI provider, loopback server, real file tools', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  after(removeTempDirs);

  function setup() {
    const ws = makeWorkspace({ 'notes.txt': 'Shopping: milk\nThe launch code is banana7\n' });
    const fs = new NodeWorkspaceFs();
    const tools = createFsTools({ guard: makeGuard([ws.root]), fs, reviewer: new AutoApplyReviewer(fs), contextTokens: () => undefined });
    const rt = runtimeWith({ 'rateLimit.enabled': false }, tools);
    const ctx = rt.context({ channel: 'chat', provider: 'openai', workspaceRoot: ws.root });
    const offered = turnTools(rt.registry, rt.registry.policyRequest(ctx));
    const system = buildSystemPrompt({
      agent: { id: 'default', name: 'default', type: 'open', source: 'default' },
      contextFiles: [{ name: 'SOUL.md', content: 'Answer briefly.' }],
      tools: offered.tools, aliases: offered.aliases, workspace: { root: ws.root, name: 'ws' },
    });
    return { ws, rt, offered, system };
  }

  it('reads a file with read_file, then answers from it', async () => {
    const { ws, rt, offered, system } = setup();
    server = await startOpenAiChatServer(readThenAnswer);
    const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: 'sk-test-0123456789abcdefghij' });
    const events: TurnEvent[] = [];
    const r = await runAgentTurn({ provider, runtime: rt, model: 'test-model', pricing: { inputPerMTok: 2, outputPerMTok: 8, cachedPerMTok: 0.5 } }, {
      sessionKey: 'chat:e2e', agentId: 'default', turnId: 't1', history: [], user: 'What is the launch code in notes.txt?',
      system, tools: offered.tools, signal: new AbortController().signal, onEvent: (e) => events.push(e),
      toolContext: { workspaceRoot: ws.root },
    });

    assert.equal(r.stopReason, 'end');
    assert.equal(r.text, 'The notes say the launch code is banana7.');
    assert.equal(r.iterations, 2);
    assert.ok(everyCallAnswered(r.messages));
    const [read] = resultsOf(r.messages);
    assert.equal(read.name, 'read_file');
    assert.equal(read.isError, false);
    assert.match(read.content, /2\s*[│|:\t]\s*The launch code is banana7/);
    assert.deepEqual(r.usage, { input: 720, output: 32, cached: 256, costUsd: (464 * 2 + 256 * 0.5 + 32 * 8) / 1e6 });

    // What went over the wire: the system prompt first, the tool schemas, then the call and its result.
    assert.equal(server.requests.length, 2);
    const first = server.requests[0] as { messages: ChatMessage[]; tools: { function: { name: string } }[] };
    assert.equal(first.messages[0].role, 'system');
    assert.equal(first.messages[0].content, system);
    assert.ok(first.tools.some((t) => t.function.name === 'read_file'));
    const second = (server.requests[1] as { messages: ChatMessage[] }).messages;
    const call = second.find((m) => m.role === 'assistant')?.tool_calls?.[0];
    assert.equal(call?.function.name, 'read_file');
    assert.deepEqual(JSON.parse(call?.function.arguments ?? '{}'), { path: 'notes.txt' });
    assert.equal(second.find((m) => m.role === 'tool')?.tool_call_id, call?.id);
    // The same system prompt both times: the prefix a provider cache matches on.
    assert.equal(second[0].content, first.messages[0].content);

    assert.equal(events.filter((e) => e.type === 'text').map((e) => (e.type === 'text' ? e.text : '')).join(''), 'Let me read it.The notes say the launch code is banana7.');
    const end = events.find((e) => e.type === 'tool-end');
    assert.ok(end && end.type === 'tool-end' && end.name === 'read_file' && !end.isError);
  });

  it('a 429 from the server is retried after its Retry-After, through the real SDK', async () => {
    const { rt, offered, system } = setup();
    let calls = 0;
    server = await startOpenAiChatServer((req) => (calls++ === 0 ? { error: { status: 429, message: 'Slow down', retryAfterMs: 1200 } } : readThenAnswer(req)));
    const provider = createOpenAiProvider({ baseUrl: server.url });
    const sleeps: number[] = [];
    const r = await runAgentTurn({ provider, runtime: rt, model: 'test-model', sleep: async (ms) => { sleeps.push(ms); }, random: () => 0 }, {
      sessionKey: 'chat:e2e-429', agentId: 'default', turnId: 't1', history: [], user: 'Launch code?',
      system, tools: offered.tools, signal: new AbortController().signal,
    });
    assert.equal(r.stopReason, 'end');
    assert.equal(r.text, 'The notes say the launch code is banana7.');
    assert.deepEqual(sleeps, [1200]);
    assert.equal(server.requests.length, 3);
  });
});
