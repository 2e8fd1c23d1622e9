// File primitives with the durability the journal and snapshots rely on: full writes, fsync,
// atomic replace (temp, fsync, rename, fsync dir), and copies kept aside before any repair.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks this thread (the storage worker, never the host's main thread) for ms. */
export function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

export function randomHex(bytes: number): string {
  return crypto.randomBytes(bytes).toString('hex');
}

export function writeAll(fd: number, buf: Uint8Array, position: number): void {
  let done = 0;
  while (done < buf.length) done += fs.writeSync(fd, buf, done, buf.length - done, position + done);
}

export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (err) {
    // Windows cannot open or fsync a directory; its rename is durable once it returns.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EACCES' && code !== 'EINVAL' && code !== 'EBADF') throw err;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** rename, retried briefly where another process's open handle makes Windows refuse it. */
export function renameWithRetry(from: string, to: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(from, to);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (attempt >= 40 || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw err;
      sleepSync(50);
    }
  }
}

export const TEMP_MARK = '.tmp-';

/** Replaces target atomically: readers see the old bytes or the new ones, never a mix. */
export function writeFileAtomic(target: string, chunks: readonly Uint8Array[], beforeRename?: () => void): void {
  const tmp = `${target}${TEMP_MARK}${randomHex(6)}`;
  const fd = fs.openSync(tmp, 'w');
  try {
    let pos = 0;
    for (const c of chunks) {
      writeAll(fd, c, pos);
      pos += c.length;
    }
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  beforeRename?.();
  renameWithRetry(tmp, target);
  fsyncDir(path.dirname(target));
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:.]/g, '').replace('T', '-');
}

/** Keeps a copy of a damaged file next to it (name.label-<time>) and returns its path. */
export function keepAside(file: string, label: string, bytes?: Uint8Array): string {
  let dest = `${file}.${label}-${stamp()}`;
  if (fs.existsSync(dest)) dest += `-${randomHex(3)}`;
  if (bytes) fs.writeFileSync(dest, bytes);
  else fs.copyFileSync(file, dest);
  return dest;
}

/** Temp files of an atomic write that never finished (the writer died before its rename). */
export function removeLeftoverTemps(dir: string, prefixes: readonly string[]): void {
  for (const name of fs.readdirSync(dir)) {
    if (name.includes(TEMP_MARK) && prefixes.some((p) => name.startsWith(p + TEMP_MARK))) {
      fs.rmSync(path.join(dir, name), { force: true });
    }
  }
}
