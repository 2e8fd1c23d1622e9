// A web page as the model should read it: its main content (main-content.ts) written as markdown
// (markdown-writer.ts), without menus, scripts, styles and inline images' data. One pass of
// htmlparser2 and no DOM: a 1 MB page takes tens of milliseconds, where a DOM, Readability
// and turndown took more than a second (bench/web-fetch-convert.mjs).
import { chooseMainContent } from './main-content';
import { MarkdownWriter } from './markdown-writer';

export interface PageMarkdown {
  title: string;
  markdown: string;
  /** A main content stood out; false: the whole body was converted. */
  readable: boolean;
}

/** The page's links resolve against its <base href> (itself resolved against the page's URL), else the URL. */
function baseUrl(pageUrl: string, base: string | undefined): string {
  if (!base) return pageUrl;
  try {
    return new URL(base, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

export function htmlToMarkdown(html: string, pageUrl: string): PageMarkdown {
  const choice = chooseMainContent(html);
  const writer = new MarkdownWriter(baseUrl(pageUrl, choice.base), choice.leaveOut);
  for (const [from, to] of choice.ranges) writer.convert(choice.events, from, to);
  const markdown = writer.result();
  const title = choice.title || /^# (.+)$/m.exec(markdown)?.[1] || '';
  return { title, markdown, readable: choice.readable };
}
