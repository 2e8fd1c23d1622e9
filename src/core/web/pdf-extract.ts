// The text of a PDF, page by page, read with unpdf (Mozilla's pdf.js built to run without a browser
// or native modules). This module is its own bundle (dist/pdf-extract.js), required by pdf-content.ts
// at the first PDF: pdf.js is 1.7 MB that no other call should load.
import { getDocumentProxy, getMeta } from 'unpdf';

export interface PdfPages {
  title: string;
  /** Pages in the document. */
  totalPages: number;
  /** The text of pages 1..n (n ≤ maxPages), one entry per page. */
  pages: string[];
}

interface TextItem {
  str?: string;
  hasEOL?: boolean;
}

export async function extractPdfPages(bytes: Uint8Array, maxPages: number): Promise<PdfPages> {
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const doc = await getDocumentProxy(new Uint8Array(bytes), { stopAtErrors: false });
  try {
    const meta = await getMeta(doc).catch(() => ({ info: {} as Record<string, unknown> }));
    const title = typeof meta.info?.Title === 'string' ? meta.info.Title.trim() : '';
    const pages: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push((content.items as TextItem[]).map((i) => `${i.str ?? ''}${i.hasEOL ? '\n' : ''}`).join('').trim());
    }
    return { title, totalPages: doc.numPages, pages };
  } finally {
    await doc.loadingTask.destroy();
  }
}
