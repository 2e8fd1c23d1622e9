// A web page as the model should read it: the main content (Readability, the Reader View of Firefox,
// run on linkedom's server-side DOM) converted to markdown (turndown, with GitHub tables), without
// menus, scripts, styles and inline images' data.
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
  textContent: string | null;
  setAttribute(name: string, value: string): void;
  prepend(node: ParsedElement): void;
}

/** What is used of linkedom's document (its types assume the DOM library, which src/core does not load). */
interface ParsedDocument {
  querySelector(selector: string): ParsedElement | null;
  createElement(tag: string): ParsedElement;
  head: ParsedElement | null;
  documentElement: ParsedElement | null;
  body: { innerHTML: string } | null;
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
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    article = new Readability(document as never, { charThreshold: 200 }).parse();
  } catch {
    // A page Readability cannot take apart is converted whole.
  }
  const readable = Boolean(article?.content);
  // Readability changes the document it reads: the fallback parses the page again.
  const html2 = readable ? article!.content! : (parse(html, pageUrl).body?.innerHTML ?? '');
  const markdown = turndown().turndown(html2).replace(/\n{3,}/g, '\n\n').trim();
  return { title: (article?.title ?? '').trim() || fallbackTitle, markdown, readable };
}
