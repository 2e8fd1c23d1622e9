// One contiguous stretch of a job's output, as UTF-8 bytes: in memory at first, in a file of its own
// (0600, inside the log's private directory) once the log spills. A segment counts its characters
// and line feeds and keeps a sparse line index (the position after every LINE_STRIDE-th line feed),
// so a page in the middle of 60 MB of output is found without reading what comes before it.
import fs from 'node:fs';

/** Line feeds between two index entries: 32k entries for 32M lines, a short scan to any line. */
export const LINE_STRIDE = 1024;

/** Writes are batched up to this size: one syscall per 64 KB, not one per chunk a pipe delivers. */
const FLUSH_BYTES = 64 * 1024;

function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}

export class Segment {
  bytes = 0;
  chars = 0;
  newlines = 0;
  lastByte = -1;
  /** index[j] = relative byte offset just after the ((j + 1) × LINE_STRIDE)-th line feed of this segment. */
  readonly index: number[] = [];
  /** Set while the bytes live in memory; undefined once written to `path`. */
  private mem: Buffer[] | undefined = [];
  private fd: number | undefined;
  private path: string | undefined;
  /** Bytes already in the file; the rest waits in `pending` (kept when a write fails: nothing lost). */
  private fileBytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The last write error, if the disk refused (the bytes stay in `pending`). */
  writeError: string | undefined;

  /**
   * @param startB logical byte offset of the first byte in the whole output (dropped bytes included)
   * @param startNewlines line feeds in the whole output before this segment
   * @param startChars characters in the whole output before this segment
   * @param limitBytes the segment takes no new chunk once it holds this many bytes
   */
  constructor(readonly startB: number, readonly startNewlines: number, readonly startChars: number, readonly limitBytes: number) {}

  get endB(): number {
    return this.startB + this.bytes;
  }

  get full(): boolean {
    return this.bytes >= this.limitBytes;
  }

  get inMemory(): boolean {
    return this.mem !== undefined;
  }

  get filePath(): string | undefined {
    return this.path;
  }

  /** 1-based number of the line this segment's first byte belongs to. */
  get firstLine(): number {
    return this.startNewlines + 1;
  }

  /** 1-based number of the last line holding a byte of this segment (firstLine - 1 when empty). */
  get lastLine(): number {
    if (this.bytes === 0) return this.startNewlines;
    return this.startNewlines + this.newlines + (this.lastByte === 10 ? 0 : 1);
  }

  append(buf: Buffer, chars: number): void {
    if (buf.length === 0) return;
    for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) {
      this.newlines++;
      if (this.newlines % LINE_STRIDE === 0) this.index.push(this.bytes + i + 1);
    }
    this.bytes += buf.length;
    this.chars += chars;
    this.lastByte = buf[buf.length - 1];
    if (this.mem) {
      this.mem.push(buf);
      return;
    }
    this.pending.push(buf);
    this.pendingBytes += buf.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
  }

  /** Moves the bytes to a new file at `filePath` (created 0600, never an existing one). Throws when it cannot. */
  spill(filePath: string): void {
    if (!this.mem) return;
    const fd = fs.openSync(filePath, 'wx+', 0o600);
    try {
      for (const b of this.mem) writeAll(fd, b);
    } catch (e) {
      fs.closeSync(fd);
      fs.rmSync(filePath, { force: true });
      throw e;
    }
    this.fd = fd;
    this.path = filePath;
    this.fileBytes = this.bytes;
    this.mem = undefined;
  }

  /** Starts the segment directly in a file (used for segments created after the log spilled). */
  static inFile(filePath: string, startB: number, startNewlines: number, startChars: number, limitBytes: number): Segment {
    const s = new Segment(startB, startNewlines, startChars, limitBytes);
    s.spill(filePath);
    return s;
  }

  /** Writes what waits in memory; on a disk error the bytes stay pending and readable. */
  flush(): void {
    if (this.fd === undefined || this.pendingBytes === 0) return;
    const buf = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    try {
      // Written at its own position, so a half-failed write is simply written again.
      let off = 0;
      while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off, this.fileBytes + off);
      this.fileBytes += buf.length;
      this.pending = [];
      this.pendingBytes = 0;
      this.writeError = undefined;
    } catch (e) {
      this.pending = [buf];
      this.writeError = (e as Error).message;
    }
  }

  /** Bytes [rel, end) of this segment (relative offsets), clamped to what it holds. */
  read(rel: number, end: number): Buffer {
    const from = Math.max(0, rel);
    const to = Math.min(this.bytes, end);
    if (to <= from) return Buffer.alloc(0);
    if (this.mem) {
      // One buffer after the first read: memory segments are small (memoryChars) and read often.
      if (this.mem.length > 1) this.mem = [Buffer.concat(this.mem)];
      return this.mem[0].subarray(from, to);
    }
    this.flush();
    const out = Buffer.allocUnsafe(to - from);
    let got = 0;
    const fileTo = Math.min(to, this.fileBytes);
    while (from + got < fileTo) {
      const n = fs.readSync(this.fd!, out, got, fileTo - from - got, from + got);
      if (n === 0) break;
      got += n;
    }
    if (to > this.fileBytes) {
      // The disk refused the last write: the bytes are still pending in memory.
      const pend = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending);
      const pFrom = Math.max(0, from - this.fileBytes);
      pend.copy(out, got, pFrom, to - this.fileBytes);
    }
    return out;
  }

  /** Closes and deletes the file (or frees the memory). Safe to call twice. */
  dispose(): void {
    this.mem = [];
    this.pending = [];
    this.pendingBytes = 0;
    if (this.fd !== undefined) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // Already closed: nothing to release.
      }
      this.fd = undefined;
    }
    if (this.path) fs.rmSync(this.path, { force: true });
  }
}
