// Binary detection by content, not by extension: a `.ts` file can hold a bundle with NULs and a file
// without an extension is often text. We look at the first 8 KB only, so a 50 MB file costs nothing.
import { formatCount } from '../format-count';

export const SNIFF_BYTES = 8192;

export type Sniff =
  | { binary: false; encoding: 'utf8' | 'utf16le' | 'utf16be' }
  | { binary: true; reason: string; kind?: string };

/** Magic numbers of the binary formats a workspace commonly holds; named so the model knows what it has. */
const MAGIC: [kind: string, bytes: number[]][] = [
  ['PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG image', [0xff, 0xd8, 0xff]],
  ['GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['WebP/RIFF media', [0x52, 0x49, 0x46, 0x46]],
  ['PDF document', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['ZIP archive (also .jar, .vsix, .docx, .xlsx)', [0x50, 0x4b, 0x03, 0x04]],
  ['gzip archive', [0x1f, 0x8b]],
  ['ELF executable', [0x7f, 0x45, 0x4c, 0x46]],
  ['WebAssembly module', [0x00, 0x61, 0x73, 0x6d]],
  ['SQLite database', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66]],
];

const IMAGE = /image|WebP/;

function startsWith(head: Uint8Array, magic: number[]): boolean {
  return head.length >= magic.length && magic.every((b, i) => head[i] === b);
}

/**
 * Bytes that cannot be part of UTF-8 text: invalid sequences, and control characters other than
 * tab, line feed, carriage return, form feed and escape. A sequence cut by the end of the sample is
 * not counted (the sample ends at an arbitrary byte).
 */
export function suspiciousBytes(head: Uint8Array): number {
  let bad = 0;
  let i = 0;
  while (i < head.length) {
    const b = head[i];
    if (b < 0x80) {
      if (b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 12 && b !== 27) bad++;
      i++;
      continue;
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) { bad++; i++; continue; }
    if (i + need >= head.length) break;
    let valid = true;
    for (let k = 1; k <= need; k++) if ((head[i + k] & 0xc0) !== 0x80) valid = false;
    if (!valid) { bad++; i++; continue; }
    i += need + 1;
  }
  return bad;
}

/** Binary if the sample holds a NUL byte or more than 30 % of it cannot be UTF-8 text. */
export function sniffContent(head: Uint8Array): Sniff {
  if (startsWith(head, [0xff, 0xfe])) return { binary: false, encoding: 'utf16le' };
  if (startsWith(head, [0xfe, 0xff])) return { binary: false, encoding: 'utf16be' };
  const kind = MAGIC.find(([, m]) => startsWith(head, m))?.[0];
  if (head.includes(0)) return { binary: true, reason: 'it contains NUL bytes', kind };
  const bad = suspiciousBytes(head);
  if (head.length > 0 && bad / head.length > 0.3) {
    return { binary: true, reason: `${Math.round((bad / head.length) * 100)}% of its first ${head.length} bytes are not UTF-8 text`, kind };
  }
  if (kind && kind !== 'WebP/RIFF media' && kind !== 'gzip archive') return { binary: true, reason: `it starts with the signature of a ${kind}`, kind };
  return { binary: false, encoding: 'utf8' };
}

/** What read_file answers for a binary file: what it is, and which tool suits it instead. */
export function binaryMessage(rel: string, size: number, sniff: Extract<Sniff, { binary: true }>): string {
  const what = sniff.kind ? ` It looks like a ${sniff.kind}.` : '';
  const pointer = sniff.kind && IMAGE.test(sniff.kind)
    ? 'To look at an image, use an image or media tool if one is available to you.'
    : 'To inspect its bytes, run `xxd -l 512` or `file` on it with the exec tool if it is available to you; to find text inside it, use grep.';
  return `${rel} is a binary file (${formatCount(size)} bytes; ${sniff.reason}); read_file shows text only.${what} ${pointer}`;
}
