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
  /** Also a small copy for the chat to show again later (from the same decode): its size limits. */
  thumbnail?: { maxEdge: number; maxBytes: number };
}

type Encoded = { bytes: Uint8Array; mimeType: 'image/png' | 'image/jpeg' };

export type ResizeReply =
  | { ok: true; bytes?: Uint8Array; mimeType?: 'image/png' | 'image/jpeg'; width?: number; height?: number; thumbnail?: Encoded }
  | { ok: false; error: string };

type Image = Awaited<ReturnType<typeof Jimp.fromBuffer>>;

/** Shrinks `image` (in place) to `maxEdge` a side at most. */
function fit(image: Image, maxEdge: number): void {
  const { width, height } = image.bitmap;
  const scale = Math.min(1, maxEdge / Math.max(width, height));
  if (scale < 1) image.resize({ w: Math.max(1, Math.round(width * scale)), h: Math.max(1, Math.round(height * scale)) });
}

/** PNG when asked and within `maxBytes`, else JPEG at `quality`. */
async function encode(image: Image, keepPng: boolean, maxBytes: number, quality: number): Promise<Encoded> {
  if (keepPng) {
    const asPng = await image.getBuffer('image/png');
    if (asPng.length <= maxBytes) return { bytes: asPng, mimeType: 'image/png' };
  }
  return { bytes: await image.getBuffer('image/jpeg', { quality }), mimeType: 'image/jpeg' };
}

async function run(req: ResizeRequest): Promise<ResizeReply> {
  const image = await Jimp.fromBuffer(Buffer.from(req.input.buffer, req.input.byteOffset, req.input.byteLength));
  let shrunk: Extract<ResizeReply, { ok: true }> = { ok: true };
  if (req.op === 'shrink') {
    fit(image, req.maxEdge);
    shrunk = { ok: true, ...await encode(image, req.keepPng, req.maxBytes, 85), width: image.bitmap.width, height: image.bitmap.height };
  }
  if (!req.thumbnail) return shrunk;
  // Last: shrinking further spoils the image for anything else.
  fit(image, req.thumbnail.maxEdge);
  const thumbnail = await encode(image, req.keepPng, req.thumbnail.maxBytes, 70);
  return thumbnail.bytes.length <= req.thumbnail.maxBytes ? { ...shrunk, thumbnail } : shrunk;
}

if (parentPort) {
  run(workerData as ResizeRequest).then(
    (reply) => parentPort?.postMessage(reply),
    (e: unknown) => parentPort?.postMessage({ ok: false, error: e instanceof Error ? e.message : String(e) } satisfies ResizeReply),
  );
}
