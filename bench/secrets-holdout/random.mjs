// A small seeded random source (sfc32) and the value shapes secret formats are made of, so the
// corpus is the same byte for byte on every run with the same seed.
import { Buffer } from 'node:buffer';

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const LOWER_NUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const HEX = '0123456789abcdef';
export const B64 = `${ALNUM}+/`;
export const B64URL = `${ALNUM}-_`;
export const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function createRandom(seed) {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  const r = {
    next,
    int: (n) => Math.floor(next() * n),
    range: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    str: (alphabet, n) => {
      let s = '';
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
      return s;
    },
    bytes: (n) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256))),
  };
  r.hex = (n) => r.str(HEX, n);
  r.alnum = (n) => r.str(ALNUM, n);
  r.digits = (n) => r.str('0123456789', n);
  r.b64 = (nBytes) => r.bytes(nBytes).toString('base64');
  r.b64url = (nBytes) => r.bytes(nBytes).toString('base64url');
  r.uuid = () => `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-${r.pick(['8', '9', 'a', 'b'])}${r.hex(3)}-${r.hex(12)}`;
  return r;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(text) {
  let c = 0xffffffff;
  for (const byte of Buffer.from(text)) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Base62 of a number, left-padded with zeros: the checksum tail of GitHub-style and npm tokens. */
export function base62(n, width) {
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let s = '';
  do { s = digits[n % 62] + s; n = Math.floor(n / 62); } while (n > 0);
  return s.padStart(width, '0');
}

/** `prefix` + 30 random characters + the 6-character base62 CRC32 of those 30 (GitHub/npm token layout). */
export function checksummed(r, prefix) {
  const body = r.alnum(30);
  return `${prefix}${body}${base62(crc32(body), 6)}`;
}

// Bech32 (BIP-173), for age secret keys.
const BECH = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
function polymod(values) {
  const G = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= G[i];
  }
  return chk >>> 0;
}
export function bech32(hrp, bytes) {
  const data = [];
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b; bits += 8;
    while (bits >= 5) { bits -= 5; data.push((acc >>> bits) & 31); }
  }
  if (bits > 0) data.push((acc << (5 - bits)) & 31);
  const expand = [...hrp].map((ch) => ch.charCodeAt(0) >>> 5).concat([0], [...hrp].map((ch) => ch.charCodeAt(0) & 31));
  const mod = polymod([...expand, ...data, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...data, ...checksum].map((d) => BECH[d]).join('')}`;
}

export const b64json = (obj) => Buffer.from(JSON.stringify(obj)).toString('base64');
export const b64urljson = (obj) => Buffer.from(JSON.stringify(obj)).toString('base64url');
