// The scripted model servers themselves, through the official SDKs and raw HTTP: the parts of the
// protocols the providers do not use (non-streaming answers) and the checks real servers make.
import * as assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startAnthropicMessagesServer } from '../../support/anthropic-messages-server';
import { reply, text, toolCall } from '../../support/model-script';
import type { ModelServer } from '../../support/model-server-base';
import { startOpenAiChatServer } from '../../support/openai-chat-server';
import { KEY } from './provider-fixture';

describe('scripted model servers', () => {
  let server: ModelServer;
  afterEach(async () => {
    await server?.close();
  });

  it('OpenAI: answers without streaming, with tool calls, and a function script sees each request', async () => {
    server = await startOpenAiChatServer(({ body, index }) => reply(text(`#${index} for ${String(body.model)}`), toolCall('read_file', { path: 'a.txt' })), { token: KEY });
    const client = new OpenAI({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const answer = await client.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(answer.choices[0].message.content, '#0 for m1');
    assert.equal(answer.choices[0].finish_reason, 'tool_calls');
    const call = answer.choices[0].message.tool_calls?.[0];
    assert.equal(call?.type === 'function' ? call.function.arguments : undefined, '{"path":"a.txt"}');
    assert.ok(answer.usage && answer.usage.prompt_tokens > 0);
    assert.deepEqual(server.requests[0].messages, [{ role: 'user', content: 'hi' }]);
  });

  it('OpenAI: 401 without the bearer token, on every route', async () => {
    server = await startOpenAiChatServer([], { token: KEY });
    const res = await fetch(`${server.url}/models`);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_api_key');
  });

  it('OpenAI: a script that runs out answers 500 naming the step', async () => {
    server = await startOpenAiChatServer([reply(text('only one'))]);
    const client = new OpenAI({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'a' }] });
    await assert.rejects(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'b' }] }), /request 2 has none/);
  });

  it('Anthropic: answers without streaming, in the Message shape', async () => {
    server = await startAnthropicMessagesServer([{ ...reply(text('Hi'), toolCall('read_file', { path: 'a.txt' })), usage: { input: 50, output: 5, cachedInput: 40 } }], { token: KEY });
    const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0 });
    const message = await client.messages.create({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(message.stop_reason, 'tool_use');
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['text', 'tool_use'],
    );
    const use = message.content[1];
    assert.deepEqual(use.type === 'tool_use' ? [use.id, use.input] : [], ['toolu_0_0', { path: 'a.txt' }]);
    assert.deepEqual([message.usage.input_tokens, message.usage.cache_read_input_tokens, message.usage.output_tokens], [10, 40, 5]);
  });

  it('Anthropic: requires anthropic-version and max_tokens, and answers errors in its error shape', async () => {
    server = await startAnthropicMessagesServer([reply(text('x'))], { token: KEY });
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY, ...headers }, body: JSON.stringify(body) });
    const noVersion = await post({}, { model: 'm', max_tokens: 5, messages: [] });
    assert.equal(noVersion.status, 400);
    assert.deepEqual(((await noVersion.json()) as { type: string; error: { type: string } }).error.type, 'invalid_request_error');
    const noMax = await post({ 'anthropic-version': '2023-06-01' }, { model: 'm', messages: [] });
    assert.equal(noMax.status, 400);
    assert.match(((await noMax.json()) as { error: { message: string } }).error.message, /max_tokens/);
    const wrongKey = await post({ 'anthropic-version': '2023-06-01', 'x-api-key': 'nope' }, {});
    assert.equal(wrongKey.status, 401);
    assert.equal(((await wrongKey.json()) as { error: { type: string } }).error.type, 'authentication_error');
  });
});
