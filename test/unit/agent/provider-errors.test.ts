// The same failures against both providers: each protocol's servers answer them in their own shape,
// and both providers must turn them into the same ModelErrors — retryable or not, the server's wait
// honoured, the API key never in the message.
import * as assert from 'node:assert/strict';
import type { ModelProvider } from '../../../src/core/agent/model-types';
import { createAnthropicProvider } from '../../../src/core/agent/providers/anthropic-provider';
import { createOpenAiProvider } from '../../../src/core/agent/providers/openai-provider';
import { retryAfterMs } from '../../../src/core/agent/providers/provider-errors';
import { startAnthropicMessagesServer } from '../../support/anthropic-messages-server';
import { reply, text, type Script } from '../../support/model-script';
import type { ModelServer } from '../../support/model-server-base';
import { startOpenAiChatServer } from '../../support/openai-chat-server';
import { collect, KEY, modelError, request } from './provider-fixture';

interface Protocol {
  name: string;
  start(script: Script, token?: string): Promise<ModelServer>;
  provider(server: ModelServer, apiKey?: string): ModelProvider;
  /** The error type a stream error event carries for an overloaded server. */
  overloaded: string;
  /** The error type for a request the server refuses. */
  invalid: string;
}

const PROTOCOLS: Protocol[] = [
  {
    name: 'OpenAI',
    start: (script, token) => startOpenAiChatServer(script, { token }),
    provider: (server, apiKey) => createOpenAiProvider({ baseUrl: server.url, apiKey }),
    overloaded: 'server_error',
    invalid: 'invalid_request_error',
  },
  {
    name: 'Anthropic',
    start: (script, token) => startAnthropicMessagesServer(script, { token }),
    provider: (server, apiKey) => createAnthropicProvider({ baseUrl: server.url, apiKey: apiKey ?? KEY }),
    overloaded: 'overloaded_error',
    invalid: 'invalid_request_error',
  },
];

for (const protocol of PROTOCOLS) {
  describe(`agent providers: ${protocol.name} errors as ModelErrors`, () => {
    let server: ModelServer | undefined;
    const run = async (script: Script, apiKey: string = KEY, token: string | undefined = KEY) => {
      server = await protocol.start(script, token);
      return modelError(collect(protocol.provider(server, apiKey).stream(request({ model: 'claude-test' }))));
    };

    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it('429 with Retry-After in seconds is retryable with the wait in ms', async () => {
      const err = await run([{ error: { status: 429, message: 'Slow down', retryAfter: '7' } }]);
      assert.equal(err.retryable, true);
      assert.equal(err.status, 429);
      assert.equal(err.retryAfterMs, 7000);
      assert.match(err.message, /rate-limited \(HTTP 429\): Slow down/);
    });

    it('500 and 503 (retry-after-ms) are retryable; 408 and 409 too', async () => {
      const e500 = await run([{ error: { status: 500, message: 'boom' } }]);
      assert.equal(e500.retryable, true);
      assert.equal(e500.retryAfterMs, undefined);
      await server?.close();
      const e503 = await run([{ error: { status: 503, message: 'down', retryAfterMs: 250 } }]);
      assert.deepEqual([e503.retryable, e503.status, e503.retryAfterMs], [true, 503, 250]);
      for (const status of [408, 409]) {
        await server?.close();
        assert.equal((await run([{ error: { status } }])).retryable, true, String(status));
      }
    });

    it('400, 403 and 404 are not retryable, and a key the server echoes is redacted', async () => {
      const e400 = await run([{ error: { status: 400, message: `bad request from key ${KEY}` } }]);
      assert.deepEqual([e400.retryable, e400.status], [false, 400]);
      assert.ok(!e400.message.includes(KEY), e400.message);
      assert.match(e400.message, /\[redacted\]/);
      for (const status of [403, 404]) {
        await server?.close();
        const err = await run([{ error: { status } }]);
        assert.deepEqual([err.retryable, err.status], [false, status]);
      }
    });

    it('401 for a wrong key is not retryable and never shows the key, though the server echoes it', async () => {
      const wrong = 'sk-wrong-key-9876543210';
      const err = await run([reply(text('unreachable'))], wrong, KEY);
      assert.deepEqual([err.retryable, err.status], [false, 401]);
      assert.ok(!err.message.includes(wrong), err.message);
      assert.match(err.message, /API key was refused/);
    });

    it('a refused connection is retryable', async () => {
      server = await protocol.start([]);
      const p = protocol.provider(server, KEY);
      await server.close();
      const err = await modelError(collect(p.stream(request({ model: 'claude-test' }))));
      assert.equal(err.retryable, true);
      assert.equal(err.status, undefined);
      assert.match(err.message, /cannot connect \(ECONNREFUSED\)/);
    });

    it('a connection dropped mid-stream is retryable', async () => {
      const err = await run([{ ...reply(text('This answer is cut short by the network.')), dropAfter: 4 }]);
      assert.equal(err.retryable, true);
      assert.match(err.message, /broke off|cannot connect|terminated/);
    });

    it('a stream that ends without its finish is retryable', async () => {
      const err = await run([{ ...reply(text('half an answer')), omitFinish: true }]);
      assert.equal(err.retryable, true);
      assert.match(err.message, /ended before the model finished/);
    });

    it('an error event inside the stream: overloaded is retryable, an invalid request is not', async () => {
      const overloaded = await run([{ ...reply(text('partial')), streamError: { type: protocol.overloaded, message: 'Overloaded' } }]);
      assert.equal(overloaded.retryable, true);
      assert.match(overloaded.message, /stream failed/);
      await server?.close();
      const invalid = await run([{ ...reply(text('partial')), streamError: { type: protocol.invalid, message: 'No.' } }]);
      assert.equal(invalid.retryable, false);
    });
  });
}

describe('agent providers: Retry-After parsing', () => {
  it('reads retry-after-ms first, then seconds, then an HTTP date; ignores junk', () => {
    const h = (o: Record<string, string>) => new Headers(o);
    assert.equal(retryAfterMs(h({ 'retry-after-ms': '1500', 'retry-after': '9' })), 1500);
    assert.equal(retryAfterMs(h({ 'retry-after': '2.5' })), 2500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(retryAfterMs(h({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now), 30_000);
    assert.equal(retryAfterMs(h({ 'retry-after': 'Wed, 31 Dec 2025 00:00:00 GMT' }), now), 0, 'a date in the past: no wait');
    assert.equal(retryAfterMs(h({ 'retry-after': 'soon' })), undefined);
    assert.equal(retryAfterMs(h({ 'retry-after': '-3' })), undefined);
    assert.equal(retryAfterMs(h({})), undefined);
    assert.equal(retryAfterMs(undefined), undefined);
  });
});
