// A Word document (.docx) as markdown: headings, lists, tables, links, footnotes. Its XML parts are taken
// out under office-zip's caps and packed again, uncompressed, into a zip of their own (fflate) that is all
// the converter sees: it reads exactly the bytes that were checked, and no part two zip readers could
// disagree about (a duplicate name, a local header that contradicts the directory). mammoth turns the
// document into HTML and turndown (with GitHub tables) turns that into markdown; images become
// "[image: alt text]". External files a document links to are never read. This runs on
// docx-convert-worker's thread.
import { gfm } from '@joplin/turndown-plugin-gfm';
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import TurndownService from 'turndown';
import { OFFICE_ZIP_LIMITS, readOfficeXmlParts, type OfficeZipLimits } from './office-zip';

/** A document read_document refuses or cannot read; the message is for the model. */
export class DocxRefused extends Error {}

/** The content types a Word document's main part has (a document, a template, either with macros). */
const WORD_MAIN_PART = /(wordprocessingml|ms-word)\.[a-z.]*main\+xml/i;

let service: TurndownService | undefined;

function markdownService(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  service.use(gfm);
  service.addRule('imagePlaceholder', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = (node as { getAttribute(n: string): string | null }).getAttribute('alt')?.trim();
      return alt ? `[image: ${alt}]` : '[image]';
    },
  });
  return service;
}

export async function docxToMarkdown(bytes: Buffer, limits: OfficeZipLimits = OFFICE_ZIP_LIMITS): Promise<string> {
  const parts = await readOfficeXmlParts(bytes, limits).catch((e: Error) => {
    throw new DocxRefused(`refused: ${e.message}.`);
  });
  const types = parts.get('[Content_Types].xml')?.toString('utf8') ?? '';
  if (!WORD_MAIN_PART.test(types)) throw new DocxRefused('is a zip but not a Word document (read_document reads DOCX; not XLSX, PPTX or other archives).');
  const packed = Buffer.from(zipSync(Object.fromEntries(parts), { level: 0 }));
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: packed }, {
      externalFileAccess: false,
      // The image's bytes are never read: the model learns there is an image, and its alt text.
      convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
    })).value;
  } catch (e) {
    throw new DocxRefused(`could not be read as a Word document: ${(e as Error).message}`);
  }
  return markdownService().turndown(html).replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * `markdown` in parts of at most `maxChars`, cut between paragraphs where it can, else between lines,
 * else anywhere: a Word document has no pages of its own, so read_document pages through these.
 */
export function splitIntoParts(markdown: string, maxChars: number): string[] {
  const parts: string[] = [];
  let current = '';
  const push = (piece: string, sep: string) => {
    if (current && current.length + sep.length + piece.length > maxChars) {
      parts.push(current);
      current = '';
    }
    current = current ? current + sep + piece : piece;
  };
  for (const block of markdown.split(/\n{2,}/)) {
    if (block.length <= maxChars) {
      push(block, '\n\n');
      continue;
    }
    block.split('\n').forEach((line, n) => {
      for (let i = 0; i < line.length || i === 0; i += maxChars) push(line.slice(i, i + maxChars), n === 0 && i === 0 ? '\n\n' : '\n');
    });
  }
  if (current || parts.length === 0) parts.push(current);
  return parts;
}
