// Bytes that claim to be an image, made into an ImagePart every provider that takes images accepts:
// recognised by their bytes (not a name or a Content-Type), decoded once so a cut-short or corrupt file
// never reaches a provider (which would refuse the whole request, and every later one replaying it),
// and shrunk when over the limits. A decompression bomb (a few bytes declaring billions of pixels) is
// refused by its declared size before anything is decoded. Decoding and shrinking run on a worker
// thread of their own (image-resize-worker.ts), ended when done or when the call is cancelled.
import { imageSize } from 'image-size';
import { THUMBNAIL_LIMITS, type ImageMimeType, type ImagePart } from './image-part';
import type { ResizeReply, ResizeRequest } from './image-resize-worker';
import { runOneShotWorker } from './one-shot-worker';

export const IMAGE_LIMITS = {
  /** Longest side sent, in pixels: Anthropic shrinks larger images to about this anyway, OpenAI to 2,048. */
  maxEdge: 1568,
  /** Bytes of one image sent: Anthropic's 5 MB per image, once base64 has grown it by a third. */
  maxBytes: 3_750_000,
  /** Pixels decoded at most (4 bytes each in memory): larger images are refused, not shrunk. */
  maxDecodePixels: 40_000_000,
};

export type ImageLimits = typeof IMAGE_LIMITS;

/** Why an image cannot go to the model, in words for the model (the tool's error result). */
export class ImageRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageRefused';
  }
}

const MIME: Record<string, ImageMimeType> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

function sniff(bytes: Uint8Array): { type: string; width: number; height: number } | undefined {
  try {
    // A copy of its own: image-size reads through DataViews over the whole underlying ArrayBuffer, so
    // a view into Node's shared buffer pool would let it read past these bytes.
    const size = imageSize(new Uint8Array(bytes));
    return size.type && size.width && size.height ? { type: size.type, width: size.width, height: size.height } : undefined;
  } catch {
    return undefined;
  }
}

/** A WebP cannot be decoded without native code or WebAssembly; its RIFF header must at least account for every byte. */
function webpWhole(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const riffSize = Buffer.from(bytes.buffer, bytes.byteOffset, 12).readUInt32LE(4);
  return riffSize + 8 === bytes.length;
}

const n = (x: number) => x.toLocaleString('en-US');

/** The worker's answer for one image; rejects when it fails, dies, or `signal` aborts (the worker is ended). */
function inWorker(req: ResizeRequest, signal?: AbortSignal): Promise<Extract<ResizeReply, { ok: true }>> {
  return runOneShotWorker<Omit<Extract<ResizeReply, { ok: true }>, 'ok'>>('image-resize-worker.js', req, 'image worker', { signal });
}

/**
 * `source` says where the bytes came from (a path, a URL, a tool): it is named in errors and kept on the
 * part. `thumbnail`: keep a small copy on the part too (a pasted image, shown again when its chat reopens),
 * unless the image is as small already; a WebP, which cannot be decoded here, gets none.
 */
export async function prepareImage(bytes: Uint8Array, source: string, opts: { signal?: AbortSignal; limits?: ImageLimits; thumbnail?: boolean } = {}): Promise<ImagePart> {
  const limits = opts.limits ?? IMAGE_LIMITS;
  const size = sniff(bytes);
  if (!size) throw new ImageRefused(`${source} is not an image: its ${n(bytes.length)} bytes are not PNG, JPEG, GIF or WebP, whatever its name says.`);
  const mimeType = MIME[size.type];
  if (!mimeType) throw new ImageRefused(`${source} is a ${size.type.toUpperCase()} image; images go to the model as PNG, JPEG, GIF or WebP. Convert it first.`);
  const { width, height } = size;
  const fits = Math.max(width, height) <= limits.maxEdge && bytes.length <= limits.maxBytes;
  const b64 = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  const part = (data: Uint8Array, mime: ImageMimeType, w: number, h: number, thumb?: { bytes: Uint8Array; mimeType: ImageMimeType }): ImagePart => ({
    type: 'image', mimeType: mime, data: b64(data), width: w, height: h, bytes: data.length, source,
    ...(fits ? {} : { original: { width, height, bytes: bytes.length } }),
    ...(thumb && data.length > THUMBNAIL_LIMITS.maxBytes ? { thumbnail: { mimeType: thumb.mimeType, data: b64(thumb.bytes) } } : {}),
  });
  if (mimeType === 'image/webp') {
    if (!webpWhole(bytes)) throw new ImageRefused(`${source} starts like a WebP image but its ${n(bytes.length)} bytes are not a whole one.`);
    if (!fits) {
      throw new ImageRefused(`${source} is a WebP image of ${width}×${height} pixels and ${n(bytes.length)} bytes, over the limit the model takes (${limits.maxEdge} pixels a side, ${n(limits.maxBytes)} bytes), and WebP cannot be shrunk here. Convert it to PNG or JPEG first.`);
    }
    return part(bytes, mimeType, width, height);
  }
  if (width * height > limits.maxDecodePixels) {
    throw new ImageRefused(`${source} is ${width}×${height} pixels (${n(width * height)}), more than the ${n(limits.maxDecodePixels)} pixels Pincer decodes to shrink an image. Make a smaller copy first.`);
  }
  let reply: Extract<ResizeReply, { ok: true }>;
  try {
    const thumbnail = opts.thumbnail && !(fits && bytes.length <= THUMBNAIL_LIMITS.maxBytes) ? THUMBNAIL_LIMITS : undefined;
    reply = await inWorker({ op: fits ? 'check' : 'shrink', input: bytes, maxEdge: limits.maxEdge, maxBytes: limits.maxBytes, keepPng: mimeType !== 'image/jpeg', ...(thumbnail ? { thumbnail } : {}) }, opts.signal);
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    throw new ImageRefused(`${source} starts like a ${size.type.toUpperCase()} image but does not decode as one (${(e as Error).message}).`);
  }
  if (fits) return part(bytes, mimeType, width, height, reply.thumbnail);
  if (!reply.bytes || !reply.mimeType || !reply.width || !reply.height) throw new ImageRefused(`${source} could not be shrunk to fit the model's limits.`);
  if (reply.bytes.length > limits.maxBytes) {
    throw new ImageRefused(`${source} is still ${n(reply.bytes.length)} bytes after shrinking it to ${reply.width}×${reply.height}, over the ${n(limits.maxBytes)} bytes the model takes.`);
  }
  return part(reply.bytes, reply.mimeType, reply.width, reply.height, reply.thumbnail);
}
