// Reading a job's log back: by lines (process log), from a position to the end (output since the
// last poll), and the last N characters. The log is a list of segments with at most one dropped
// stretch between them (see output-log.ts); every reader names that stretch with a marker line
// instead of pretending the text is continuous.
import { LINE_STRIDE, type Segment } from './output-segment';
import { utf16Units } from '../../fs/read-lines';

/** Lines longer than this are cut with a note, as read_file slices oversized lines. */
export const MAX_LINE_CHARS = 2000;

/** Bytes kept of a line: always more than MAX_LINE_CHARS characters (a UTF-16 unit takes at most 3 bytes). */
const KEEP_BYTES = MAX_LINE_CHARS * 3 + 8;

/** Bytes read from a segment at a time. */
const BLOCK_BYTES = 256 * 1024;

export interface LogView {
  readonly segments: readonly Segment[];
  readonly totalLines: number;
  /** The line that stands for a dropped stretch of `chars` characters holding `newlines` line feeds. */
  dropMarker(chars: number, newlines: number): string;
}

export interface LogPage {
  /** The lines, each ending in "\n"; a dropped stretch shows as a marker line between them. */
  text: string;
  /** 1-based first and last line shown (to = from - 1 when nothing was). */
  from: number;
  to: number;
  totalLines: number;
  /** The offset that continues after this page, when there is more. */
  nextOffset?: number;
}

/** Index at which to cut `s` so that at most `max` units stay before it and no surrogate pair is split. */
function cutBefore(s: string, max: number): number {
  if (max >= s.length) return s.length;
  const c = s.charCodeAt(max - 1);
  return c >= 0xd800 && c <= 0xdbff ? max - 1 : max;
}

/** Index from which to keep the last `max` units of `s` without starting inside a surrogate pair. */
function cutAfter(s: string, max: number): number {
  if (max >= s.length) return 0;
  const at = s.length - max;
  const c = s.charCodeAt(at);
  return c >= 0xdc00 && c <= 0xdfff ? at + 1 : at;
}

function n(x: number): string {
  return x.toLocaleString('en-US');
}

/** Bytes of one line as it is read: a bounded head of it, and a count of the rest. */
class LineAcc {
  private parts: Buffer[] = [];
  private kept = 0;
  private restUnits = 0;
  private over = false;

  get empty(): boolean {
    return this.kept === 0;
  }

  feed(b: Buffer): void {
    if (b.length === 0) return;
    if (this.over) {
      this.restUnits += utf16Units(b);
      return;
    }
    const room = KEEP_BYTES - this.kept;
    if (b.length <= room) {
      this.parts.push(b);
      this.kept += b.length;
      return;
    }
    this.parts.push(b.subarray(0, room));
    this.kept += room;
    this.over = true;
    this.restUnits += utf16Units(b.subarray(room));
  }

  text(lineNo: number): string {
    const bytes = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    let s = bytes.toString('utf8');
    if (!this.over) return s.endsWith('\r') ? s.slice(0, -1) : s;
    const total = utf16Units(bytes) + this.restUnits;
    s = s.slice(0, cutBefore(s, MAX_LINE_CHARS));
    return `${s} … [line ${n(lineNo)} is ${n(total)} characters long; cut at ${n(MAX_LINE_CHARS)}]`;
  }
}

/** Relative byte offset in `s` where line `line` (which must lie in it) starts. */
function lineStart(s: Segment, line: number): number {
  const skip = line - s.firstLine;
  if (skip <= 0) return 0;
  const j = Math.floor(skip / LINE_STRIDE);
  let pos = j > 0 ? s.index[j - 1] : 0;
  let remaining = skip - j * LINE_STRIDE;
  while (remaining > 0 && pos < s.bytes) {
    const buf = s.read(pos, Math.min(s.bytes, pos + BLOCK_BYTES));
    let i = 0;
    for (; remaining > 0; remaining--) {
      const nl = buf.indexOf(10, i);
      if (nl < 0) break;
      i = nl + 1;
    }
    pos += remaining > 0 ? buf.length : i;
  }
  return pos;
}

function gapBetween(view: LogView, prev: Segment, s: Segment): string | undefined {
  if (s.startB <= prev.endB) return undefined;
  return view.dropMarker(s.startChars - (prev.startChars + prev.chars), s.startNewlines - (prev.startNewlines + prev.newlines));
}

/** Up to `limit` lines from line `offset` (1-based), within about `maxChars` characters (at least one line). */
export function readLines(view: LogView, offset: number, limit: number, maxChars = Number.POSITIVE_INFINITY): LogPage {
  const total = view.totalLines;
  const start = Math.max(1, Math.floor(offset));
  const max = Math.max(1, Math.floor(limit));
  const segs = view.segments;
  const si = start > total ? -1 : segs.findIndex((s) => s.bytes > 0 && s.lastLine >= start);
  if (si < 0) return { text: '', from: start, to: start - 1, totalLines: total };

  const out: string[] = [];
  let used = 0;
  let emitted = 0;
  let line = start;
  let rel = 0;
  let first: number | undefined;
  let last = start - 1;
  let nextOffset: number | undefined;
  let acc = new LineAcc();
  if (si > 0 && start < segs[si].firstLine) {
    // The line asked for was dropped: say so, then go on with the first line kept after it.
    out.push(gapBetween(view, segs[si - 1], segs[si]) ?? '');
    line = segs[si].firstLine;
  } else {
    rel = lineStart(segs[si], start);
  }
  /** Adds the line in `acc`; false when the character budget ends the page before it. */
  const emit = (): boolean => {
    const t = acc.text(line);
    if (emitted > 0 && used + t.length + 1 > maxChars) {
      nextOffset = line;
      return false;
    }
    out.push(t);
    used += t.length + 1;
    emitted++;
    first ??= line;
    last = line;
    line++;
    acc = new LineAcc();
    return true;
  };

  let stopped = false;
  outer: for (let i = si; i < segs.length; i++) {
    const s = segs[i];
    const gap = i > si ? gapBetween(view, segs[i - 1], s) : undefined;
    if (gap !== undefined) {
      // The line cut by the dropped stretch is shown as far as it was kept.
      if (!acc.empty && (!emit() || emitted >= max)) {
        nextOffset ??= s.firstLine;
        stopped = true;
        break;
      }
      out.push(gap);
      line = s.firstLine;
      acc = new LineAcc();
    }
    for (let pos = i === si ? rel : 0; pos < s.bytes; pos += BLOCK_BYTES) {
      const buf = s.read(pos, Math.min(s.bytes, pos + BLOCK_BYTES));
      let at = 0;
      while (at < buf.length) {
        const nl = buf.indexOf(10, at);
        acc.feed(buf.subarray(at, nl < 0 ? buf.length : nl));
        if (nl < 0) break;
        if (!emit() || emitted >= max) {
          nextOffset ??= line;
          stopped = true;
          break outer;
        }
        at = nl + 1;
      }
    }
  }
  // The last line has no line feed yet (the job may still be writing it).
  if (!stopped && !acc.empty) emit();
  if (nextOffset !== undefined && nextOffset > total) nextOffset = undefined;
  const text = out.length ? `${out.join('\n')}\n` : '';
  return { text, from: first ?? line, to: last, totalLines: total, nextOffset };
}

/**
 * The text from logical byte `pos` (with `chars` characters and `newlines` line feeds before it) to the
 * end, at most `maxChars` characters of it; a dropped stretch in between becomes a marker line.
 */
export function textFrom(view: LogView, pos: number, chars: number, newlines: number, maxChars = Number.POSITIVE_INFINITY): string {
  const parts: string[] = [];
  let room = maxChars;
  let prevEnd = pos;
  let prevChars = chars;
  let prevNewlines = newlines;
  for (const s of view.segments) {
    if (room <= 0) break;
    if (s.endB <= pos) continue;
    if (s.startB > prevEnd) {
      const marker = view.dropMarker(s.startChars - prevChars, s.startNewlines - prevNewlines);
      parts.push(`\n${marker}\n`);
      room -= marker.length + 2;
    }
    const rel = Math.max(0, pos - s.startB);
    const end = Number.isFinite(room) ? Math.min(s.bytes, rel + room * 3) : s.bytes;
    let text = s.read(rel, end).toString('utf8');
    if (text.length > room) text = text.slice(0, cutBefore(text, room));
    parts.push(text);
    room -= text.length;
    prevEnd = s.endB;
    prevChars = s.startChars + s.chars;
    prevNewlines = s.startNewlines + s.newlines;
  }
  return parts.join('');
}

/** The last `maxChars` characters; a dropped stretch inside them becomes a marker line. */
export function textTail(view: LogView, maxChars: number): string {
  const parts: string[] = [];
  let room = Math.max(0, Math.floor(maxChars));
  const segs = view.segments;
  for (let i = segs.length - 1; i >= 0 && room > 0; i--) {
    const s = segs[i];
    const from = Math.max(0, s.bytes - room * 3);
    let buf = s.read(from, s.bytes);
    // Reading from the middle may start inside a UTF-8 sequence: skip to the next character.
    let skip = 0;
    while (from > 0 && skip < buf.length && (buf[skip] & 0xc0) === 0x80) skip++;
    buf = buf.subarray(skip);
    let text = buf.toString('utf8');
    if (text.length > room) text = text.slice(cutAfter(text, room));
    parts.unshift(text);
    room -= text.length;
    const gap = i > 0 ? gapBetween(view, segs[i - 1], s) : undefined;
    if (gap !== undefined && room > 0) parts.unshift(`\n${gap}\n`);
  }
  return parts.join('');
}
