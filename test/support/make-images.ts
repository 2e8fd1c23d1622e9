// Real images made by the tests (no committed binaries), encoded by jimp's own codecs, so any decoder
// reads them: a two-coloured picture (left half, right half) so a shrunk copy can be checked for
// keeping its content, not only its size.
import { createJimp } from '@jimp/core';
import gif from '@jimp/js-gif';
import jpeg from '@jimp/js-jpeg';
import png from '@jimp/js-png';

const Jimp = createJimp({ formats: [png, jpeg, gif] });

export type TestImageType = 'image/png' | 'image/jpeg' | 'image/gif';

const RED = 0xff0000ff;
const BLUE = 0x0000ffff;

export async function makeImage(type: TestImageType, width: number, height: number): Promise<Buffer> {
  const image = new Jimp({ width, height, color: RED });
  image.scan(Math.floor(width / 2), 0, width - Math.floor(width / 2), height, (_x, _y, idx) => {
    image.bitmap.data.writeUInt32BE(BLUE, idx);
  });
  return image.getBuffer(type);
}

/** Noise, which PNG and JPEG cannot compress: for images that stay large after shrinking. */
export async function makeNoise(type: TestImageType, width: number, height: number, seed = 1): Promise<Buffer> {
  const image = new Jimp({ width, height, color: 0 });
  let s = seed;
  const data = image.bitmap.data;
  for (let i = 0; i < data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    data[i] = i % 4 === 3 ? 255 : s >>> 24;
  }
  return image.getBuffer(type);
}

/** The colour at (x, y) of an encoded image, as 0xRRGGBBAA. */
export async function pixelAt(bytes: Buffer, x: number, y: number): Promise<number> {
  const image = await Jimp.fromBuffer(bytes);
  return image.bitmap.data.readUInt32BE((y * image.bitmap.width + x) * 4);
}

/**
 * A PNG whose header declares `width`×`height` but which holds a 1×1 picture: image-size believes the
 * header, a decoder would try to allocate for it (a decompression bomb's shape).
 */
export async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const real = await makeImage('image/png', 1, 1);
  const out = Buffer.from(real);
  // The IHDR chunk's data starts after the 8-byte signature, its 4-byte length and its type.
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  return out;
}

/** A lossless WebP's header (RIFF, VP8L with its size) around `payload` bytes of made-up data. */
export function webpHeader(width: number, height: number, payload = 16): Buffer {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  const vp8l = Buffer.alloc(5 + payload);
  vp8l[0] = 0x2f;
  vp8l.writeUInt32LE(bits >>> 0, 1);
  const chunk = Buffer.concat([Buffer.from('VP8L'), Buffer.alloc(4), vp8l]);
  chunk.writeUInt32LE(vp8l.length, 4);
  const riff = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), chunk]);
  riff.writeUInt32LE(riff.length - 8, 4);
  return riff;
}
