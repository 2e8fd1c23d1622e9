// An MCP tool result as a Pincer result: every content block rendered as text the model can read
// (images and audio by their type and size, resource links by URI and name, embedded resources by
// their text), structured content as JSON when no text accompanies it, all inside the
// untrusted-content markers. `isError` stays an error result carrying the server's own message.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { wrapUntrusted } from '../tools/untrusted-content';
import { fail, ok, type ToolResult } from '../tools/types';

type Block = CallToolResult['content'][number];

function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4);
}

function renderBlock(b: Block): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'image':
    case 'audio':
      return `[${b.type}: ${b.mimeType}, ${base64Bytes(b.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${b.uri}${b.name ? ` (${b.name})` : ''}${b.description ? ` — ${b.description}` : ''}]`;
    case 'resource': {
      const r = b.resource;
      if ('text' in r && typeof r.text === 'string') return `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}]\n${r.text}`;
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      return `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}, ${base64Bytes(blob)} bytes of binary data]`;
    }
    default:
      return `[${(b as { type: string }).type} content]`;
  }
}

/** `source` names the server and tool (`mcp:<server>/<tool>`). */
export function toToolResult(source: string, r: CallToolResult): ToolResult {
  const content = Array.isArray(r.content) ? r.content : [];
  const parts = content.map(renderBlock);
  const hasText = content.some((b) => b.type === 'text' && b.text.trim() !== '');
  if (r.structuredContent !== undefined && !hasText) parts.push(JSON.stringify(r.structuredContent, null, 2));
  const text = parts.join('\n\n') || '(the server returned no content)';
  const details = { mcp: source, blocks: content.map((b) => b.type) };
  if (r.isError) return fail(`The MCP server reported an error:\n${wrapUntrusted(source, text)}`, { details });
  return ok(wrapUntrusted(source, text), { details });
}
