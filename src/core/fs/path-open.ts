// Opening what the guard checked, not whatever sits at that path a moment later. Between the
// guard's check and the open, someone can swap the file (or a folder above it) for a symlink to
// outside the workspace. So we open without following a final symlink (O_NOFOLLOW where the
// platform has it), then prove where the descriptor is: on Linux the kernel tells us
// (/proc/self/fd), which no swap can fool; elsewhere the path must still be canonical and name the
// descriptor's dev/ino (a narrower window, not a closed one: node has no openat). When the guard
// recorded the file's identity at check time, the descriptor must match that too.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PathError, type FileStat, type ResolvedPath } from './types';

export interface FileIdentity {
  dev: number;
  ino: number;
}

const identities = new WeakMap<ResolvedPath, FileIdentity & { stat: FileStat }>();

function typeOf(st: fs.Stats): FileStat['type'] {
  return st.isSymbolicLink() ? 'symlink' : st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
}

/** Called by the guard for paths that existed when checked, with the lstat it made of them. */
export function recordIdentity(resolved: ResolvedPath, st: fs.Stats): void {
  identities.set(resolved, { dev: st.dev, ino: st.ino, stat: { type: typeOf(st), size: st.size, mtime: st.mtimeMs } });
}

export function identityOf(resolved: ResolvedPath): FileIdentity | undefined {
  return identities.get(resolved);
}

/**
 * The guard's own lstat of a path it resolved, taken during that resolve: a tool that only needs the
 * type and size to choose what to do (read_file) spares a second lstat. It decides nothing about
 * safety: the open that follows (openChecked) proves the descriptor is the canonical file, whatever
 * happened to the path since. undefined when the guard did not stat it (missing, or another resolver).
 */
export function checkedStat(resolved: ResolvedPath): FileStat | undefined {
  return identities.get(resolved)?.stat;
}

/** 0 on Windows, which has no O_NOFOLLOW; the identity checks below still hold there. */
export const O_NOFOLLOW: number = fs.constants.O_NOFOLLOW ?? 0;

export interface OpenOptions {
  /** Refuse a file with more than one hard link (writes). */
  refuseHardLinks?: boolean;
  /** File mode when the open creates the file. */
  mode?: number;
}

function swapped(abs: string, detail: string): PathError {
  return new PathError(
    `${abs}: refused, ${detail}; nothing was read or written. It may have been swapped for a symlink after the path check ` +
      '(or the path was not the canonical one the path guard returns). If something is changing the workspace right now, try again.',
    'symlink-escape',
  );
}

export function hardLinkError(abs: string, nlink: number): PathError {
  return new PathError(
    `${abs} has ${nlink} hard links, so writing it in place would change the other names too (pnpm's node_modules share files this way). ` +
      'Pincer does not write hard-linked files; reading them works. Edit the package source, or replace the file with a copy first.',
    'hardlink',
  );
}

function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Where the kernel says an open descriptor is (Linux's /proc/self/fd): one atomic answer, unlike any
 * sequence of path checks, which a fast swapper can flip between. undefined where unavailable.
 * Synchronous on purpose: procfs answers from the kernel's own records without touching the file's
 * file system (never a slow mount), in a few microseconds, while a thread-pool round trip for it
 * cost more than the call itself on every open a file tool makes.
 */
export function descriptorPath(fd: number): string | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Without /proc: the path must be canonical and name the descriptor's file, checked as
 * stat → realpath → stat, so a swapper has to flip the path twice within a few system calls.
 */
export async function pathStillNames(abs: string, st: fs.Stats): Promise<void> {
  try {
    const before = await fs.promises.stat(abs);
    const real = await fs.promises.realpath(abs);
    const after = await fs.promises.stat(abs);
    if (real !== abs) throw swapped(abs, `the path now leads to ${real}`);
    if (!sameFile(st, before) || !sameFile(st, after)) throw swapped(abs, 'the opened file is not the one at the path');
  } catch (err) {
    if (err instanceof PathError) throw err;
    throw swapped(abs, `it moved away: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** The checks on an opened descriptor; throws (the caller closes) when it is not what `abs` names. */
export async function verifyOpened(handle: fs.promises.FileHandle, abs: string, expected?: FileIdentity, opts: OpenOptions = {}): Promise<fs.Stats> {
  const st = await handle.stat();
  if (expected && !sameFile(st, expected)) throw swapped(abs, 'it is no longer the file that was checked');
  const actual = descriptorPath(handle.fd);
  if (actual === undefined) await pathStillNames(abs, st);
  else if (actual !== abs) throw swapped(abs, `the opened file is ${actual}`);
  if (opts.refuseHardLinks && st.isFile() && st.nlink > 1) throw hardLinkError(abs, st.nlink);
  return st;
}

/**
 * Opens a path the guard resolved (or a canonical absolute path) and proves the descriptor is that
 * file. `flags` are numeric open flags; O_NOFOLLOW is added. Throws PathError on a swap.
 */
export async function openVerified(target: ResolvedPath | string, flags: number, opts: OpenOptions = {}): Promise<fs.promises.FileHandle> {
  return (await openChecked(target, flags, opts)).handle;
}

/** openVerified, also handing back the descriptor's fstat (saves callers a second one). */
export async function openChecked(
  target: ResolvedPath | string,
  flags: number,
  opts: OpenOptions = {},
): Promise<{ handle: fs.promises.FileHandle; stat: fs.Stats }> {
  const abs = typeof target === 'string' ? path.resolve(target) : target.abs;
  const expected = typeof target === 'string' ? undefined : identityOf(target);
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(abs, flags | O_NOFOLLOW, opts.mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Linux answers ELOOP for a final symlink under O_NOFOLLOW; FreeBSD answers EMLINK.
    if (O_NOFOLLOW && (code === 'ELOOP' || code === 'EMLINK')) throw swapped(abs, 'it is now a symbolic link');
    throw err;
  }
  try {
    return { handle, stat: await verifyOpened(handle, abs, expected, opts) };
  } catch (err) {
    if (flags & fs.constants.O_CREAT && flags & fs.constants.O_EXCL) await removeCreated(handle, abs);
    await handle.close().catch(() => undefined);
    throw err;
  }
}

/** A file this open created where it should not be: remove it where it really landed. */
async function removeCreated(handle: fs.promises.FileHandle, abs: string): Promise<void> {
  const st = await handle.stat().catch(() => undefined);
  for (const where of [descriptorPath(handle.fd), abs]) {
    if (!st || !where || !path.isAbsolute(where)) continue;
    const there = await fs.promises.lstat(where).catch(() => undefined);
    if (there && sameFile(there, st)) {
      await fs.promises.unlink(where).catch(() => undefined);
      return;
    }
  }
}
