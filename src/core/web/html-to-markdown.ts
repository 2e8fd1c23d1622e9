// A web page as the model should read it: the main content (Readability, the Reader View of Firefox,
// run on linkedom's server-side DOM) converted to markdown (turndown, with GitHub tables), without
// menus, scripts, styles and inline images' data. The page is parsed once: turndown converts the DOM
// element Readability chose, not its HTML serialised and parsed again (a third of a 1 MB page's time).
import { gfm } from '@joplin/turndown-plugin-gfm';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

export interface PageMarkdown {
  title: string;
  markdown: string;
  /** Readability found an article; false: the whole body was converted. */
  readable: boolean;
}

interface ParsedElement {
  nodeName: string;
  textContent: string | null;
  firstChild: unknown;
  children: ArrayLike<ParsedElement>;
  setAttribute(name: string, value: string): void;
  prepend(node: ParsedElement): void;
}

/** What is used of linkedom's document (its types assume the DOM library, which src/core does not load). */
interface ParsedDocument {
  querySelector(selector: string): ParsedElement | null;
  createElement(tag: string): ParsedElement;
  head: ParsedElement | null;
  documentElement: ParsedElement | null;
  body: ParsedElement | null;
}

/**
 * The GFM plugin reads a table's rows through `table.rows`, which linkedom's elements lack: without it
 * every table is written as run-together cell text. The rows as the DOM defines them: the table's own
 * <tr> children and those of its <thead>, <tbody> and <tfoot>, in document order.
 */
function tableRows(table: ParsedElement): ParsedElement[] {
  const rows: ParsedElement[] = [];
  for (const child of Array.from(table.children)) {
    if (child.nodeName === 'TR') rows.push(child);
    else if (/^T(HEAD|BODY|FOOT)$/.test(child.nodeName)) rows.push(...Array.from(child.children).filter((r) => r.nodeName === 'TR'));
  }
  return rows;
}

let rowsDefined = false;

/** Gives linkedom's elements `rows` (tables only; on the shared prototype, as turndown converts a clone). */
function defineTableRows(document: { createElement(tag: string): ParsedElement }): void {
  if (rowsDefined) return;
  rowsDefined = true;
  const proto = Object.getPrototypeOf(document.createElement('table')) as object;
  if ('rows' in proto) return;
  Object.defineProperty(proto, 'rows', {
    configurable: true,
    get(this: ParsedElement) { return this.nodeName === 'TABLE' ? tableRows(this) : undefined; },
  });
}

function parse(html: string, pageUrl: string): ParsedDocument {
  const document = (parseHTML(html) as unknown as { document: ParsedDocument }).document;
  // A <base> makes the page's relative links absolute in the result (Readability resolves against it).
  // It goes into the parsed document: markup put before the page's own would become the document's
  // root, and the page's <html> and <body> would be lost.
  if (!document.querySelector('base[href]')) {
    const base = document.createElement('base');
    base.setAttribute('href', pageUrl);
    (document.head ?? document.documentElement)?.prepend(base);
  }
  defineTableRows(document);
  return document;
}

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  service.use(gfm);
  service.remove(['script', 'style', 'noscript', 'iframe', 'object', 'embed', 'template', 'svg', 'canvas'] as never);
  // A data: image is kilobytes of base64 the model cannot look at; its alt text is what it can use.
  service.addRule('inlineImageData', {
    filter: (node) => node.nodeName === 'IMG' && /^data:/i.test(node.getAttribute('src') ?? ''),
    replacement: (_content, node) => {
      const alt = (node as { getAttribute(n: string): string | null }).getAttribute('alt');
      return alt ? `[image: ${alt}]` : '';
    },
  });
  return service;
}

export function htmlToMarkdown(html: string, pageUrl: string): PageMarkdown {
  const document = parse(html, pageUrl);
  const fallbackTitle = (document.querySelector('title')?.textContent ?? '').trim();
  let article: { title?: string | null; content?: ParsedElement | null } | null = null;
  try {
    // The serializer hands back the article's element itself (Readability's default is its innerHTML).
    article = new Readability<ParsedElement>(document as never, { charThreshold: 200, serializer: (el) => el as unknown as ParsedElement }).parse();
  } catch {
    // A page Readability cannot take apart is converted whole.
  }
  const readable = Boolean(article?.content?.firstChild);
  // Readability changes the document it reads: the fallback parses the page again.
  const root = readable ? article!.content! : parse(html, pageUrl).body;
  const markdown = root ? turndown().turndown(root as never).replace(/\n{3,}/g, '\n\n').trim() : '';
  return { title: (article?.title ?? '').trim() || fallbackTitle, markdown, readable };
}
