// Shared pieces of the provider tests: draining a stream, a small conversation with tools, and
// catching a ModelError.
import * as assert from 'node:assert/strict';
import { ModelError, type ModelEvent, type ModelMessage, type ModelProvider, type ModelRequest, type ModelTool, type ToolCallPart } from '../../../src/core/agent/model-types';

export const KEY = 'sk-test-secret-0123456789abcdef';

export const READ_FILE: ModelTool = {
  name: 'read_file',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

export const LIST_FILES: ModelTool = {
  name: 'list_files',
  description: 'List a folder.',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
};

export const GITHUB_SEARCH: ModelTool = {
  name: 'mcp.github/search',
  description: 'Search GitHub.',
  parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
};

export function baseMessages(): ModelMessage[] {
  return [
    { role: 'system', parts: [{ type: 'text', text: 'You are Pincer.' }] },
    { role: 'user', parts: [{ type: 'text', text: 'Read a.txt please.' }] },
  ];
}

export function request(extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'test-model', messages: baseMessages(), tools: [READ_FILE], signal: new AbortController().signal, ...extra };
}

export async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

export function textOf(events: ModelEvent[]): string {
  return events.map((e) => (e.type === 'text' ? e.text : '')).join('');
}

export function callsOf(events: ModelEvent[]): ToolCallPart[] {
  return events.flatMap((e) => (e.type === 'tool-call' ? [e.call] : []));
}

export function stopOf(events: ModelEvent[]): ModelEvent {
  const stops = events.filter((e) => e.type === 'stop');
  assert.equal(stops.length, 1, 'exactly one stop');
  assert.equal(events[events.length - 1], stops[0], 'the stop comes last');
  return stops[0];
}

export async function modelError(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ModelError, `expected a ModelError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a ModelError');
}

/** The history after a response: the assistant's turn, then one tool message with every result. */
export function withResults(events: ModelEvent[], results: (call: ToolCallPart) => { content: string; isError?: boolean }): ModelMessage[] {
  const calls = callsOf(events);
  const text = textOf(events);
  return [
    ...baseMessages(),
    { role: 'assistant', parts: [...(text ? [{ type: 'text' as const, text }] : []), ...calls] },
    ...calls.map(
      (call): ModelMessage => ({
        role: 'tool',
        parts: [{ type: 'tool-result', id: call.id, name: call.name, content: results(call).content, isError: results(call).isError ?? false }],
      }),
    ),
  ];
}

/** Streams until the first text event, runs `then`, and drains the rest. */
export async function streamWithHook(provider: ModelProvider, req: ModelRequest, then: () => void): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  let hooked = false;
  for await (const e of provider.stream(req)) {
    events.push(e);
    if (!hooked && e.type === 'text') {
      hooked = true;
      then();
    }
  }
  return events;
}
