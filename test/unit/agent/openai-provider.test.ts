import * as assert from 'node:assert/strict';
import { createOpenAiProvider, type OpenAiProviderOptions } from '../../../src/core/agent/providers/openai-provider';
import { reply, text, toolCall, type Script } from '../../support/model-script';
import { startOpenAiChatServer, type ModelServer, type OpenAiChatServerOptions } from '../../support/openai-chat-server';
import {
  callsOf,
  collect,
  GITHUB_SEARCH,
  KEY,
  LIST_FILES,
  READ_FILE,
  request,
  stopOf,
  streamWithHook,
  textOf,
  withResults,
} from './provider-fixture';

describe('agent providers: OpenAI-compatible, through the openai SDK against a loopback Chat Completions server', () => {
  let server: ModelServer;
  const start = async (script: Script, opts: OpenAiChatServerOptions = {}) => (server = await startOpenAiChatServer(script, opts));
  const provider = (extra: Partial<OpenAiProviderOptions> = {}) => createOpenAiProvider({ baseUrl: server.url, ...extra });

  afterEach(async () => {
    await server?.close();
  });

  it('streams text in order and incrementally: the first text arrives before the server sends its last chunk', async () => {
    const answer = 'Hello there, this answer arrives in many small pieces.';
    await start([{ parts: [text(answer)], delayMs: 40 }]);
    let sentAtFirstText = -1;
    const events = await streamWithHook(provider(), request({ tools: [], maxOutputTokens: 500, temperature: 0.2 }), () => {
      sentAtFirstText = server.log[0].chunksSent;
    });
    assert.ok(sentAtFirstText > 0 && sentAtFirstText < server.log[0].totalChunks, `first text after ${sentAtFirstText} of ${server.log[0].totalChunks} chunks`);
    assert.equal(textOf(events), answer);
    assert.ok(events.filter((e) => e.type === 'text').length >= 5, 'text came in pieces');
    assert.deepEqual(stopOf(events), { type: 'stop', reason: 'end' });
    assert.equal(events[events.length - 2].type, 'usage');
    const body = server.requests[0];
    assert.equal(body.model, 'test-model');
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.equal(body.max_tokens, 500, 'max_tokens for servers other than OpenAI');
    assert.equal(body.temperature, 0.2);
    assert.equal(body.tools, undefined, 'no tools key without tools');
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'You are Pincer.' },
      { role: 'user', content: 'Read a.txt please.' },
    ]);
  });

  it('assembles two parallel tool calls from interleaved fragments, after the text, in index order', async () => {
    await start([{ ...reply(text('Let me look.'), toolCall('read_file', { path: 'a.txt' }), toolCall('list_files', { path: 'src/' })), interleave: true, fragment: 3 }]);
    const events = await collect(provider().stream(request({ tools: [READ_FILE, LIST_FILES] })));
    assert.equal(textOf(events), 'Let me look.');
    const calls = callsOf(events);
    assert.deepEqual(calls, [
      { type: 'tool-call', id: 'call_0_0', name: 'read_file', args: { path: 'a.txt' } },
      { type: 'tool-call', id: 'call_0_1', name: 'list_files', args: { path: 'src/' } },
    ]);
    assert.ok(events.findIndex((e) => e.type === 'tool-call') > events.findIndex((e) => e.type === 'text'));
    assert.deepEqual(stopOf(events), { type: 'stop', reason: 'tool-calls' });
    assert.deepEqual(server.requests[0].tools, [
      { type: 'function', function: { name: 'read_file', description: 'Read a file.', parameters: READ_FILE.parameters } },
      { type: 'function', function: { name: 'list_files', description: 'List a folder.', parameters: LIST_FILES.parameters } },
    ]);
  });

  it('round-trips tool results as role "tool" messages carrying tool_call_id, after the assistant turn with its calls', async () => {
    await start([reply(text('Let me read it'), toolCall('read_file', { path: 'a.txt' }), toolCall('read_file', { path: 'b.txt' })), reply(text('Both files say hi.'))]);
    const p = provider();
    const first = await collect(p.stream(request()));
    const messages = withResults(first, (call) => ({ content: `contents of ${(call.args as { path: string }).path}`, isError: call.id.endsWith('1') }));
    const second = await collect(p.stream(request({ messages })));
    assert.equal(textOf(second), 'Both files say hi.');
    assert.deepEqual(stopOf(second), { type: 'stop', reason: 'end' });
    assert.deepEqual(server.requests[1].messages, [
      { role: 'system', content: 'You are Pincer.' },
      { role: 'user', content: 'Read a.txt please.' },
      {
        role: 'assistant',
        content: 'Let me read it',
        tool_calls: [
          { id: 'call_0_0', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          { id: 'call_0_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.txt"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0_0', content: 'contents of a.txt' },
      { role: 'tool', tool_call_id: 'call_0_1', content: 'contents of b.txt' },
    ]);
  });

  it('reports usage with cached prompt tokens, and without them when the server does not say', async () => {
    await start([{ ...reply(text('ok')), usage: { input: 1200, output: 30, cachedInput: 1024 } }, { ...reply(text('ok')), usage: { input: 10, output: 2 } }]);
    const p = provider();
    const withCache = await collect(p.stream(request()));
    assert.deepEqual(withCache.find((e) => e.type === 'usage'), { type: 'usage', usage: { inputTokens: 1200, outputTokens: 30, cachedInputTokens: 1024 } });
    const plain = await collect(p.stream(request()));
    assert.deepEqual(plain.find((e) => e.type === 'usage'), { type: 'usage', usage: { inputTokens: 10, outputTokens: 2 } });
  });

  it('maps finish reasons: length, content_filter, and "stop" after tool calls (as some local servers send)', async () => {
    await start([
      { ...reply(text('and then the')), stop: 'length' },
      { ...reply(text('I cannot')), stop: 'content-filter' },
      { ...reply(toolCall('read_file', { path: 'a.txt' })), stop: 'end' },
    ]);
    const p = provider();
    assert.equal((stopOf(await collect(p.stream(request()))) as { reason: string }).reason, 'length');
    assert.equal((stopOf(await collect(p.stream(request()))) as { reason: string }).reason, 'content-filter');
    const third = await collect(p.stream(request()));
    assert.equal(callsOf(third).length, 1);
    assert.equal((stopOf(third) as { reason: string }).reason, 'tool-calls');
  });

  it('cancels mid-stream: the stream ends with stop "cancelled" and the server sees the connection close', async () => {
    await start([{ ...reply(text('This will never be finished by the server.')), holdAfter: 3 }]);
    const controller = new AbortController();
    const events = await streamWithHook(provider(), request({ signal: controller.signal }), () => controller.abort());
    assert.deepEqual(stopOf(events), { type: 'stop', reason: 'cancelled' });
    assert.equal(callsOf(events).length, 0);
    await server.log[0].closed;
    assert.equal(server.log[0].clientClosed, true);
    assert.equal(server.log[0].completed, false);
  });

  it('cancels while waiting for the first chunk, and does not call at all when already aborted', async () => {
    await start([{ ...reply(text('late')), holdAfter: 0 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const events = await collect(provider().stream(request({ signal: controller.signal })));
    assert.deepEqual(events, [{ type: 'stop', reason: 'cancelled' }]);
    await server.log[0].closed;
    assert.equal(server.log[0].clientClosed, true);
    const before = server.log.length;
    assert.deepEqual(await collect(provider().stream(request({ signal: AbortSignal.abort() }))), [{ type: 'stop', reason: 'cancelled' }]);
    assert.equal(server.log.length, before, 'no request for an aborted signal');
  });

  it('marks cut-off and invalid tool arguments as malformed with the raw text; empty arguments are {}', async () => {
    await start([
      { ...reply(text('Writing.'), toolCall('read_file', '{"path":"a.txt","content":"abc')), stop: 'length' },
      reply(toolCall('read_file', '{path: a.txt}'), toolCall('list_files', '')),
    ]);
    const p = provider();
    const cut = await collect(p.stream(request({ tools: [READ_FILE, LIST_FILES] })));
    const [call] = callsOf(cut);
    assert.equal(call.args, '{"path":"a.txt","content":"abc');
    assert.match(call.malformed ?? '', /cut off after 30 characters/);
    assert.equal((stopOf(cut) as { reason: string }).reason, 'length');
    const broken = callsOf(await collect(p.stream(request({ tools: [READ_FILE, LIST_FILES] }))));
    assert.equal(broken[0].args, '{path: a.txt}');
    assert.match(broken[0].malformed ?? '', /not valid JSON/);
    assert.deepEqual(broken[1], { type: 'tool-call', id: 'call_1_1', name: 'list_files', args: {} });
  });

  it('maps sanitised tool names back: mcp.github/search goes out as mcp_github_search and comes back by its Pincer name', async () => {
    await start([reply(toolCall('mcp_github_search', { q: 'pincer' })), reply(text('Found it.'))]);
    const p = provider();
    const first = await collect(p.stream(request({ tools: [GITHUB_SEARCH] })));
    assert.equal((server.requests[0].tools as { function: { name: string } }[])[0].function.name, 'mcp_github_search');
    assert.deepEqual(callsOf(first), [{ type: 'tool-call', id: 'call_0_0', name: 'mcp.github/search', args: { q: 'pincer' } }]);
    await collect(p.stream(request({ tools: [GITHUB_SEARCH], messages: withResults(first, () => ({ content: '3 results' })) })));
    const assistant = (server.requests[1].messages as { role: string; tool_calls?: { function: { name: string } }[] }[]).find((m) => m.role === 'assistant');
    assert.equal(assistant?.tool_calls?.[0].function.name, 'mcp_github_search', 'the history uses the wire name too');
  });

  it('strips schema keywords Gemini refuses when the model is a Gemini model', async () => {
    await start([reply(text('ok'))]);
    const tool = {
      name: 'grep',
      description: 'Search.',
      parameters: { type: 'object', properties: { pattern: { type: 'string', minLength: 1, pattern: '^.' }, mode: { const: 'regex' } }, additionalProperties: false },
    };
    await collect(provider().stream(request({ model: 'google/gemini-2.5-pro', tools: [tool] })));
    const sent = (server.requests[0].tools as { function: { parameters: unknown } }[])[0].function.parameters;
    assert.deepEqual(sent, { type: 'object', properties: { pattern: { type: 'string' }, mode: { enum: ['regex'] } } });
  });

  it('sends the key as a bearer token, no Authorization at all without one, and the configured headers', async () => {
    await start([reply(text('a')), reply(text('b'))]);
    await collect(provider({ apiKey: KEY, headers: { 'X-Title': 'Pincer' } }).stream(request()));
    assert.equal(server.log[0].headers.authorization, `Bearer ${KEY}`);
    assert.equal(server.log[0].headers['x-title'], 'Pincer');
    await collect(provider().stream(request()));
    assert.equal(server.log[1].headers.authorization, undefined);
  });

  it('never takes headers, keys or the base URL from OPENAI_* environment variables', async () => {
    await start([reply(text('a'))], { token: KEY });
    const saved = { ...process.env };
    process.env.OPENAI_CUSTOM_HEADERS = 'X-Leak: from-env';
    process.env.OPENAI_API_KEY = 'sk-env-key-should-not-be-used';
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    try {
      const p = provider({ apiKey: KEY });
      await collect(p.stream(request()));
      assert.equal(server.log[0].headers['x-leak'], undefined);
      assert.equal(server.log[0].headers.authorization, `Bearer ${KEY}`);
    } finally {
      for (const k of ['OPENAI_CUSTOM_HEADERS', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });

  it('asks OpenAI itself for max_completion_tokens, going through the given fetch', async () => {
    await start([reply(text('a'))]);
    const viaLoopback: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(`${server.rootUrl}${url.pathname}${url.search}`, init);
    };
    await collect(createOpenAiProvider({ baseUrl: 'https://api.openai.com/v1', apiKey: KEY, fetch: viaLoopback }).stream(request({ maxOutputTokens: 64 })));
    assert.equal(server.requests[0].max_completion_tokens, 64);
    assert.equal(server.requests[0].max_tokens, undefined);
  });

  it('lists models sorted by id with the endpoint as source and any context window the server reports', async () => {
    await start([], { token: KEY, models: ['zeta-7b', 'alpha', { id: 'mid', context_length: 32768 }] });
    const models = await provider({ apiKey: KEY, id: 'openrouter' }).listModels();
    const source = `OpenAI-compatible (${server.url})`;
    assert.deepEqual(models, [
      { id: 'alpha', source },
      { id: 'mid', source, contextTokens: 32768 },
      { id: 'zeta-7b', source },
    ]);
    assert.equal(provider({ id: 'openrouter' }).id, 'openrouter');
    assert.equal(provider().id, 'openai');
  });

  it('refuses base URLs that are not http(s) or carry credentials', () => {
    assert.throws(() => createOpenAiProvider({ baseUrl: 'not a url' }), /not a URL/);
    assert.throws(() => createOpenAiProvider({ baseUrl: 'file:///etc/passwd' }), /http or https/);
    assert.throws(() => createOpenAiProvider({ baseUrl: 'http://user:sk-123@host/v1' }), /must not hold credentials/);
  });
});
