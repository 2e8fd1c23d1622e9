// The line window of read_file: one pass over the bytes that skips to `offset`, keeps the lines of
// the window within a byte budget, then only counts the remaining line feeds (so the model hears how
// long the file is). Work happens on bytes, never on the whole file as a string: a 50 MB file costs
// one chunk of memory plus the window. Lines are what an editor shows: '' has 0, 'a' and 'a\n' 1.
import { STREAM_CHUNK_BYTES, type ByteSource } from './read-range';

export interface WindowRequest {
  /** 1-based first line. */
  offset: number;
  maxLines: number;
  /** Budget of the output text: line-number prefixes, line text and line feeds. */
  maxBytes: number;
  /** 1-based first character shown of the line at `offset` (for lines too long to show whole). */
  column?: number;
  signal?: AbortSignal;
}

export interface LineSlice {
  line: number;
  /** 1-based, inclusive character positions shown (UTF-16 units, as an editor's column counts them). */
  from: number;
  to: number;
  /** Characters in the whole line, its line ending excluded. */
  length: number;
}

export interface LineWindow {
  /** Text of lines offset, offset+1, …, without line endings. */
  lines: string[];
  totalLines: number;
  bom: boolean;
  /** At least one line ends in CRLF (shown as an ordinary line). */
  crlf: boolean;
  /** The window ended before the end of the file: why, and the offset that continues. */
  stop?: { by: 'lines' | 'bytes'; nextOffset: number };
  /** The first line is shown only in part. */
  slice?: LineSlice;
}

/** Width of the "N\t" prefix budgeted for each line. */
export function prefixWidth(lastLine: number): number {
  return String(lastLine).length + 1;
}

function chunkSize(src: ByteSource): number {
  return src.streaming ? STREAM_CHUNK_BYTES : src.size;
}

function asBuffer(u: Uint8Array): Buffer {
  return Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength);
}

/** UTF-16 length of UTF-8 bytes: one unit per lead byte, two for 4-byte sequences (surrogate pairs). */
export function utf16Units(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** The line of the window being read: its kept bytes and, for the first line, its character counts. */
class LineInProgress {
  readonly parts: Uint8Array[] = [];
  kept = 0;
  /** Characters seen so far (first line only) and characters still to skip before keeping. */
  units = 0;
  skip: number;
  /** Keeping has begun (the skipped characters are behind us). */
  started: boolean;
  full = false;
  overflow = false;
  lastByte = -1;

  constructor(readonly no: number, readonly first: boolean, readonly budget: number, column: number) {
    this.skip = first ? column - 1 : 0;
    this.started = this.skip <= 0;
  }

  feed(seg: Uint8Array): void {
    if (seg.length === 0) return;
    this.lastByte = seg[seg.length - 1];
    let start = 0;
    if (this.first) {
      // Characters before `column` are counted, not kept; keeping starts on a character boundary.
      while (this.skip > 0 && start < seg.length) {
        const b = seg[start];
        if ((b & 0xc0) !== 0x80) { const u = b >= 0xf0 ? 2 : 1; this.units += u; this.skip -= u; }
        start++;
      }
      // The continuation bytes of the last skipped character are not kept either.
      while (this.skip <= 0 && !this.started && start < seg.length && (seg[start] & 0xc0) === 0x80) start++;
      if (start < seg.length) this.started = true;
      if (this.full) { this.units += utf16Units(seg.subarray(start)); return; }
    } else if (this.overflow) {
      return;
    }
    const room = this.budget - this.kept;
    let take = Math.min(room, seg.length - start);
    if (take < seg.length - start) {
      if (!this.first) { this.overflow = true; return; }
      // Cut on a character boundary: never leave half a UTF-8 sequence at the end of the slice.
      while (take > 0 && (seg[start + take] & 0xc0) === 0x80) take--;
      this.full = true;
    }
    // A copy: the chunk buffer is reused by the next read (Buffer#slice would alias it).
    const part = new Uint8Array(seg.subarray(start, start + take));
    this.parts.push(part);
    this.kept += take;
    if (this.first) this.units += utf16Units(seg.subarray(start));
  }

  /** The kept text; a CR that ends a shown line is part of its line ending, not of its text. */
  text(): { text: string; cr: boolean } {
    const bytes = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    const cr = this.lastByte === 13;
    const shown = cr && !this.full ? bytes.subarray(0, bytes.length - 1) : bytes;
    return { text: decoder.decode(shown), cr };
  }
}

/** Reads the window `req` asks for from `src` (see the file comment). */
export async function readLineWindow(src: ByteSource, req: WindowRequest): Promise<LineWindow> {
  const bomBytes = await src.read(0, Math.min(3, src.size));
  const bom = bomBytes.length === 3 && bomBytes[0] === 0xef && bomBytes[1] === 0xbb && bomBytes[2] === 0xbf;
  const begin = bom ? 3 : 0;
  const column = Math.max(1, req.column ?? 1);
  const lastWanted = req.offset + req.maxLines - 1;
  const prefix = prefixWidth(lastWanted);
  const out: LineWindow = { lines: [], totalLines: 0, bom, crlf: false };

  let lineNo = 1;
  let used = 0;
  let done = false;
  let current: LineInProgress | undefined;
  let bytesInLine = 0;
  let lastByte = -1;

  const startLine = (): void => {
    current = undefined;
    if (done || lineNo < req.offset) return;
    const first = out.lines.length === 0;
    const budget = req.maxBytes - used - prefix - 1;
    if (!first && budget < 0) {
      done = true;
      out.stop = { by: 'bytes', nextOffset: lineNo };
      return;
    }
    current = new LineInProgress(lineNo, first, Math.max(1, budget), column);
  };

  const finishLine = (): void => {
    const line = current;
    if (!line) return;
    current = undefined;
    if (line.overflow) {
      done = true;
      out.stop = { by: 'bytes', nextOffset: line.no };
      return;
    }
    const { text, cr } = line.text();
    if (cr) out.crlf = true;
    out.lines.push(text);
    used += prefix + line.kept + 1;
    if (line.first && (column > 1 || line.full)) {
      const length = line.units - (cr ? 1 : 0);
      const from = Math.min(column, length + 1);
      out.slice = { line: line.no, from, to: from + text.length - 1, length };
      done = true;
      out.stop = { by: 'bytes', nextOffset: line.no + 1 };
    } else if (out.lines.length >= req.maxLines) {
      done = true;
      out.stop = { by: 'lines', nextOffset: line.no + 1 };
    }
  };

  startLine();
  const step = Math.max(1, chunkSize(src));
  for (let pos = begin; pos < src.size; pos += step) {
    if (req.signal?.aborted) throw req.signal.reason ?? new Error('aborted');
    const chunk = asBuffer(await src.read(pos, Math.min(src.size, pos + step)));
    if (chunk.length === 0) break;
    lastByte = chunk[chunk.length - 1];
    let i = 0;
    while (i < chunk.length) {
      const nl = chunk.indexOf(10, i);
      const end = nl < 0 ? chunk.length : nl;
      bytesInLine += end - i;
      if (current) {
        current.feed(chunk.subarray(i, end));
        if (current.overflow) finishLine();
      }
      if (nl < 0) break;
      finishLine();
      out.totalLines++;
      lineNo++;
      bytesInLine = 0;
      i = nl + 1;
      if (done) {
        // Only the length of the file is still wanted: count line feeds, keep nothing.
        for (let j = chunk.indexOf(10, i); j >= 0; j = chunk.indexOf(10, j + 1)) out.totalLines++;
        break;
      }
      startLine();
    }
    if (done && current === undefined) {
      for (pos += step; pos < src.size; pos += step) {
        if (req.signal?.aborted) throw req.signal.reason ?? new Error('aborted');
        const rest = asBuffer(await src.read(pos, Math.min(src.size, pos + step)));
        if (rest.length === 0) break;
        lastByte = rest[rest.length - 1];
        for (let j = rest.indexOf(10); j >= 0; j = rest.indexOf(10, j + 1)) out.totalLines++;
      }
      break;
    }
  }
  // The last line has no line feed: it counts when it holds anything.
  if (src.size > begin && lastByte !== 10) {
    out.totalLines++;
    if (bytesInLine > 0) finishLine();
  }
  if (out.stop && out.stop.nextOffset > out.totalLines) delete out.stop;
  return out;
}
