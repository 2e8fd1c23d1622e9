// The WorkspaceFs port on node's fs: the CLI and the unit tests use it (the extension uses
// vscode.workspace.fs). Paths are the canonical ones the path guard returns; anything that is not
// canonical at the moment of use (a folder swapped for a symlink after the check) is refused.
// stat and readDirectory report symlinks as 'symlink' without following them, so walkers send
// links back through the guard instead of stepping outside by accident.
//
// readDirectories and statMany are the walkers' fast path (glob over 20,000 files), measured on the
// glob benchmark: listings and stats as synchronous calls on worker threads (stat-worker.ts), a batch
// of folders or paths per message, so the walk handles one batch while the next is read and this
// thread never builds a Dirent or a callback per folder; a synchronous call there is cheaper than a
// thread-pool hop, and the walk keeps this thread busy. Both skip readDirectory's per-directory realpath (a dozen microseconds a directory): a
// listing gives names and types only, and every file a tool opens goes through the guard and
// openVerified again.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openChecked, openVerified } from './path-open';
import { listOffThread, statOffThread } from './stat-worker';
import { PathError, type FileStat, type WorkspaceFs } from './types';

const MAX_READ = 64 << 20;
const TAIL_READ = 64 << 10;
/** Longest stretch of synchronous calls before the event loop gets a turn. */
const SLICE_MS = 8;
/** Listings in flight per readDirectories call (the thread pool has four threads; the rest wait in its queue). */
const LISTINGS_IN_FLIGHT = 32;

export interface NodeWorkspaceFsOptions {
  /** Milliseconds of synchronous stat work between turns of the event loop (tests use 0). */
  sliceMs?: number;
  /**
   * false: statMany runs its lstats on this thread, in slices, and readDirectories lists on the thread
   * pool (the fallbacks when no worker can start).
   */
  statsOffThread?: boolean;
}

type Entries = [name: string, type: FileStat['type']][];

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function typeOf(st: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileStat['type'] {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  return 'other';
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function fsError(errCode: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code: errCode });
}

async function lstatOrUndefined(p: string): Promise<fs.Stats | undefined> {
  try {
    return await fs.promises.lstat(p);
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** Refuses when `dir` is no longer canonical: a folder on the way became a symlink after the check. */
async function assertCanonicalDir(dir: string): Promise<void> {
  const real = await fs.promises.realpath(dir);
  if (real !== dir) {
    throw new PathError(`${dir} now leads to ${real} through a symbolic link that appeared after the path check; nothing was changed.`, 'symlink-escape');
  }
}

async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fs.promises.rename(from, to);
    } catch (err) {
      // Windows refuses while another process (an indexer, a virus scanner) holds the file open.
      const c = code(err);
      if (attempt >= 40 || (c !== 'EPERM' && c !== 'EACCES' && c !== 'EBUSY')) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

async function fsyncDir(dir: string): Promise<void> {
  try {
    const h = await fs.promises.open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    // Windows cannot open a folder for fsync; its rename is durable once it returns.
  }
}

export class NodeWorkspaceFs implements WorkspaceFs {
  private readonly sliceMs: number;
  private readonly statsOffThread: boolean;

  constructor(opts: NodeWorkspaceFsOptions = {}) {
    this.sliceMs = opts.sliceMs ?? SLICE_MS;
    this.statsOffThread = opts.statsOffThread ?? true;
  }

  async readFile(abs: string, signal?: AbortSignal): Promise<Uint8Array> {
    signal?.throwIfAborted();
    const { handle, stat: st } = await openChecked(abs, fs.constants.O_RDONLY);
    try {
      if (st.isDirectory()) throw fsError('EISDIR', `${abs} is a folder, not a file.`);
      const parts: Buffer[] = [];
      let total = 0;
      for (;;) {
        signal?.throwIfAborted();
        // Sized from fstat so a whole file usually takes one read; files that grow keep going.
        const want = st.size - total;
        const buf = Buffer.allocUnsafe(want > 0 ? Math.min(want, MAX_READ) : TAIL_READ);
        const { bytesRead } = await handle.read(buf, 0, buf.length, total);
        if (bytesRead === 0) break;
        parts.push(bytesRead === buf.length ? buf : buf.subarray(0, bytesRead));
        total += bytesRead;
        // Like fs.readFile: a regular file is read to the size fstat gave; size 0 (procfs) reads to EOF.
        if (st.size > 0 && total >= st.size) break;
      }
      return parts.length === 1 ? parts[0] : Buffer.concat(parts, total);
    } finally {
      await handle.close();
    }
  }

  /** Bytes [start, end) of a file, fewer at its end (read_file pages big files with it). */
  /** Bytes [start, end); reads into `into` when it is large enough, so a scan reuses one buffer. */
  async readRange(abs: string, start: number, end: number, into?: Uint8Array): Promise<Uint8Array> {
    const len = Math.max(0, end - start);
    const handle = await openVerified(abs, fs.constants.O_RDONLY);
    try {
      const buf = into && into.byteLength >= len ? Buffer.from(into.buffer, into.byteOffset, len) : Buffer.allocUnsafe(len);
      let got = 0;
      while (got < len) {
        const { bytesRead } = await handle.read(buf, got, len - got, start + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return buf.subarray(0, got);
    } finally {
      await handle.close();
    }
  }

  /**
   * Temp file in the same folder, fsync, rename over the target, fsync the folder. The rename
   * replaces the name rather than writing through it, and we refuse beforehand a target that is a
   * symlink (the guard never returns one, so it appeared later), a hard-linked file or a read-only one.
   */
  async writeFile(abs: string, data: Uint8Array): Promise<void> {
    const target = path.resolve(abs);
    const dir = path.dirname(target);
    const mode = await this.existingMode(target);
    await fs.promises.mkdir(dir, { recursive: true });
    await assertCanonicalDir(dir);
    const tmp = path.join(dir, `.${path.basename(target).slice(0, 100)}.pincer-${crypto.randomBytes(6).toString('hex')}.tmp`);
    const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL;
    const handle = await openVerified(tmp, flags, { mode: mode ?? 0o666 });
    try {
      let done = 0;
      while (done < data.length) done += (await handle.write(data, done, data.length - done, done)).bytesWritten;
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } catch (err) {
      await handle.close().catch(() => undefined);
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    await handle.close();
    try {
      await renameWithRetry(tmp, target);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
    await fsyncDir(dir);
  }

  /** The mode to keep, after the checks on an existing target; undefined for a new file. */
  private async existingMode(target: string): Promise<number | undefined> {
    const st = await lstatOrUndefined(target);
    if (!st) return undefined;
    if (st.isSymbolicLink()) {
      throw new PathError(`${target} is a symbolic link that appeared after the path check; it was not written.`, 'symlink-escape');
    }
    if (st.isDirectory()) throw fsError('EISDIR', `${target} is a folder; give a file path.`);
    const { handle, stat } = await openChecked(target, fs.constants.O_RDONLY, { refuseHardLinks: true });
    try {
      const mode = stat.mode & 0o7777;
      if ((mode & 0o222) === 0) throw fsError('EACCES', `${target} is read-only; it was not written.`);
      return mode;
    } finally {
      await handle.close();
    }
  }

  async stat(abs: string): Promise<FileStat | undefined> {
    const st = await lstatOrUndefined(path.resolve(abs));
    return st && { type: typeOf(st), size: st.size, mtime: st.mtimeMs };
  }

  async readDirectory(abs: string): Promise<[name: string, type: FileStat['type']][]> {
    const dir = path.resolve(abs);
    const entries = await fs.promises.readdir(dir, { withFileTypes: true });
    // Checked after reading: a folder swapped for a link while we listed must not leak its names.
    await assertCanonicalDir(dir);
    return entries.map((e) => [e.name, typeOf(e)]);
  }

  async readDirectories(dirs: readonly string[]): Promise<(Entries | undefined)[]> {
    const abs = dirs.map((d) => (path.isAbsolute(d) ? d : path.resolve(d)));
    if (!this.statsOffThread) return this.readDirectoriesHere(abs);
    try {
      return await listOffThread(abs);
    } catch {
      // No worker thread to be had: the listings on the thread pool.
      return this.readDirectoriesHere(abs);
    }
  }

  private readDirectoriesHere(dirs: readonly string[]): Promise<(Entries | undefined)[]> {
    return new Promise((resolve) => {
      const out: (Entries | undefined)[] = new Array(dirs.length);
      let next = 0;
      let left = dirs.length;
      if (!left) return resolve(out);
      const launch = (): void => {
        const i = next++;
        const dir = dirs[i];
        fs.readdir(dir, { withFileTypes: true }, (err, entries) => {
          out[i] = err ? undefined : entries.map((e) => [e.name, typeOf(e)]);
          if (--left === 0) resolve(out);
          else if (next < dirs.length) launch();
        });
      };
      while (next < Math.min(LISTINGS_IN_FLIGHT, dirs.length)) launch();
    });
  }

  async statMany(paths: readonly string[]): Promise<(FileStat | undefined)[]> {
    const abs = paths.map((p) => (path.isAbsolute(p) ? p : path.resolve(p)));
    if (!this.statsOffThread) return this.statManyHere(abs);
    try {
      return await statOffThread(abs);
    } catch {
      // No worker thread to be had: the same calls here, in slices.
      return this.statManyHere(abs);
    }
  }

  private async statManyHere(paths: readonly string[]): Promise<(FileStat | undefined)[]> {
    const out: (FileStat | undefined)[] = new Array(paths.length);
    let sliceStart = performance.now();
    for (let i = 0; i < paths.length; i++) {
      if (performance.now() - sliceStart >= this.sliceMs) {
        await nextTurn();
        sliceStart = performance.now();
      }
      try {
        const st = fs.lstatSync(paths[i], { throwIfNoEntry: false });
        out[i] = st && { type: typeOf(st), size: st.size, mtime: st.mtimeMs };
      } catch {
        out[i] = undefined;
      }
    }
    return out;
  }

  /** Deletes a file, a symlink (not its target) or an empty folder. */
  async delete(abs: string): Promise<void> {
    const target = path.resolve(abs);
    await assertCanonicalDir(path.dirname(target));
    const st = await fs.promises.lstat(target);
    if (st.isDirectory()) await fs.promises.rmdir(target);
    else await fs.promises.unlink(target);
  }

  /** Moves a file; parent folders of `to` are created; an existing `to` is never overwritten. */
  async rename(from: string, to: string): Promise<void> {
    const src = path.resolve(from);
    const dst = path.resolve(to);
    if (await lstatOrUndefined(dst)) throw fsError('EEXIST', `${dst} already exists; it was not overwritten.`);
    await fs.promises.mkdir(path.dirname(dst), { recursive: true });
    await assertCanonicalDir(path.dirname(src));
    await assertCanonicalDir(path.dirname(dst));
    await renameWithRetry(src, dst);
  }
}
