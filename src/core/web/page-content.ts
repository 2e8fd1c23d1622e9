// What a fetched body becomes for the model, by its content type: HTML → the main content as markdown,
// JSON and text as they are, an image → a line saying what it is, anything else binary → refused with
// its type (the model cannot read it, and a wall of bytes would only cost context).
import type { PageMarkdown } from './html-to-markdown';

export interface PageContent {
  kind: 'html' | 'json' | 'text' | 'image';
  title: string;
  text: string;
}

const TEXT_TYPES = /^(text\/|application\/(xml|xhtml\+xml|rss\+xml|atom\+xml|javascript|ecmascript|x-javascript|x-sh|x-yaml|yaml|toml|csv|x-ndjson|ld\+json|manifest\+json|graphql)$)/;

export function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

function charset(contentType: string, body: Buffer): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  if (fromHeader) return fromHeader;
  // An HTML page may name its encoding in a <meta> near its start instead.
  const head = body.subarray(0, 2048).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ?? 'utf-8';
}

export function decodeText(body: Buffer, contentType: string): string {
  try {
    return new TextDecoder(charset(contentType, body)).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Without a Content-Type header: HTML when it looks like markup, text when it decodes cleanly. */
function sniff(body: Buffer): string {
  const start = body.subarray(0, 512).toString('utf8').trimStart().toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'text/html';
  if (start.startsWith('{') || start.startsWith('[')) return 'application/json';
  return body.subarray(0, 4096).includes(0) ? 'application/octet-stream' : 'text/plain';
}

/** Turns a page's HTML into markdown (web_fetch: on the converter's worker, src/core/web/html-converter.ts). */
export type ConvertHtml = (html: string, pageUrl: string) => Promise<PageMarkdown>;

export async function pageContent(body: Buffer, contentType: string, finalUrl: string, convertHtml: ConvertHtml): Promise<PageContent> {
  const type = mediaType(contentType) || sniff(body);
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    const page = await convertHtml(decodeText(body, contentType), finalUrl);
    return { kind: 'html', title: page.title, text: page.markdown };
  }
  if (type === 'application/json' || type.endsWith('+json')) {
    const text = decodeText(body, contentType);
    return { kind: 'json', title: '', text };
  }
  if (TEXT_TYPES.test(type)) return { kind: 'text', title: '', text: decodeText(body, contentType) };
  if (type.startsWith('image/')) {
    return { kind: 'image', title: '', text: `[An image: ${type}, ${body.length.toLocaleString('en-US')} bytes. Its pixels are not shown as text.]` };
  }
  throw new Error(`the page is ${type} (${body.length.toLocaleString('en-US')} bytes), which web_fetch cannot turn into text.`);
}
