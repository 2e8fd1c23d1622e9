// Reading and appending pincer.journal. A reader keeps one descriptor for one pass, so the header
// and the records it reads always come from the same file even if another window swaps it.
import * as fs from 'node:fs';
import { writeAll } from './durable-fs';
import { decodeHeader, HEADER_LEN, scanRecords, type JournalHeader, type ScanResult } from './journal-format';

export class JournalReader {
  private constructor(
    private readonly fd: number,
    readonly header: JournalHeader | null,
    readonly size: number,
  ) {}

  /** null when the file does not exist. */
  static open(file: string): JournalReader | null {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      const size = fs.fstatSync(fd).size;
      const head = Buffer.alloc(Math.min(HEADER_LEN, size));
      if (head.length) fs.readSync(fd, head, 0, head.length, 0);
      return new JournalReader(fd, decodeHeader(head), size);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  read(from: number, to = this.size): Buffer {
    const buf = Buffer.allocUnsafe(Math.max(0, to - from));
    let done = 0;
    while (done < buf.length) {
      const n = fs.readSync(this.fd, buf, done, buf.length - done, from + done);
      if (n === 0) return buf.subarray(0, done);
      done += n;
    }
    return buf;
  }

  scan(from: number, expectedSeq: number): ScanResult {
    if (from >= this.size) return { records: [], ends: [], validEnd: from, tail: 'clean' };
    return scanRecords(this.read(from), from, from, expectedSeq);
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** Appends one record at `offset` (the end of the last intact record) and waits for the disk. */
export function appendDurably(file: string, offset: number, bytes: Uint8Array): void {
  const fd = fs.openSync(file, 'r+');
  try {
    writeAll(fd, bytes, offset);
    fs.fdatasyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function truncateDurably(file: string, length: number): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.ftruncateSync(fd, length);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
