// Reading part of a file. WorkspaceFs.readFile returns the whole file, which is fine for source files
// but not for a 50 MB log read 200 lines at a time; a WorkspaceFs that can read a byte range
// (`readRange`, optional) lets read_file scan big files in small chunks instead.
import type { WorkspaceFs } from './types';

/** The optional streaming extension of WorkspaceFs (proposed for the interface; NodeWorkspaceFs has it). */
export interface RangeReadable {
  /**
   * Bytes [start, end) of the file; fewer at the end of the file. With `into` (at least end - start
   * long) an implementation may read into it and return a view of it, so a scan reuses one buffer
   * instead of leaving a chunk of garbage per read; implementations that ignore it stay correct.
   */
  readRange?(abs: string, start: number, end: number, into?: Uint8Array): Promise<Uint8Array>;
}

/** A file's bytes as read_file scans them: whole in memory, or read range by range. */
export interface ByteSource {
  readonly size: number;
  /** Whether `read` goes to disk each time (then scans use STREAM_CHUNK_BYTES chunks). */
  readonly streaming: boolean;
  /** The bytes may be overwritten by the next read: copy what must outlive it. */
  read(start: number, end: number): Promise<Uint8Array>;
}

/** Below this size one readFile is cheaper than many range reads. */
export const STREAM_ABOVE_BYTES = 1024 * 1024;

/** Bytes per range read: far below the file, big enough that opens stay few (200 for 50 MB). */
export const STREAM_CHUNK_BYTES = 256 * 1024;

export function memorySource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, streaming: false, read: async (start, end) => bytes.subarray(start, end) };
}

/** Range reads when the file system offers them and the file is big; one whole read otherwise. */
export async function openSource(fs: WorkspaceFs & RangeReadable, abs: string, size: number, signal?: AbortSignal): Promise<ByteSource> {
  const readRange = fs.readRange?.bind(fs);
  if (readRange && size > STREAM_ABOVE_BYTES) {
    // One scratch buffer for the whole scan: callers copy what they keep before the next read.
    let scratch: Uint8Array | undefined;
    const read = (start: number, end: number): Promise<Uint8Array> => {
      const stop = Math.min(end, size);
      if (stop - start > STREAM_CHUNK_BYTES) return readRange(abs, start, stop);
      scratch ??= new Uint8Array(STREAM_CHUNK_BYTES);
      return readRange(abs, start, stop, scratch);
    };
    return { size, streaming: true, read };
  }
  return memorySource(await fs.readFile(abs, signal));
}
