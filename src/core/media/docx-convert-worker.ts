// The worker thread that turns one Word document into markdown parts (read_document starts one per
// document and ends it after). mammoth's own documentation warns that a crafted document can make it use much CPU or
// memory: here that costs this thread, under heap caps, never the extension host's. The zip reader,
// mammoth and the HTML → markdown converter live only in this bundle (dist/docx-convert-worker.js).
import { parentPort, workerData } from 'node:worker_threads';
import { docxToMarkdown, DocxRefused, splitIntoParts } from './docx-markdown';
import type { WorkerReply } from './one-shot-worker';

export interface DocxRequest {
  bytes: Uint8Array;
  /** The most characters in one part. */
  partChars: number;
}

export type DocxReply = WorkerReply<{ parts: string[] }>;

if (parentPort) {
  const { bytes, partChars } = workerData as DocxRequest;
  docxToMarkdown(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).then(
    (markdown) => parentPort?.postMessage({ ok: true, parts: splitIntoParts(markdown, partChars) } satisfies DocxReply),
    (e: unknown) => parentPort?.postMessage({ ok: false, error: e instanceof DocxRefused ? e.message : `could not be read as a Word document: ${e instanceof Error ? e.message : String(e)}` } satisfies DocxReply),
  );
}
