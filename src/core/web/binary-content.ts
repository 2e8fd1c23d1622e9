// Fetched bodies that are not text: a PDF becomes its text page by page, an image a line saying what it
// is. Both are recognised by their bytes, not only by the Content-Type a server claims: a server that
// labels a PNG `text/html` or `application/octet-stream` still gets an image line, and a "PNG" whose
// bytes are not one is refused rather than described.
import { imageSize } from 'image-size';
import { mediaType, type PageContent } from './page-content';

export const PDF_LIMITS = {
  /** Pages read from one PDF; the rest are named, not read. */
  maxPages: 50,
};

export interface BinaryContent extends Omit<PageContent, 'kind'> {
  kind: 'pdf' | 'image';
}

const PDF_MAGIC = Buffer.from('%PDF-');

function looksLikePdf(body: Buffer): boolean {
  // The header may come after a little junk; readers accept it within the first kilobyte.
  return body.subarray(0, 1024).indexOf(PDF_MAGIC) !== -1;
}

/** Image formats with no magic number: any bytes starting with zeros "are" one, so only a server's label counts. */
const WITHOUT_MAGIC = new Set(['tga']);

function sniffedImage(body: Buffer, type: string): { type: string; width: number; height: number } | undefined {
  try {
    // A copy of its own: image-size reads through DataViews on the whole underlying ArrayBuffer, so a
    // view into Node's shared buffer pool lets it read past the body into unrelated memory.
    const size = imageSize(new Uint8Array(body));
    if (!size.type || !size.width || !size.height) return undefined;
    if (WITHOUT_MAGIC.has(size.type) && !type.startsWith('image/')) return undefined;
    return { type: size.type, width: size.width, height: size.height };
  } catch {
    return undefined;
  }
}

/** A PDF or an image by its bytes; undefined for anything else (pageContent reads it). */
export async function binaryContent(body: Buffer, contentType: string, opts: { truncated: boolean; maxPages?: number }): Promise<BinaryContent | undefined> {
  const type = mediaType(contentType);
  if (looksLikePdf(body)) return pdfContent(body, opts.truncated, opts.maxPages ?? PDF_LIMITS.maxPages);
  if (type === 'application/pdf') throw new Error(`the server called it a PDF, but its ${body.length.toLocaleString('en-US')} bytes are not one.`);
  const image = sniffedImage(body, type);
  if (image) {
    const bytes = `${body.length.toLocaleString('en-US')} bytes${opts.truncated ? ' (cut at the download limit)' : ''}`;
    return { kind: 'image', title: '', text: `[An image: ${image.type.toUpperCase()}, ${image.width}×${image.height} pixels, ${bytes}. Its pixels are not shown as text.]` };
  }
  // An SVG that declares no size is still an SVG (pageContent names its type); any other image type
  // whose bytes are not an image is refused.
  if (type.startsWith('image/') && type !== 'image/svg+xml') {
    throw new Error(`the server called it ${type}, but its ${body.length.toLocaleString('en-US')} bytes are not an image web_fetch recognises.`);
  }
  return undefined;
}

async function pdfContent(body: Buffer, truncated: boolean, maxPages: number): Promise<BinaryContent> {
  if (truncated) throw new Error(`the PDF is larger than the download limit (${body.length.toLocaleString('en-US')} bytes read): a PDF cannot be read from its beginning alone.`);
  // Its own bundle (dist/pdf-extract.js), loaded at the first PDF: pdf.js stays out of every other call.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { extractPdfPages } = require('./pdf-extract') as typeof import('./pdf-extract');
  let doc: Awaited<ReturnType<typeof extractPdfPages>>;
  try {
    doc = await extractPdfPages(body, maxPages);
  } catch (e) {
    throw new Error(`the PDF could not be read: ${(e as Error).message}`);
  }
  const pages = doc.pages.map((text, i) => `--- Page ${i + 1} of ${doc.totalPages} ---\n${text || '(no text on this page: it may be a scanned image)'}`);
  const rest = doc.totalPages > doc.pages.length ? [`--- Pages ${doc.pages.length + 1}–${doc.totalPages} were not read (at most ${maxPages} pages of a PDF are read). ---`] : [];
  return { kind: 'pdf', title: doc.title, text: [...pages, ...rest].join('\n\n') };
}
