// Page text and links as markdown holds them, for markdown-writer.ts: markdown's own characters
// escaped, HTML's whitespace collapsed, links made absolute. Each runs on every text or link of a page,
// so each tests before it rewrites: most text needs nothing.

/** Markdown's own characters in page text, and the ones that mean something at a line's start. */
export function escapeText(text: string): string {
  // Testing first is several times faster than replacing on text that needs nothing (most text).
  return MARKDOWN_CHARS.test(text) ? text.replace(MARKDOWN_CHARS_ALL, '\\$&') : text;
}
const MARKDOWN_CHARS = /[\\`*_[\]]/;
const MARKDOWN_CHARS_ALL = /[\\`*_[\]]/g;

/** HTML's whitespace collapsing: any run of whitespace reads as one space. The test names \s's characters but the space (V8 runs that class faster than `[^\S ]`). */
export function collapse(text: string): string {
  return WHITESPACE_TO_COLLAPSE.test(text) ? text.replace(/\s+/g, ' ') : text;
}
const WHITESPACE_TO_COLLAPSE = /[\t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;
/** A URL as a link target: parentheses would end it early. */
export function urlText(url: string): string {
  return URL_TEXT_ESCAPES.test(url) ? url.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/\s/g, '%20') : url;
}
const URL_TEXT_ESCAPES = /[()\s]/;
/**
 * A link written as a plain path ("/a/b.html": no dot segments, nothing to percent-encode, no query)
 * resolves to the page's origin followed by that path exactly, so it is joined without parsing: a
 * 1 MB article has thousands of such links and the URL parser was a tenth of its conversion.
 */
const PLAIN_PATH = /^\/(?!\/)[\w\-.~/]*$/;
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/** What a plain path is joined to: the base's scheme, credentials, host and port; undefined where the base is not http(s). */
function originOf(baseUrl: string): string | undefined {
  try {
    const u = new URL('/', baseUrl);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href.slice(0, -1) : undefined;
  } catch {
    return undefined;
  }
}
/** Text that would start a heading, quote or list item at a line's start is escaped there. */
export function escapeLineStart(text: string): string {
  const ordered = /^(\d{1,9})([.)] )/.exec(text);
  if (ordered) return `${ordered[1]}\\${text.slice(ordered[1].length)}`;
  return /^(#{1,6} |>|[-+] )/.test(text) ? `\\${text}` : text;
}

/** Links and images made absolute against the page's base URL. */
export class LinkResolver {
  private origin: string | null | undefined = null; // null: not looked at yet

  constructor(private readonly baseUrl: string) {}

  absolute(href: string): string {
    if (PLAIN_PATH.test(href) && !DOT_SEGMENT.test(href)) {
      if (this.origin === null) this.origin = originOf(this.baseUrl);
      if (this.origin !== undefined) return this.origin + href;
    }
    try {
      return new URL(href.trim(), this.baseUrl).href;
    } catch {
      return href.trim();
    }
  }
}
