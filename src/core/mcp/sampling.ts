// A server's `sampling/createMessage` request: the server asks the client's model to write something.
// It runs only when the person allows it, seeing the request first (once, or always for that server),
// and it is answered by the chat's model with no tools. Anything else is refused with the MCP error a
// server expects for a rejected request.
import { McpError, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { ModelMessage, ModelProvider } from '../agent/model-types';

export type SamplingAnswer = 'once' | 'always' | 'deny';

export interface SamplingPorts {
  /** Shows the request (`shown`) and asks whether `server` may use the model for it. */
  ask(server: string, shown: string, signal: AbortSignal): Promise<SamplingAnswer>;
  /** Servers the person allowed always (kept by the front end, per workspace). */
  allowedAlways: { has(server: string): boolean; add(server: string): void };
  /** The chat's model, or undefined when none is set up. */
  model(): Promise<{ provider: ModelProvider; model: string } | undefined>;
}

/** The MCP spec's code for a request the user rejected. */
const USER_REJECTED = -1;
const SHOWN_CHARS = 4_000;

type SamplingParams = CreateMessageRequest['params'];

function blockText(b: { type: string; text?: unknown; mimeType?: unknown }): string {
  if (b.type === 'text' && typeof b.text === 'string') return b.text;
  if (b.type === 'image' || b.type === 'audio') throw new McpError(USER_REJECTED, `Pincer's sampling takes text only, not ${b.type}.`);
  throw new McpError(USER_REJECTED, `Pincer's sampling does not take ${b.type} content.`);
}

function messagesOf(params: SamplingParams): ModelMessage[] {
  const out: ModelMessage[] = [];
  if (params.systemPrompt) out.push({ role: 'system', parts: [{ type: 'text', text: params.systemPrompt }] });
  for (const m of params.messages) {
    const blocks = Array.isArray(m.content) ? m.content : [m.content];
    out.push({ role: m.role, parts: [{ type: 'text', text: blocks.map(blockText).join('\n') }] });
  }
  return out;
}

/** The request as a person reads it before allowing it. */
export function describeSampling(server: string, params: SamplingParams, messages: ModelMessage[]): string {
  const lines = [`The MCP server "${server}" asks your chat model to answer (at most ${params.maxTokens} tokens):`];
  for (const m of messages) lines.push('', `${m.role}:`, m.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''));
  const text = lines.join('\n');
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

export async function answerSampling(ports: SamplingPorts, server: string, params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult> {
  if (params.tools?.length) throw new McpError(USER_REJECTED, "Pincer's sampling does not offer tools.");
  const messages = messagesOf(params);
  if (!ports.allowedAlways.has(server)) {
    const answer = await ports.ask(server, describeSampling(server, params, messages), signal);
    if (answer === 'deny') throw new McpError(USER_REJECTED, 'The user did not allow this sampling request.');
    if (answer === 'always') ports.allowedAlways.add(server);
  }
  const chat = await ports.model();
  if (!chat) throw new McpError(USER_REJECTED, 'No chat model is set up in Pincer to answer sampling requests.');
  let text = '';
  let stop = 'endTurn';
  for await (const e of chat.provider.stream({ model: chat.model, messages, tools: [], maxOutputTokens: params.maxTokens, signal, ...(params.temperature === undefined ? {} : { temperature: params.temperature }) })) {
    if (e.type === 'text') text += e.text;
    else if (e.type === 'stop') {
      if (e.reason === 'error' || e.reason === 'cancelled' || e.reason === 'content-filter') throw new McpError(USER_REJECTED, `The model did not answer: ${e.message ?? e.reason}`);
      if (e.reason === 'length') stop = 'maxTokens';
    }
  }
  return { role: 'assistant', content: { type: 'text', text }, model: chat.model, stopReason: stop };
}
