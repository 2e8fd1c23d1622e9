// How a text file's bytes become the string the edit tools work on, and back. An edit must leave
// everything it did not change byte for byte as it was: the BOM, the encoding and the line endings
// of the file, so a one-line edit of a CRLF file with a BOM is a one-line diff in git.
import type { WorkspaceFs } from './types';

export type TextEncodingName = 'utf8' | 'utf16le' | 'utf16be';
export type Eol = '\n' | '\r\n';

/** How a file's text is stored; what `encodeText` needs to write it back the same way. */
export interface TextFormat {
  encoding: TextEncodingName;
  bom: boolean;
  /** The dominant line ending (CRLF only when CRLF lines outnumber LF-only lines). */
  eol: Eol;
}

export interface DecodedText extends TextFormat {
  /** The content without the BOM, line endings as they are in the file. */
  text: string;
}

export type DecodeOutcome =
  | ({ ok: true } & DecodedText)
  | { ok: false; reason: 'binary' | 'invalid-utf8' };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes a file that must be edited as text; binary or non-UTF-8 content is reported, never guessed. */
export function decodeText(bytes: Uint8Array): DecodeOutcome {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes, 'utf16le');
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes, 'utf16be');
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  // A NUL byte never occurs in UTF-8 text a person edits; it marks a binary file.
  if (body.includes(0)) return { ok: false, reason: 'binary' };
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    return { ok: false, reason: 'invalid-utf8' };
  }
  return { ok: true, text, encoding: 'utf8', bom, eol: detectEol(text) };
}

function utf16(bytes: Uint8Array, encoding: 'utf16le' | 'utf16be'): DecodeOutcome {
  if (bytes.length % 2 !== 0) return { ok: false, reason: 'binary' };
  const body = Buffer.from(bytes.subarray(2));
  if (encoding === 'utf16be') body.swap16();
  const text = body.toString('utf16le');
  return { ok: true, text, encoding, bom: true, eol: detectEol(text) };
}

/** Decodes for display only (a diff's "before" side): never fails, may contain U+FFFD. */
export function decodeLossy(bytes: Uint8Array): string {
  const d = decodeText(bytes);
  return d.ok ? d.text : Buffer.from(bytes).toString('utf8');
}

export function encodeText(text: string, format: Pick<TextFormat, 'encoding' | 'bom'>): Uint8Array {
  if (format.encoding === 'utf8') {
    const body = Buffer.from(text, 'utf8');
    return format.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : new Uint8Array(body);
  }
  const body = Buffer.from(text, 'utf16le');
  if (format.encoding === 'utf16be') body.swap16();
  // UTF-16 is only ever read with its BOM (decodeText needs it to recognise the encoding).
  const bom = format.encoding === 'utf16le' ? [0xff, 0xfe] : [0xfe, 0xff];
  return new Uint8Array(Buffer.concat([Buffer.from(bom), body]));
}

/** CRLF when CRLF line breaks outnumber lone LF ones; LF otherwise (and for text without breaks). */
export function detectEol(text: string): Eol {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Rewrites every line break (CRLF or LF) in `text` as `eol`. */
export function convertEol(text: string, eol: Eol): string {
  return text.replace(/\r?\n/g, eol);
}

/** Lines as an editor counts them: '' has 0, 'a' and 'a\n' have 1, 'a\nb' has 2. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export type ReadTextOutcome =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'unreadable'; reason: 'binary' | 'invalid-utf8'; bytes: Uint8Array }
  | { kind: 'text'; bytes: Uint8Array; decoded: DecodedText };

/** Reads a file the edit tools are about to change, saying precisely why it cannot be edited as text. */
export async function readTextFile(fs: WorkspaceFs, abs: string, signal?: AbortSignal): Promise<ReadTextOutcome> {
  const st = await fs.stat(abs);
  if (!st) return { kind: 'missing' };
  if (st.type === 'directory') return { kind: 'directory' };
  const bytes = await fs.readFile(abs, signal);
  const d = decodeText(bytes);
  if (!d.ok) return { kind: 'unreadable', reason: d.reason, bytes };
  const { ok: _ok, ...decoded } = d;
  return { kind: 'text', bytes, decoded };
}

/** What a model is told when a file cannot be edited as text. */
export function unreadableMessage(rel: string, reason: 'binary' | 'invalid-utf8'): string {
  return reason === 'binary'
    ? `${rel} is a binary file (it contains NUL bytes); it cannot be edited as text. Use write_file only if you mean to replace it entirely.`
    : `${rel} is not valid UTF-8 (nor UTF-16 with a BOM); editing it as text would corrupt it. Ask the user to convert it to UTF-8 first.`;
}
