// Images on the wire, through the official SDKs against loopback servers speaking each protocol:
// OpenAI-compatible (a pasted image as an image_url part with a data: URL; a tool result's images in
// one user message after the run of tool messages, which stay text), Anthropic (image blocks inside
// the tool_result, and in the user's turn). A model whose server refuses images gets the request again
// with each image's placeholder line, and is remembered; the loop sends only the newest few images,
// and a model the provider knows reads none gets placeholders from the start.
import * as assert from 'node:assert/strict';
import { runAgentTurn } from '../../../src/core/agent/agent-loop';
import type { ModelMessage } from '../../../src/core/agent/model-types';
import { createAnthropicProvider } from '../../../src/core/agent/providers/anthropic-provider';
import { createOpenAiProvider } from '../../../src/core/agent/providers/openai-provider';
import type { ImagePart } from '../../../src/core/media/image-part';
import { imagesAsText, MAX_IMAGES_PER_REQUEST } from '../../../src/core/media/images-in-messages';
import { startAnthropicMessagesServer } from '../../support/anthropic-messages-server';
import { reply, text, toolCall } from '../../support/model-script';
import type { ModelServer } from '../../support/model-server-base';
import { startOpenAiChatServer } from '../../support/openai-chat-server';
import { runtimeWith } from '../../support/test-tools';
import { collect, KEY, READ_FILE, request, stopOf, textOf } from './provider-fixture';

function image(n: number, source = `shots/${n}.png`): ImagePart {
  const data = Buffer.from(`png-bytes-${n}`).toString('base64');
  return { type: 'image', mimeType: 'image/png', data, width: 10 + n, height: 20, bytes: 11, source };
}

/** The user pasted an image; the model called read_image twice (one result with an image, one without). */
function conversation(): ModelMessage[] {
  return [
    { role: 'system', parts: [{ type: 'text', text: 'You are Pincer.' }] },
    { role: 'user', parts: [{ type: 'text', text: 'What is in this mockup?' }, image(0, 'pasted image')] },
    { role: 'assistant', parts: [{ type: 'tool-call', id: 'call_a', name: 'read_file', args: { path: 'a.png' } }, { type: 'tool-call', id: 'call_b', name: 'read_file', args: { path: 'b.txt' } }] },
    { role: 'tool', parts: [{ type: 'tool-result', id: 'call_a', name: 'read_file', content: 'a.png: PNG. The image follows.', isError: false, images: [image(1)] }] },
    { role: 'tool', parts: [{ type: 'tool-result', id: 'call_b', name: 'read_file', content: 'plain text', isError: false }] },
  ];
}

describe('agent providers: images on the wire', () => {
  let server: ModelServer;
  afterEach(async () => {
    await server?.close();
  });

  it('OpenAI-compatible: image_url parts with data: URLs; tool results stay text, their images follow in one user message', async () => {
    server = await startOpenAiChatServer([reply(text('A login form.'))], { token: KEY });
    const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: KEY });
    const events = await collect(provider.stream(request({ messages: conversation() })));
    assert.equal(textOf(events), 'A login form.');
    const messages = server.requests[0].messages as { role: string; content: unknown; tool_call_id?: string }[];
    assert.deepEqual(messages.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    assert.deepEqual(messages[1].content, [
      { type: 'text', text: 'What is in this mockup?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${image(0).data}` } },
    ]);
    assert.equal(messages[3].tool_call_id, 'call_a');
    assert.equal(messages[3].content, 'a.png: PNG. The image follows.\n\n[The image of this result follows in the next user message.]');
    assert.equal(messages[4].content, 'plain text');
    assert.deepEqual(messages[5].content, [
      { type: 'text', text: 'Image 1 of 1 from the read_file call call_a: PNG, 11×20 pixels, 11 bytes, from shots/1.png.' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${image(1).data}` } },
    ]);
  });

  it('OpenAI-compatible: a server that refuses images gets the request again with placeholders, and the model is remembered', async () => {
    server = await startOpenAiChatServer((req) => {
      const wire = JSON.stringify(req.body.messages);
      return wire.includes('image_url')
        ? { error: { status: 400, message: 'Model does not support images. Please use a model that does.' } }
        : reply(text('I cannot see images, but the file is a PNG.'));
    }, { token: KEY });
    const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: KEY });
    assert.equal(provider.imageInput?.('test-model'), undefined);
    const events = await collect(provider.stream(request({ messages: conversation() })));
    assert.equal(textOf(events), 'I cannot see images, but the file is a PNG.');
    assert.deepEqual(stopOf(events), { type: 'stop', reason: 'end' });
    assert.equal(server.requests.length, 2);
    const retried = server.requests[1].messages as { role: string; content: unknown }[];
    assert.deepEqual(retried.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'tool']);
    assert.equal(retried[1].content, 'What is in this mockup?\n\n[Image not shown (the model test-model does not take images): PNG, 10×20 pixels, 11 bytes, from pasted image.]');
    assert.match(String(retried[3].content), /a\.png: PNG\. The image follows\.\n\n\[Image not shown \(the model test-model does not take images\): PNG, 11×20 pixels, 11 bytes, from shots\/1\.png\.\]$/);
    assert.equal(provider.imageInput?.('test-model'), false);
    // The next request goes without images at once.
    await collect(provider.stream(request({ messages: conversation() })));
    assert.equal(server.requests.length, 3);
    assert.ok(!JSON.stringify(server.requests[2].messages).includes('image_url'));
  });

  it('OpenAI-compatible: a 400 about something else is not retried without images', async () => {
    server = await startOpenAiChatServer([{ error: { status: 400, message: 'max_tokens is too large' } }], { token: KEY });
    const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: KEY });
    await assert.rejects(collect(provider.stream(request({ messages: conversation() }))), /max_tokens is too large/);
    assert.equal(server.requests.length, 1);
    assert.equal(provider.imageInput?.('test-model'), undefined);
  });

  it('OpenAI-compatible: what OpenRouter\'s models list says a model reads is remembered', async () => {
    server = await startOpenAiChatServer([], {
      token: KEY,
      models: [{ id: 'vision', architecture: { input_modalities: ['text', 'image'] } }, { id: 'words', architecture: { input_modalities: ['text'] } }, 'plain'],
    });
    const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: KEY });
    const models = await provider.listModels();
    assert.deepEqual(models.map((m) => [m.id, m.imageInput]), [['plain', undefined], ['vision', true], ['words', false]]);
    assert.deepEqual(['vision', 'words', 'plain'].map((m) => provider.imageInput?.(m)), [true, false, undefined]);
  });

  it('Anthropic: image blocks inside the tool_result beside its text, and in the user\'s turn', async () => {
    server = await startAnthropicMessagesServer([reply(text('A login form.'))], { token: KEY });
    const provider = createAnthropicProvider({ baseUrl: server.url, apiKey: KEY });
    await collect(provider.stream(request({ model: 'claude-test', messages: conversation() })));
    const messages = server.requests[0].messages as { role: string; content: Record<string, unknown>[] }[];
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
    const block = (n: number) => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: image(n).data } });
    assert.deepEqual(messages[0].content, [{ type: 'text', text: 'What is in this mockup?' }, block(0)]);
    const [withImage, plain] = messages[2].content;
    assert.deepEqual(withImage, { type: 'tool_result', tool_use_id: 'call_a', content: [{ type: 'text', text: 'a.png: PNG. The image follows.' }, block(1)] });
    assert.equal(plain.content, 'plain text');
  });

  it('the loop: only the newest images go as images; the older ones as placeholder lines', () => {
    const many: ModelMessage[] = Array.from({ length: MAX_IMAGES_PER_REQUEST + 3 }, (_, i) => ({ role: 'user', parts: [image(i)] }));
    const sent = imagesAsText(many, MAX_IMAGES_PER_REQUEST);
    const kinds = sent.map((m) => m.parts[0].type);
    assert.deepEqual(kinds, [...Array(3).fill('text'), ...Array(MAX_IMAGES_PER_REQUEST).fill('image')]);
    assert.match((sent[0].parts[0] as { text: string }).text, /^\[Image not shown \(an earlier image of this conversation; ask for it again to see it\): PNG, 10×20 pixels/);
    assert.equal(sent[3], many[3], 'messages with images that stay are passed as they are');
  });

  it('the loop: a model the provider knows reads no images gets placeholders, and its tools are told (imageInput false)', async () => {
    server = await startOpenAiChatServer([{ parts: [toolCall('read_file', { path: 'a.png' })] }, reply(text('Done.'))], {
      token: KEY, models: [{ id: 'words', architecture: { input_modalities: ['text'] } }],
    });
    const provider = createOpenAiProvider({ baseUrl: server.url, apiKey: KEY });
    await provider.listModels();
    let seen: boolean | undefined;
    const { defineTool, ok } = await import('../../../src/core/tools/types');
    const { z } = await import('zod');
    const tool = defineTool({
      name: 'read_file', description: 'Read a file.', parameters: z.object({ path: z.string() }), group: 'fs', capability: 'read-only',
      async execute(_args, ctx) {
        seen = ctx.imageInput;
        return ok('a.png: PNG.', { images: [image(5)] });
      },
    });
    const runtime = runtimeWith({ 'rateLimit.enabled': false }, [tool]);
    const result = await runAgentTurn({ provider, runtime, model: 'words' }, {
      sessionKey: 's', agentId: 'default', turnId: 't', history: [], user: { role: 'user', parts: [{ type: 'text', text: 'Look' }, image(4, 'pasted image')] },
      system: 'You are Pincer.', tools: [READ_FILE], signal: new AbortController().signal,
    });
    assert.equal(result.stopReason, 'end', result.message);
    assert.equal(seen, false);
    for (const body of server.requests) assert.ok(!JSON.stringify(body.messages).includes('image_url'));
    const second = server.requests[1].messages as { role: string; content: unknown }[];
    assert.match(String(second[1].content), /Look\n\n\[Image not shown \(the model words does not take images\): PNG, 14×20 pixels, 11 bytes, from pasted image\.\]/);
    assert.match(String(second[3].content), /a\.png: PNG\.\n\n\[Image not shown \(the model words does not take images\): PNG, 15×20 pixels/);
    // The turn's stored messages keep the image itself: a later model that reads images can see it.
    const toolMessage = result.messages.find((m) => m.role === 'tool');
    assert.equal((toolMessage?.parts[0] as { images?: ImagePart[] }).images?.[0].source, 'shots/5.png');
  });
});
