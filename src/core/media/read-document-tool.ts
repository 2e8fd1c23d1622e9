// read_document: the text of a PDF or a Word document (.docx) in the workspace, a few pages a call (paged
// like read_file: the result says which pages come next). A PDF is read page by page with page numbers; a
// Word document, which has no pages of its own, becomes markdown (headings, lists, tables) cut into parts
// read the same way. The file goes through the same path guard as read_file and is recognised by its
// bytes, not its name: a ".pdf" that is not one is refused, and a PDF named otherwise is read. A page with
// no text (a scan) says so. pdf.js (through unpdf, no native modules) is its own bundle, required at the
// first PDF; a Word document is converted on a worker thread of its own (docx-convert-worker.ts) after
// its zip has passed office-zip's caps.
import { z } from 'zod';
import type { FsToolDeps } from '../fs/types';
import { formatCount } from '../format-count';
import { defineTool, fail, ok, type Tool } from '../tools/types';
import type { DocxReply, DocxRequest } from './docx-convert-worker';
import { runOneShotWorker } from './one-shot-worker';

export const DOCUMENT_LIMITS = {
  /** pdf.js holds the whole file in memory, and so does the zip reader. */
  maxBytes: 50 * 1024 * 1024,
  /** Pages (or a Word document's parts) returned by one call; the notice names the next range. */
  pagesPerCall: 10,
  /** Characters in one part of a Word document: ten parts stay under the tools' 60,000-character result cap. */
  partChars: 5_000,
};

const parameters = z.object({
  path: z.string().min(1).describe('The PDF or Word document (.docx): relative to the workspace root, or absolute.'),
  pages: z.string().regex(/^\s*\d+\s*(-\s*\d+\s*)?$/, 'a page ("3") or a range ("2-5")').optional()
    .describe(`Pages (a Word document's parts) to read, 1-based: "3" or "2-5". Default: from 1, ${DOCUMENT_LIMITS.pagesPerCall} a call.`),
}).strict();

type Kind = 'pdf' | 'zip' | 'compound' | undefined;

/** What the bytes are: a PDF (its header may come after a little junk, within the first kilobyte), a zip, or an OLE compound file. */
function kindOf(bytes: Uint8Array): Kind {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024));
  if (head.indexOf('%PDF-') !== -1) return 'pdf';
  if (head.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) return 'zip';
  if (head.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex'))) return 'compound';
  return undefined;
}

/** The pages asked for (`asked`: their end, Infinity when none were named) and the ones this call reads. */
function range(pages: string | undefined): { from: number; to: number; asked: number } {
  const [a, b] = (pages ?? '1').split('-').map((s) => Number(s.trim()));
  const from = Math.max(1, a);
  const asked = pages?.includes('-') ? b : pages ? a : Infinity;
  return { from, to: Math.min(asked, from + DOCUMENT_LIMITS.pagesPerCall - 1), asked };
}

interface Pages {
  unit: 'Page' | 'Part';
  title: string;
  total: number;
  /** The text of pages 1..n, n at least `to` when the document has that many. */
  pages: string[];
}

async function pdfPages(bytes: Uint8Array, to: number): Promise<Pages> {
  // Its own bundle (dist/pdf-extract.js), loaded at the first document: pdf.js stays out of every other call.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { extractPdfPages } = require('../web/pdf-extract') as typeof import('../web/pdf-extract');
  const doc = await extractPdfPages(bytes, to);
  return { unit: 'Page', title: doc.title, total: doc.totalPages, pages: doc.pages };
}

async function docxParts(bytes: Uint8Array, signal?: AbortSignal): Promise<Pages> {
  const request: DocxRequest = { bytes, partChars: DOCUMENT_LIMITS.partChars };
  const { parts } = await runOneShotWorker<Extract<DocxReply, { ok: true }>>('docx-convert-worker.js', request, 'Word document converter', {
    signal, resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  return { unit: 'Part', title: '', total: parts.length, pages: parts };
}

export function createReadDocumentTool(deps: Pick<FsToolDeps, 'guard' | 'fs'>): Tool {
  return defineTool({
    name: 'read_document',
    description: 'Reads the text of a PDF page by page ("--- Page 3 of 12 ---" before each page), or a Word document (.docx) '
      + `as markdown with headings, lists and tables, in parts of about ${formatCount(DOCUMENT_LIMITS.partChars)} characters ("--- Part 2 of 5 ---"); `
      + `${DOCUMENT_LIMITS.pagesPerCall} pages or parts a call: pages "2-5" picks a range, and the result names the next one. `
      + 'A PDF page without text (a scanned image) is reported as such. Other formats (old .doc, XLSX, PPTX) are not read.',
    parameters,
    group: 'media_read',
    capability: 'read-only',
    async execute(args, ctx) {
      const target = await deps.guard.resolve(args.path, 'read');
      const shown = target.rel || target.input;
      const st = await deps.fs.stat(target.abs);
      if (!st) return fail(`File not found: ${shown}. Use glob or list_files to find the right path.`);
      if (st.type !== 'file') return fail(`${shown} is not a file.`);
      if (st.size > DOCUMENT_LIMITS.maxBytes) return fail(`${shown} is ${formatCount(st.size)} bytes; read_document reads documents up to ${formatCount(DOCUMENT_LIMITS.maxBytes)} bytes.`);
      const bytes = await deps.fs.readFile(target.abs, ctx.signal);
      const kind = kindOf(bytes);
      if (kind === 'compound') return fail(`${shown} is a password-protected Office document or an old binary one (.doc, .xls, .ppt); read_document reads PDF and DOCX. Save it as an unprotected .docx or a PDF first.`);
      if (!kind) return fail(`${shown} is neither a PDF nor a Word document (its bytes do not start like one, whatever its name). read_document reads PDF and DOCX; read_file reads text.`);
      const { from, to, asked } = range(args.pages);
      if (to < from) return fail(`pages "${args.pages}": the range ends before it starts.`);
      let doc: Pages;
      try {
        doc = kind === 'pdf' ? await pdfPages(bytes, to) : await docxParts(bytes, ctx.signal);
      } catch (e) {
        if (ctx.signal?.aborted) throw e;
        return fail(kind === 'pdf' ? `${shown} could not be read as a PDF: ${(e as Error).message}` : `${shown} ${(e as Error).message}`);
      }
      const { unit, total } = doc;
      const units = unit === 'Page' ? 'page' : 'part';
      if (from > total) return fail(`pages "${args.pages}": ${shown} has ${total} ${units}${total === 1 ? '' : 's'}.`);
      const last = Math.min(to, total);
      const empty = unit === 'Page' ? '(no text on this page: it may be a scanned image)' : '(the document has no text)';
      const text = doc.pages.slice(from - 1, last).map((t, i) => `--- ${unit} ${from + i} of ${total} ---\n${t || empty}`).join('\n\n');
      // The next range is named when this call stopped short of what was asked (or of the end, when nothing was).
      const next = last < Math.min(total, asked) ? `\n\n[Showing ${units}s ${from}-${last} of ${total}. Use pages="${last + 1}-${Math.min(total, last + DOCUMENT_LIMITS.pagesPerCall)}" to continue.]` : '';
      const emptyPages = doc.pages.slice(from - 1, last).flatMap((t, i) => (t ? [] : [from + i]));
      return ok(text + next, { details: { path: shown, format: kind === 'pdf' ? 'pdf' : 'docx', title: doc.title, totalPages: total, from, to: last, pagesWithoutText: emptyPages } });
    },
  });
}
