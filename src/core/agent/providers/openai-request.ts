// Pincer's conversation in Chat Completions terms: system text as system messages, tool calls on the
// assistant message (arguments as JSON text), each tool result as its own `role: 'tool'` message
// carrying the call's id. Tool names go out under their wire names (see schema-normalize).
//
// Images: a user message carries them as `image_url` parts with data: URLs. A tool message can hold
// only text in Chat Completions, and nothing may come between an assistant's tool calls and the
// tool messages that answer them; so a result's images go in one user message right after the last
// of those tool messages, each introduced by the call it came from, and the tool message says so.
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { describeImage, type ImagePart } from '../../media/image-part';
import type { MessagePart, ModelMessage, ModelTool, ToolCallPart, ToolResultPart } from '../model-types';
import type { ToolNameMapper } from '../schema-normalize';

export function toChatTools(tools: ModelTool[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

export function toChatMessages(messages: ModelMessage[], names: ToolNameMapper): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  // Tool results' images, held until the run of tool messages ends.
  let resultImages: ChatCompletionContentPart[] = [];
  const flushImages = () => {
    if (resultImages.length) out.push({ role: 'user', content: resultImages });
    resultImages = [];
  };
  for (const message of messages) {
    // Tool results go out first whatever turn carries them: they must follow the assistant's calls.
    for (const result of message.parts.filter(isToolResult)) {
      const images = result.images ?? [];
      const note = images.length ? `\n\n[${images.length === 1 ? 'The image of this result follows' : `The ${images.length} images of this result follow`} in the next user message.]` : '';
      out.push({ role: 'tool', tool_call_id: result.id, content: result.content + note });
      images.forEach((image, i) => resultImages.push(
        { type: 'text', text: `Image ${i + 1} of ${images.length} from the ${result.name} call ${result.id}: ${describeImage(image)}, from ${image.source}.` },
        imageUrl(image),
      ));
    }
    const text = textOf(message.parts, message.role === 'assistant' ? '' : '\n\n');
    const images = message.parts.filter(isImage);
    if (message.role !== 'tool' || text || images.length) flushImages();
    if (message.role === 'system') {
      if (text) out.push({ role: 'system', content: text });
    } else if (message.role === 'user' || message.role === 'tool') {
      if (images.length) out.push({ role: 'user', content: [...(text ? [{ type: 'text' as const, text }] : []), ...images.map(imageUrl)] });
      else if (text) out.push({ role: 'user', content: text });
    } else {
      const assistant = toAssistantMessage(message.parts, text, names);
      if (assistant) out.push(assistant);
    }
  }
  flushImages();
  return out;
}

function imageUrl(image: ImagePart): ChatCompletionContentPart {
  return { type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

function toAssistantMessage(parts: MessagePart[], text: string, names: ToolNameMapper): ChatCompletionAssistantMessageParam | undefined {
  const calls = parts.filter(isToolCall);
  if (!text && calls.length === 0) return undefined;
  const message: ChatCompletionAssistantMessageParam = { role: 'assistant', content: text || null };
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: names.toWire(call.name), arguments: argumentsText(call) },
    }));
  }
  return message;
}

/**
 * A malformed call goes back as "{}": OpenAI keeps any text, but servers that parse the history's
 * arguments (Ollama, vLLM's templates) refuse the whole request over half a JSON value. The tool
 * result that answered it already says what went wrong.
 */
function argumentsText(call: ToolCallPart): string {
  if (call.malformed !== undefined) return '{}';
  if (typeof call.args === 'string') return call.args;
  return JSON.stringify(call.args ?? {});
}

function textOf(parts: MessagePart[], separator: string): string {
  return parts
    .filter((p): p is { type: 'text'; text: string } => p.type === 'text')
    .map((p) => p.text)
    .join(separator);
}

function isToolCall(part: MessagePart): part is ToolCallPart {
  return part.type === 'tool-call';
}

function isImage(part: MessagePart): part is ImagePart {
  return part.type === 'image';
}

function isToolResult(part: MessagePart): part is ToolResultPart {
  return part.type === 'tool-result';
}
