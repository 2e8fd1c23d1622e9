// Pincer's conversation in Messages API terms. Anthropic has one system slot, so system messages go
// there; tool results are `tool_result` blocks in a user turn, and consecutive user-side messages
// (several tool results, a result and the user's next words) merge into one turn with the results
// first, as the API requires right after the assistant's tool_use blocks. Cache breakpoints mark the
// system prompt, the tool list and the conversation so far: each agent iteration re-sends all three.
// Images go as base64 `image` blocks: inside a tool_result's content beside its text, and in the
// user's turn for pictures the person pasted.
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ImagePart } from '../../media/image-part';
import type { MessagePart, ModelMessage, ModelTool, ToolCallPart } from '../model-types';
import type { ToolNameMapper } from '../schema-normalize';

export interface AnthropicConversation {
  system: TextBlockParam[] | undefined;
  messages: MessageParam[];
}

const CACHE = { type: 'ephemeral' } as const;

export function toAnthropicTools(tools: ModelTool[]): Tool[] {
  const out: Tool[] = tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters as Tool.InputSchema,
  }));
  if (out.length > 0) out[out.length - 1] = { ...out[out.length - 1], cache_control: CACHE };
  return out;
}

export function toAnthropicConversation(messages: ModelMessage[], names: ToolNameMapper): AnthropicConversation {
  const system: TextBlockParam[] = [];
  const turns: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const add = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: [...blocks] });
  };
  for (const message of messages) {
    if (message.role === 'system') {
      const text = message.parts.flatMap((p) => (p.type === 'text' && p.text ? [p.text] : [])).join('\n\n');
      if (text) system.push({ type: 'text', text });
      continue;
    }
    // Results belong to the user side whichever message carried them.
    add('user', message.parts.flatMap(toResultBlock));
    const blocks = message.parts.flatMap((p) => toBlock(p, names));
    add(message.role === 'assistant' ? 'assistant' : 'user', blocks);
  }
  for (const turn of turns) if (turn.role === 'user') turn.content = resultsFirst(turn.content);
  markLastBlock(system);
  const last = turns[turns.length - 1];
  if (last) markLastBlock(last.content);
  return { system: system.length > 0 ? system : undefined, messages: turns };
}

function toResultBlock(part: MessagePart): ContentBlockParam[] {
  if (part.type !== 'tool-result') return [];
  const images = part.images ?? [];
  const content = images.length
    ? [...(part.content ? [{ type: 'text' as const, text: part.content }] : []), ...images.map(imageBlock)]
    : part.content;
  return [
    {
      type: 'tool_result',
      tool_use_id: part.id,
      ...(content.length ? { content } : {}),
      ...(part.isError ? { is_error: true } : {}),
    },
  ];
}

function imageBlock(image: ImagePart): ImageBlockParam {
  return { type: 'image', source: { type: 'base64', media_type: image.mimeType, data: image.data } };
}

function toBlock(part: MessagePart, names: ToolNameMapper): ContentBlockParam[] {
  // The API refuses empty text blocks.
  if (part.type === 'text') return part.text ? [{ type: 'text', text: part.text }] : [];
  if (part.type === 'tool-call') return [{ type: 'tool_use', id: part.id, name: names.toWire(part.name), input: inputOf(part) }];
  if (part.type === 'image') return [imageBlock(part)];
  return [];
}

/** tool_use input must be an object: a malformed call goes back as {} (its result says what broke). */
function inputOf(call: ToolCallPart): Record<string, unknown> {
  const args = call.args;
  if (call.malformed !== undefined || typeof args !== 'object' || args === null || Array.isArray(args)) return {};
  return args as Record<string, unknown>;
}

function resultsFirst(blocks: ContentBlockParam[]): ContentBlockParam[] {
  return [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
}

function markLastBlock(blocks: ContentBlockParam[]): void {
  const i = blocks.length - 1;
  if (i < 0) return;
  const block = blocks[i];
  if (block.type === 'text' || block.type === 'tool_use' || block.type === 'tool_result') blocks[i] = { ...block, cache_control: CACHE };
}
