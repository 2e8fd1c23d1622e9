// The whole output of one run, kept losslessly so the model can page through any part of it later
// (Roo #5775: capped output without a way to see the rest). stdout and stderr are interleaved in
// arrival order, as a terminal shows them. The first `memoryChars` stay in memory; past that every
// byte goes to files in a private temp directory (0700, files 0600). Disk use is capped too: the
// first half of the cap is the head, the rest is kept as two rotating tail segments, so only the
// middle of a runaway output is ever dropped, and a marker line says exactly how much.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatBytes } from '../../fs/read-budget';
import type { OutputStream } from '../exec-types';
import { readLines, textFrom, textTail, type LogPage, type LogView } from './output-read';
import { Segment } from './output-segment';

export type { LogPage } from './output-read';

export interface OutputLogOptions {
  /** Characters kept in memory before the log spills to disk. Default 1,000,000. */
  memoryChars?: number;
  /** Parent of the log's private directory. Default os.tmpdir(). */
  spillDir?: string;
  /** Most bytes kept (in memory and on disk together) before the middle is dropped. Default 64 MB. */
  diskCapBytes?: number;
}

/** A position in the log: what `since` continues from. */
export interface LogMark {
  /** Logical byte offset (dropped bytes included). */
  readonly pos: number;
  /** Characters and line feeds before the position. */
  readonly chars: number;
  readonly newlines: number;
  /** 1-based line the next character lands on. */
  readonly line: number;
}

export const DEFAULT_MEMORY_CHARS = 1_000_000;
export const DEFAULT_DISK_CAP_BYTES = 64 * 1024 * 1024;

/** Longest piece appended at once, so a segment boundary can fall inside a huge chunk (≤ 768 KB of UTF-8). */
const PIECE_CHARS = 256 * 1024;

/** Lowest disk cap: below it the head and tail segments would be smaller than one piece of a chunk. */
const MIN_DISK_CAP = 4096;

function n(x: number): string {
  return x.toLocaleString('en-US');
}

export class OutputLog implements LogView {
  private readonly memoryChars: number;
  private readonly spillParent: string;
  readonly diskCapBytes: number;
  private segs: Segment[] = [];
  private dir: string | undefined;
  private fileSeq = 0;
  private disposed = false;
  private chars = 0;
  private bytes = 0;
  private newlines = 0;
  private lastByte = -1;
  private droppedChars = 0;
  /** Characters per stream, in arrival order's totals. */
  readonly charsByStream: Record<OutputStream, number> = { stdout: 0, stderr: 0, terminal: 0 };
  /** Why the log could not spill to disk (it keeps everything in memory within the cap instead). */
  spillError: string | undefined;

  constructor(opts: OutputLogOptions = {}) {
    this.memoryChars = Math.max(0, opts.memoryChars ?? DEFAULT_MEMORY_CHARS);
    this.spillParent = opts.spillDir ?? os.tmpdir();
    this.diskCapBytes = Math.max(MIN_DISK_CAP, opts.diskCapBytes ?? DEFAULT_DISK_CAP_BYTES);
  }

  get segments(): readonly Segment[] {
    return this.segs;
  }

  /** Every character ever appended, dropped ones included. */
  get totalChars(): number {
    return this.chars;
  }

  /** Lines as an editor counts them: '' has 0, 'a' and 'a\n' have 1, 'a\nb' has 2. */
  get totalLines(): number {
    return this.newlines + (this.bytes > 0 && this.lastByte !== 10 ? 1 : 0);
  }

  /** Characters lost to the disk cap (0 unless the output passed it). */
  get dropped(): number {
    return this.droppedChars;
  }

  /** The private directory holding the spill files, once the log has spilled. */
  get spillDirectory(): string | undefined {
    return this.dir;
  }

  get spilled(): boolean {
    return this.segs.some((s) => !s.inMemory);
  }

  append(chunk: string, stream: OutputStream): void {
    if (this.disposed || chunk.length === 0) return;
    this.charsByStream[stream] += chunk.length;
    this.chars += chunk.length;
    for (let i = 0; i < chunk.length;) {
      let end = Math.min(chunk.length, i + PIECE_CHARS);
      const c = chunk.charCodeAt(end - 1);
      if (end < chunk.length && c >= 0xd800 && c <= 0xdbff) end--;
      const piece = i === 0 && end === chunk.length ? chunk : chunk.slice(i, end);
      this.appendPiece(piece);
      i = end;
    }
    if (this.memChars() > this.memoryChars) this.spillAll();
  }

  private appendPiece(piece: string): void {
    const buf = Buffer.from(piece, 'utf8');
    const seg = this.current();
    const before = seg.newlines;
    seg.append(buf, piece.length);
    this.newlines += seg.newlines - before;
    this.bytes += buf.length;
    this.lastByte = buf[buf.length - 1];
  }

  private memChars(): number {
    let m = 0;
    for (const s of this.segs) if (s.inMemory) m += s.chars;
    return m;
  }

  /** The segment that takes the next piece: the last one, or a new one when it is full. */
  private current(): Segment {
    const last = this.segs[this.segs.length - 1];
    if (last && !last.full) return last;
    const head = this.segs.length === 0;
    // Head: half the cap. Tails: a quarter each, at most two, so disk use stays within the cap.
    const limit = Math.floor(head ? this.diskCapBytes / 2 : this.diskCapBytes / 4);
    if (this.segs.length === 3) this.dropOldestTail();
    let seg: Segment | undefined;
    if (this.spilled && !this.spillError) {
      try {
        seg = Segment.inFile(this.nextFile(), this.bytes, this.newlines, this.charsBeforeNext(), limit);
      } catch (e) {
        this.spillError = (e as Error).message;
      }
    }
    seg ??= new Segment(this.bytes, this.newlines, this.charsBeforeNext(), limit);
    this.segs.push(seg);
    return seg;
  }

  /** Characters before the piece being appended (the total already counts the whole chunk). */
  private charsBeforeNext(): number {
    let c = this.droppedChars;
    for (const s of this.segs) c += s.chars;
    return c;
  }

  private nextFile(): string {
    return path.join(this.dir!, `part-${++this.fileSeq}.log`);
  }

  private dropOldestTail(): void {
    const [gone] = this.segs.splice(1, 1);
    this.droppedChars += gone.chars;
    gone.dispose();
  }

  private spillAll(): void {
    if (this.spillError || this.disposed) return;
    try {
      if (!this.dir) {
        this.dir = fs.mkdtempSync(path.join(this.spillParent, 'pincer-job-'));
        fs.chmodSync(this.dir, 0o700);
      }
      for (const s of this.segs) if (s.inMemory) s.spill(this.nextFile());
    } catch (e) {
      // No disk (full, read-only, removed): keep going in memory, still within the cap.
      this.spillError = (e as Error).message;
    }
  }

  dropMarker(chars: number, newlines: number): string {
    return `[… ${n(chars)} characters (${n(newlines)} line feeds) dropped here: the output passed ${formatBytes(this.diskCapBytes)}, ` +
      'the most one job keeps, so only its start and its end are kept …]';
  }

  /** Up to `limit` lines from 1-based line `offset`, within about `maxChars` characters; lines over 2,000 characters are cut with a note. */
  read(offset: number, limit: number, maxChars?: number): LogPage {
    if (this.disposed) return { text: '', from: offset, to: offset - 1, totalLines: 0 };
    return readLines(this, offset, limit, maxChars);
  }

  /** The current end of the log, for `since`. */
  mark(): LogMark {
    return { pos: this.bytes, chars: this.chars, newlines: this.newlines, line: this.newlines + 1 };
  }

  /** Everything appended after `mark` (a dropped stretch shows as a marker line). */
  since(mark: LogMark): string {
    if (this.disposed || mark.pos >= this.bytes) return '';
    return textFrom(this, mark.pos, mark.chars, mark.newlines);
  }

  /** The first `chars` characters (at most). */
  head(chars: number): string {
    if (this.disposed) return '';
    return textFrom(this, 0, 0, 0, Math.max(0, Math.floor(chars)));
  }

  /** The last `chars` characters (at most). */
  tail(chars: number): string {
    if (this.disposed) return '';
    return textTail(this, chars);
  }

  /** Removes the spill files and their directory and frees the memory. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const s of this.segs) s.dispose();
    this.segs = [];
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
