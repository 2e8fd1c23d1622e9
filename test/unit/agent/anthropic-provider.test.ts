import * as assert from 'node:assert/strict';
import type { ModelMessage } from '../../../src/core/agent/model-types';
import { createAnthropicProvider, KNOWN_ANTHROPIC_MODELS } from '../../../src/core/agent/providers/anthropic-provider';
import { startAnthropicMessagesServer, type AnthropicMessagesServerOptions } from '../../support/anthropic-messages-server';
import { reply, text, toolCall, type Script } from '../../support/model-script';
import type { ModelServer } from '../../support/model-server-base';
import {
  baseMessages,
  callsOf,
  collect,
  GITHUB_SEARCH,
  KEY,
  LIST_FILES,
  modelError,
  READ_FILE,
  request,
  stopOf,
  streamWithHook,
  textOf,
  withResults,
} from './provider-fixture';

const CACHE = { type: 'ephemeral' };

describe('agent providers: Anthropic, through @anthropic-ai/sdk against a loopback Messages server', () => {
  let server: ModelServer;
  const start = async (script: Script, opts: AnthropicMessagesServerOptions = {}) => (server = await startAnthropicMessagesServer(script, { token: KEY, ...opts }));
  const provider = () => createAnthropicProvider({ baseUrl: server.url, apiKey: KEY });
  const claude = (extra: Parameters<typeof request>[0] = {}) => request({ model: 'claude-test', ...extra });

  afterEach(async () => {
    await server?.close();
  });

  it('streams text in order and incrementally, with the system prompt in `system` and max_tokens 8192 by default', async () => {
    const answer = 'Hello there, this answer arrives in many small pieces.';
    await start([{ parts: [text(answer)], delayMs: 40 }]);
    let sentAtFirstText = -1;
    const events = await streamWithHook(provider(), claude({ tools: [], temperature: 0.5 }), () => {
      sentAtFirstText = server.log[0].chunksSent;
    });
    assert.ok(sentAtFirstText > 0 && sentAtFirstText < server.log[0].totalChunks, `first text after ${sentAtFirstText} of ${server.log[0].totalChunks} events`);
    assert.equal(textOf(events), answer);
    assert.ok(events.filter((e) => e.type === 'text').length >= 5);
    assert.deepEqual(stopOf(events), { type: 'stop', reason: 'end' });
    const body = server.requests[0];
    assert.equal(body.model, 'claude-test');
    assert.equal(body.stream, true);
    assert.equal(body.max_tokens, 8192);
    assert.equal(body.temperature, undefined, 'this API generation has no temperature');
    assert.equal(body.tools, undefined);
    assert.deepEqual(body.system, [{ type: 'text', text: 'You are Pincer.', cache_control: CACHE }]);
    assert.deepEqual(body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Read a.txt please.', cache_control: CACHE }] }]);
    assert.ok(server.log[0].headers['anthropic-version'], 'the SDK sends anthropic-version');
  });

  it('assembles two tool_use blocks from input_json_delta fragments, honouring maxOutputTokens', async () => {
    await start([{ ...reply(text('Let me look.'), toolCall('read_file', { path: 'a.txt' }), toolCall('list_files', { path: 'src/' })), fragment: 3 }]);
    const events = await collect(provider().stream(claude({ tools: [READ_FILE, LIST_FILES], maxOutputTokens: 1000 })));
    assert.equal(textOf(events), 'Let me look.');
    assert.deepEqual(callsOf(events), [
      { type: 'tool-call', id: 'toolu_0_0', name: 'read_file', args: { path: 'a.txt' } },
      { type: 'tool-call', id: 'toolu_0_1', name: 'list_files', args: { path: 'src/' } },
    ]);
    assert.deepEqual(stopOf(events), { type: 'stop', reason: 'tool-calls' });
    const body = server.requests[0];
    assert.equal(body.max_tokens, 1000);
    assert.deepEqual(body.tools, [
      { name: 'read_file', description: 'Read a file.', input_schema: READ_FILE.parameters },
      { name: 'list_files', description: 'List a folder.', input_schema: LIST_FILES.parameters, cache_control: CACHE },
    ]);
  });

  it('round-trips tool results as tool_result blocks, consecutive tool messages merged into one user turn', async () => {
    await start([reply(text('Let me read it'), toolCall('read_file', { path: 'a.txt' }), toolCall('read_file', { path: 'b.txt' })), reply(text('Done.'))]);
    const p = provider();
    const first = await collect(p.stream(claude()));
    const messages = withResults(first, (call) => ({ content: `contents of ${(call.args as { path: string }).path}`, isError: call.id.endsWith('1') }));
    const second = await collect(p.stream(claude({ messages })));
    assert.equal(textOf(second), 'Done.');
    assert.deepEqual(server.requests[1].messages, [
      { role: 'user', content: [{ type: 'text', text: 'Read a.txt please.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me read it' },
          { type: 'tool_use', id: 'toolu_0_0', name: 'read_file', input: { path: 'a.txt' } },
          { type: 'tool_use', id: 'toolu_0_1', name: 'read_file', input: { path: 'b.txt' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_0_0', content: 'contents of a.txt' },
          { type: 'tool_result', tool_use_id: 'toolu_0_1', content: 'contents of b.txt', is_error: true, cache_control: CACHE },
        ],
      },
    ]);
  });

  it('puts tool results before the user text that follows them, and every system message into `system`', async () => {
    await start([reply(text('ok'))]);
    const messages: ModelMessage[] = [
      ...baseMessages(),
      { role: 'assistant', parts: [{ type: 'tool-call', id: 't1', name: 'read_file', args: '{"pa', malformed: 'cut off' }] },
      { role: 'tool', parts: [{ type: 'tool-result', id: 't1', name: 'read_file', content: 'Your call was cut off.', isError: true }] },
      { role: 'user', parts: [{ type: 'text', text: 'Try again.' }, { type: 'text', text: '' }] },
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
    ];
    await collect(provider().stream(claude({ messages })));
    const body = server.requests[0];
    assert.deepEqual(body.system, [
      { type: 'text', text: 'You are Pincer.' },
      { type: 'text', text: 'Be brief.', cache_control: CACHE },
    ]);
    const sent = body.messages as { role: string; content: { type: string; input?: unknown }[] }[];
    assert.deepEqual(sent.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.deepEqual(sent[1].content[0].input, {}, 'a malformed call goes back with an empty input');
    assert.deepEqual(sent[2].content.map((b) => b.type), ['tool_result', 'text'], 'results first, no empty text block');
  });

  it('reports usage as the whole prompt (input + cache reads) with the cached part, and maps stop reasons', async () => {
    await start([
      { ...reply(text('ok')), usage: { input: 1200, output: 30, cachedInput: 1024 } },
      { ...reply(text('and then')), stop: 'length' },
      { ...reply(text('no')), stop: 'content-filter' },
      { ...reply(text('END')), stop: 'stop-sequence' },
    ]);
    const p = provider();
    const first = await collect(p.stream(claude()));
    assert.deepEqual(first.find((e) => e.type === 'usage'), { type: 'usage', usage: { inputTokens: 1200, outputTokens: 30, cachedInputTokens: 1024 } });
    for (const reason of ['length', 'content-filter', 'end']) {
      assert.equal((stopOf(await collect(p.stream(claude()))) as { reason: string }).reason, reason);
    }
  });

  it('cancels mid-stream: stop "cancelled", and the server sees the connection close', async () => {
    await start([{ ...reply(text('This will never be finished by the server.')), holdAfter: 5 }]);
    const controller = new AbortController();
    const events = await streamWithHook(provider(), claude({ signal: controller.signal }), () => controller.abort());
    assert.deepEqual(stopOf(events), { type: 'stop', reason: 'cancelled' });
    await server.log[0].closed;
    assert.equal(server.log[0].clientClosed, true);
    assert.equal(server.log[0].completed, false);
  });

  it('marks a tool call cut off by max_tokens as malformed with the raw text', async () => {
    await start([{ ...reply(text('Writing.'), toolCall('read_file', '{"path":"a.txt","content":"abc')), stop: 'length' }]);
    const events = await collect(provider().stream(claude()));
    const [call] = callsOf(events);
    assert.equal(call.name, 'read_file');
    assert.equal(call.args, '{"path":"a.txt","content":"abc');
    assert.match(call.malformed ?? '', /cut off after 30 characters/);
    assert.equal((stopOf(events) as { reason: string }).reason, 'length');
  });

  it('maps sanitised tool names back both ways', async () => {
    await start([reply(toolCall('mcp_github_search', { q: 'pincer' })), reply(text('Found it.'))]);
    const p = provider();
    const first = await collect(p.stream(claude({ tools: [GITHUB_SEARCH] })));
    assert.equal((server.requests[0].tools as { name: string }[])[0].name, 'mcp_github_search');
    assert.deepEqual(callsOf(first), [{ type: 'tool-call', id: 'toolu_0_0', name: 'mcp.github/search', args: { q: 'pincer' } }]);
    await collect(p.stream(claude({ tools: [GITHUB_SEARCH], messages: withResults(first, () => ({ content: '3 results' })) })));
    const assistant = (server.requests[1].messages as { role: string; content: { name?: string }[] }[]).find((m) => m.role === 'assistant');
    assert.equal(assistant?.content[0].name, 'mcp_github_search');
  });

  it('lists models over several pages, sorted, with their context windows', async () => {
    const ids = Array.from({ length: 130 }, (_, i) => `claude-${String(129 - i).padStart(3, '0')}`);
    await start([], { models: [...ids.slice(1), { id: ids[0], max_input_tokens: 200000 }] });
    const models = await provider().listModels();
    assert.equal(models.length, 130);
    assert.deepEqual(models.map((m) => m.id), [...ids].sort());
    assert.deepEqual(models[129], { id: 'claude-129', source: `Anthropic (${server.url})`, contextTokens: 200000 });
    assert.ok(server.log.filter((r) => r.path === '/v1/models').length >= 2, 'followed the pages');
  });

  it('falls back to the known models, saying so, when the server has no models endpoint', async () => {
    await start([], { noModelsEndpoint: true });
    const models = await provider().listModels();
    assert.deepEqual(models.map((m) => m.id), KNOWN_ANTHROPIC_MODELS);
    assert.ok(models.every((m) => /known models/.test(m.source)));
  });

  it('fails listModels on a wrong key without the key in the message', async () => {
    await start([]);
    const err = await modelError(createAnthropicProvider({ baseUrl: server.url, apiKey: 'sk-ant-wrong-1234567' }).listModels());
    assert.deepEqual([err.retryable, err.status], [false, 401]);
    assert.ok(!err.message.includes('sk-ant-wrong-1234567'));
  });

  it('never takes headers, keys or the base URL from ANTHROPIC_* environment variables, and requires a key', async () => {
    await start([reply(text('a'))]);
    const saved = { ...process.env };
    process.env.ANTHROPIC_CUSTOM_HEADERS = 'X-Leak: from-env';
    process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9';
    process.env.ANTHROPIC_AUTH_TOKEN = 'env-token-should-not-be-used';
    try {
      await collect(provider().stream(claude()));
      assert.equal(server.log[0].headers['x-leak'], undefined);
      assert.equal(server.log[0].headers.authorization ?? server.log[0].headers['x-api-key'], server.log[0].headers.authorization ? `Bearer ${KEY}` : KEY);
    } finally {
      for (const k of ['ANTHROPIC_CUSTOM_HEADERS', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
    assert.throws(() => createAnthropicProvider({ apiKey: '' }), /API key is required/);
  });
});
