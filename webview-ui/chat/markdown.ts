// Model text to DOM. markdown-it parses (raw HTML off, so `<script>` or `<img onerror>` are text
// tokens); this file builds the elements from its tokens itself, from a fixed set of tags, with text
// nodes for every piece of text: nothing the model wrote is ever parsed as HTML. Links become links
// only for http(s) URLs and open through the host (`open-link`); images are never loaded (a remote
// image would be a beacon): they show as a link with their alt text.
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { codeBlock } from './code-block';
import { el } from './dom';

const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
// markdown-it refuses javascript:, vbscript: and file: already; data: images go too. What passes is
// still only made a link below when it is http(s).
md.validateLink = (url: string) => !/^\s*(javascript|vbscript|file|data):/i.test(url);

export function parseMarkdown(src: string): Token[] {
  return md.parse(src, {});
}

const BLOCK_TAGS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td']);
const INLINE_TAGS = new Set(['strong', 'em', 's']);

/** The URL when it is http(s), else undefined. */
export function webUrl(href: string | null): string | undefined {
  if (!href) return undefined;
  try {
    const u = new URL(href);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function linkElement(href: string | null, title: string | null): HTMLElement {
  const url = webUrl(href);
  if (!url) return el('span', { class: 'md-nolink', title: href ?? undefined });
  // No href: the browser (and VS Code's own link handler) never navigates; the page's click and
  // Enter handlers post `open-link` for [data-url] instead.
  return el('a', { class: 'md-link', role: 'link', tabindex: '0', 'data-url': url, title: title || url });
}

/** An attribute of a token as a string (markdown-it types them string | number). */
function attr(t: Token, name: string): string | null {
  const v = t.attrGet(name);
  return v === null ? null : String(v);
}

function imageElement(t: Token): HTMLElement {
  const alt = t.children?.map((c) => c.content).join('') || t.content || 'image';
  const link = linkElement(attr(t, 'src'), null);
  link.append(`Image: ${alt}`);
  return link;
}

function blockElement(t: Token): HTMLElement {
  const tag = BLOCK_TAGS.has(t.tag) ? t.tag : 'div';
  const e = document.createElement(tag);
  if (tag === 'ol') {
    const start = Number(t.attrGet('start'));
    if (Number.isInteger(start) && start >= 0 && start < 1e9) e.setAttribute('start', String(start));
  }
  const align = /text-align:(left|center|right)/.exec(attr(t, 'style') ?? '')?.[1];
  if (align) e.className = `align-${align}`;
  return e;
}

/** Appends the elements for `tokens` (a markdown-it token stream, block or inline) to `parent`. */
export function renderTokens(tokens: readonly Token[], parent: Node): void {
  const stack: Node[] = [parent];
  const top = () => stack[stack.length - 1];
  for (const t of tokens) {
    switch (t.type) {
      case 'inline':
        renderTokens(t.children ?? [], top());
        break;
      case 'text':
      case 'text_special':
      case 'html_inline':
      case 'html_block':
        top().appendChild(document.createTextNode(t.content));
        break;
      case 'softbreak':
        top().appendChild(document.createTextNode('\n'));
        break;
      case 'hardbreak':
        top().appendChild(el('br'));
        break;
      case 'code_inline':
        top().appendChild(el('code', {}, t.content));
        break;
      case 'fence':
      case 'code_block':
        top().appendChild(codeBlock(t.content.replace(/\n$/, ''), t.info.trim().split(/\s+/)[0] ?? ''));
        break;
      case 'hr':
        top().appendChild(el('hr'));
        break;
      case 'image':
        top().appendChild(imageElement(t));
        break;
      case 'link_open': {
        const a = linkElement(attr(t, 'href'), attr(t, 'title'));
        top().appendChild(a);
        stack.push(a);
        break;
      }
      default:
        if (t.nesting === 1) {
          // A tight list's paragraphs are hidden: their text goes straight into the item.
          const e = t.hidden ? top() : INLINE_TAGS.has(t.tag) ? document.createElement(t.tag) : blockElement(t);
          if (e !== top()) top().appendChild(e);
          stack.push(e);
        } else if (t.nesting === -1 && stack.length > 1) {
          stack.pop();
        }
    }
  }
}

export function renderMarkdown(src: string, into: Node): void {
  renderTokens(parseMarkdown(src), into);
}
