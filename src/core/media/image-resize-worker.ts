// The worker thread that decodes, shrinks and encodes one image (image-fit.ts starts one per image
// and ends it after). Pure JavaScript (jimp's core with its PNG, JPEG and GIF codecs and its resize
// plugin; no native modules) takes seconds for a 12-megapixel photo: here that blocks this thread,
// never the extension host's. The codecs live only in this bundle (dist/image-resize-worker.js).
import { createJimp } from '@jimp/core';
import gif from '@jimp/js-gif';
import jpeg from '@jimp/js-jpeg';
import png from '@jimp/js-png';
import { methods as resizeMethods } from '@jimp/plugin-resize';
import { parentPort, workerData } from 'node:worker_threads';

const Jimp = createJimp({ formats: [png, jpeg, gif], plugins: [resizeMethods] });

/** `check`: decode only (throws when the bytes are cut short or corrupt). `shrink`: fit within the limits. */
export interface ResizeRequest {
  op: 'check' | 'shrink';
  input: Uint8Array;
  maxEdge: number;
  maxBytes: number;
  /** Keep PNG when it fits (sharp edges and transparency: screenshots, diagrams); else JPEG. */
  keepPng: boolean;
}

export type ResizeReply =
  | { ok: true; bytes?: Uint8Array; mimeType?: 'image/png' | 'image/jpeg'; width?: number; height?: number }
  | { ok: false; error: string };

async function run(req: ResizeRequest): Promise<ResizeReply> {
  const image = await Jimp.fromBuffer(Buffer.from(req.input.buffer, req.input.byteOffset, req.input.byteLength));
  if (req.op === 'check') return { ok: true };
  const { width, height } = image.bitmap;
  const scale = Math.min(1, req.maxEdge / Math.max(width, height));
  if (scale < 1) image.resize({ w: Math.max(1, Math.round(width * scale)), h: Math.max(1, Math.round(height * scale)) });
  const size = { width: image.bitmap.width, height: image.bitmap.height };
  if (req.keepPng) {
    const asPng = await image.getBuffer('image/png');
    if (asPng.length <= req.maxBytes) return { ok: true, bytes: asPng, mimeType: 'image/png', ...size };
  }
  return { ok: true, bytes: await image.getBuffer('image/jpeg', { quality: 85 }), mimeType: 'image/jpeg', ...size };
}

if (parentPort) {
  run(workerData as ResizeRequest).then(
    (reply) => parentPort?.postMessage(reply),
    (e: unknown) => parentPort?.postMessage({ ok: false, error: e instanceof Error ? e.message : String(e) } satisfies ResizeReply),
  );
}
