// read_document: the text of a PDF in the workspace, page by page with page numbers, a few pages a call
// (paged like read_file: the result says which pages come next). The file goes through the same path
// guard as read_file and is recognised by its bytes, not its name: a ".pdf" that is not one is refused,
// and a PDF named otherwise is read. A page with no text (a scan) says so. pdf.js (through unpdf, no
// native modules) is its own bundle, required at the first document.
import { z } from 'zod';
import type { FsToolDeps } from '../fs/types';
import { defineTool, fail, ok, type Tool } from '../tools/types';

export const DOCUMENT_LIMITS = {
  /** pdf.js holds the whole file in memory. */
  maxBytes: 50 * 1024 * 1024,
  /** Pages returned by one call; the notice names the next range. */
  pagesPerCall: 10,
};

const parameters = z.object({
  path: z.string().min(1).describe('The PDF: relative to the workspace root, or absolute.'),
  pages: z.string().regex(/^\s*\d+\s*(-\s*\d+\s*)?$/, 'a page ("3") or a range ("2-5")').optional()
    .describe(`Pages to read, 1-based: "3" or "2-5". Default: from page 1, ${DOCUMENT_LIMITS.pagesPerCall} pages a call.`),
}).strict();

/** A PDF's header may come after a little junk; readers accept it within the first kilobyte. */
function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).indexOf('%PDF-') !== -1;
}

/** The pages asked for (`asked`: their end, Infinity when none were named) and the ones this call reads. */
function range(pages: string | undefined): { from: number; to: number; asked: number } {
  const [a, b] = (pages ?? '1').split('-').map((s) => Number(s.trim()));
  const from = Math.max(1, a);
  const asked = pages?.includes('-') ? b : pages ? a : Infinity;
  return { from, to: Math.min(asked, from + DOCUMENT_LIMITS.pagesPerCall - 1), asked };
}

export function createReadDocumentTool(deps: Pick<FsToolDeps, 'guard' | 'fs'>): Tool {
  return defineTool({
    name: 'read_document',
    description: 'Reads the text of a PDF page by page ("--- Page 3 of 12 ---" before each page), '
      + `${DOCUMENT_LIMITS.pagesPerCall} pages a call; pages "2-5" picks a range, and the result names the next one. `
      + 'A page without text (a scanned image) is reported as such. Other document formats are not read.',
    parameters,
    group: 'media_read',
    capability: 'read-only',
    async execute(args, ctx) {
      const target = await deps.guard.resolve(args.path, 'read');
      const shown = target.rel || target.input;
      const st = await deps.fs.stat(target.abs);
      if (!st) return fail(`File not found: ${shown}. Use glob or list_files to find the right path.`);
      if (st.type !== 'file') return fail(`${shown} is not a file.`);
      if (st.size > DOCUMENT_LIMITS.maxBytes) return fail(`${shown} is ${st.size.toLocaleString('en-US')} bytes; read_document reads documents up to ${DOCUMENT_LIMITS.maxBytes.toLocaleString('en-US')} bytes.`);
      const bytes = await deps.fs.readFile(target.abs, ctx.signal);
      if (!isPdf(bytes)) return fail(`${shown} is not a PDF (its bytes do not start like one, whatever its name). read_document reads PDFs; read_file reads text.`);
      const { from, to, asked } = range(args.pages);
      if (to < from) return fail(`pages "${args.pages}": the range ends before it starts.`);
      // Its own bundle (dist/pdf-extract.js), loaded at the first document: pdf.js stays out of every other call.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { extractPdfPages } = require('../web/pdf-extract') as typeof import('../web/pdf-extract');
      let doc: Awaited<ReturnType<typeof extractPdfPages>>;
      try {
        doc = await extractPdfPages(bytes, to);
      } catch (e) {
        return fail(`${shown} could not be read as a PDF: ${(e as Error).message}`);
      }
      const total = doc.totalPages;
      if (from > total) return fail(`pages "${args.pages}": ${shown} has ${total} page${total === 1 ? '' : 's'}.`);
      const last = Math.min(to, total);
      const text = doc.pages.slice(from - 1, last)
        .map((t, i) => `--- Page ${from + i} of ${total} ---\n${t || '(no text on this page: it may be a scanned image)'}`).join('\n\n');
      // The next range is named when this call stopped short of what was asked (or of the end, when nothing was).
      const next = last < Math.min(total, asked) ? `\n\n[Showing pages ${from}-${last} of ${total}. Use pages="${last + 1}-${Math.min(total, last + DOCUMENT_LIMITS.pagesPerCall)}" to continue.]` : '';
      const emptyPages = doc.pages.slice(from - 1, last).flatMap((t, i) => (t ? [] : [from + i]));
      return ok(text + next, { details: { path: shown, title: doc.title, totalPages: total, from, to: last, pagesWithoutText: emptyPages } });
    },
  });
}
