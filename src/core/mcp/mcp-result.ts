// An MCP tool result as a Pincer result: every content block rendered as text the model can read
// (audio by its type and size, resource links by URI and name, embedded resources by their text),
// structured content as JSON when no text accompanies it, all inside the untrusted-content markers
// (which the pipeline puts around it after scrubbing: ToolResult.untrusted).
// Image blocks become image parts (checked and shrunk like any image: media/image-fit.ts), named in
// the text by their place; an image that cannot be sent is named with the reason. `isError` stays an
// error result carrying the server's own message.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ImageRefused, prepareImage } from '../media/image-fit';
import { describeImage, type ImagePart } from '../media/image-part';
import { fail, ok, type ToolResult } from '../tools/types';

/** Images of one result sent as images; the rest are named only (a server could send hundreds). */
export const MAX_MCP_IMAGES = 4;

type Block = CallToolResult['content'][number];

function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4);
}

function renderBlock(b: Block): string {
  switch (b.type) {
    case 'text':
      return b.text;
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

/** An image block as an image part, or the line saying why it is not one. */
async function imageOf(b: Extract<Block, { type: 'image' }>, where: string, sent: number, signal?: AbortSignal): Promise<{ line: string; image?: ImagePart }> {
  const bytes = base64Bytes(b.data);
  if (sent >= MAX_MCP_IMAGES) return { line: `[${where}: ${b.mimeType}, ${bytes} bytes, not shown: at most ${MAX_MCP_IMAGES} images of one result are]` };
  try {
    const image = await prepareImage(Buffer.from(b.data, 'base64'), where, { signal });
    return { line: `[${where}: ${describeImage(image)}, shown as an image]`, image };
  } catch (e) {
    if (!(e instanceof ImageRefused)) throw e;
    return { line: `[${where}: ${b.mimeType}, ${bytes} bytes, not shown: ${e.message}]` };
  }
}

/**
 * `source` names the server and tool (`mcp:<server>/<tool>`); the call's `signal` (read from the
 * call's context, which makes it on first read) stops the fitting of its images, and is read only
 * when there are images. A result without images is rendered at once.
 */
export function toToolResult(source: string, r: CallToolResult, call?: { readonly signal: AbortSignal }): ToolResult | Promise<ToolResult> {
  const content = Array.isArray(r.content) ? r.content : [];
  // One pass renders the blocks and finds any image: the usual answer (text only) costs one loop,
  // not a search, a map and a join with a function per block.
  const parts: string[] = [];
  for (const b of content) {
    if (b.type === 'image') return withImages(source, r, content, call?.signal);
    parts.push(renderBlock(b));
  }
  return resultOf(source, r, parts, []);
}

async function withImages(source: string, r: CallToolResult, content: Block[], signal?: AbortSignal): Promise<ToolResult> {
  const images: ImagePart[] = [];
  const parts: string[] = [];
  for (const [i, b] of content.entries()) {
    if (b.type !== 'image') {
      parts.push(renderBlock(b));
      continue;
    }
    const { line, image } = await imageOf(b, `image ${i + 1} of ${source}`, images.length, signal);
    parts.push(line);
    if (image) images.push(image);
  }
  return resultOf(source, r, parts, images);
}

function resultOf(source: string, r: CallToolResult, parts: string[], images: ImagePart[]): ToolResult {
  const content = Array.isArray(r.content) ? r.content : [];
  const blocks: string[] = [];
  let hasText = false;
  for (const b of content) {
    blocks.push(b.type);
    if (b.type === 'text' && !hasText) hasText = b.text.trim() !== '';
  }
  if (r.structuredContent !== undefined && !hasText) parts.push(JSON.stringify(r.structuredContent, null, 2));
  const text = (parts.length === 1 ? parts[0] : parts.join('\n\n')) || '(the server returned no content)';
  const details = { mcp: source, blocks };
  // The pipeline wraps the text as untrusted after scrubbing it (ToolResult.untrusted).
  if (r.isError) {
    const untrusted = { source, lead: 'The MCP server reported an error:' };
    return fail(text, images.length ? { details, images, untrusted } : { details, untrusted });
  }
  // Written out rather than through ok(): its spread of the extra fields is paid on every call.
  if (!images.length) return { forLLM: text, isError: false, details, untrusted: { source } };
  return ok(text, { details, images, untrusted: { source } });
}
