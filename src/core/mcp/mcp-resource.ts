// A server's resource as text a person can attach to a chat message: text contents as they are,
// binary contents by their type and size (their bytes are not text the model could read), scrubbed and
// cut to a size a message can carry before it leaves the MCP client. The chat wraps it in the
// untrusted-content markers when the message is sent (chat-context.ts): it came from the server, not
// from the person.
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';

/** The most of one resource a message carries; the rest is cut with a note saying how much there was. */
export const RESOURCE_ATTACH_CHARS = 50_000;

export interface ResourceAttachment {
  server: string;
  uri: string;
  /** Scrubbed, at most RESOURCE_ATTACH_CHARS plus the note of what was cut. */
  text: string;
  truncated: boolean;
}

function base64Bytes(data: string): number {
  return Math.floor((data.replace(/=+$/, '').length * 3) / 4);
}

/** Every content entry of the answer, one after the other, each headed by its URI when there are several. */
export function renderResource(r: ReadResourceResult): string {
  const contents = Array.isArray(r.contents) ? r.contents : [];
  if (contents.length === 0) return '(the server returned no content for this resource)';
  return contents.map((c) => {
    const head = contents.length > 1 ? `[${c.uri}${c.mimeType ? ` (${c.mimeType})` : ''}]\n` : '';
    if ('text' in c && typeof c.text === 'string') return head + c.text;
    const blob = 'blob' in c && typeof c.blob === 'string' ? c.blob : '';
    return `${head}[binary content${c.mimeType ? `: ${c.mimeType}` : ''}, ${base64Bytes(blob)} bytes — not shown]`;
  }).join('\n\n');
}

/**
 * The attachment for `uri` of `server`: rendered, scrubbed, cut to RESOURCE_ATTACH_CHARS. Scrubbing
 * looks a little past the cut, so a secret that straddles it is still recognised whole.
 */
export function resourceAttachment(server: string, uri: string, r: ReadResourceResult, scrub: (text: string) => string): ResourceAttachment {
  const full = renderResource(r);
  const clean = scrub(full.slice(0, RESOURCE_ATTACH_CHARS + SCRUB_MARGIN));
  const truncated = clean.length > RESOURCE_ATTACH_CHARS || full.length > RESOURCE_ATTACH_CHARS + SCRUB_MARGIN;
  const text = truncated
    ? `${clean.slice(0, RESOURCE_ATTACH_CHARS)}\n[… cut here: the resource has ${full.length.toLocaleString('en-US')} characters]`
    : clean;
  return { server, uri, text, truncated };
}

/** Longer than any credential the scrubber knows. */
const SCRUB_MARGIN = 4_096;
