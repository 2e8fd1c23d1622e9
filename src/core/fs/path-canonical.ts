// Canonical paths: what a path really names once every symlink is followed, including paths that
// do not exist yet (resolved through their deepest existing ancestor) and dangling links (resolved
// through their target), plus the separator-aware containment test the whole guard rests on.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lstatOf, readlinkOf, realpathOf, type FsSteps } from './path-steps';
import { PathError } from './types';

/** Links followed by hand (dangling ones) before we call it a loop; the kernel's own limit is 40. */
export const MAX_LINK_HOPS = 40;

export interface Canonical {
  abs: string;
  exists: boolean;
}

const MISSING = new Set(['ENOENT', 'ENOTDIR']);

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function loopError(input: string): PathError {
  return new PathError(`${input}: too many levels of symbolic links (a link loop). Point the link at a real file or remove it.`, 'invalid');
}

/**
 * Follows every link in `p` (absolute, cleaned). realpath does the work for existing paths; for a
 * missing one we look at the last component ourselves: a dangling link is followed to its target,
 * anything else resolves through its parent, so `ws/link-to-outside/new.txt` lands outside.
 *
 * With `probe`, an lstat comes first: when nothing has the name (ENOENT/ENOTDIR) realpath would fail
 * and the link check find nothing, so both are skipped and the walk goes straight to the parent.
 * Worth it where a failed call throws (the sync driver: an exception costs more than the syscall);
 * not where every call is a thread-pool round trip (async), so there the order is realpath first.
 * Anything else the probe sees (a name, or another error) takes the unprobed path unchanged.
 */
export function* canonicalSteps(p: string, input: string, probe: boolean, hops = 0): FsSteps<Canonical> {
  if (hops > MAX_LINK_HOPS) throw loopError(input);
  const parent = path.dirname(p);
  let link: string | undefined;
  if (!probe || (yield* named(p))) {
    try {
      return { abs: yield* realpathOf(p), exists: true };
    } catch (err) {
      if (errno(err) === 'ELOOP') throw loopError(input);
      if (!MISSING.has(errno(err) ?? '')) throw unreadable(input, err);
    }
    try {
      if ((yield* lstatOf(p))?.isSymbolicLink()) link = yield* readlinkOf(p);
    } catch (err) {
      if (!MISSING.has(errno(err) ?? '')) throw unreadable(input, err);
    }
  }
  if (link !== undefined) {
    // A dangling link: where it points is where a write would land.
    const base = parent === p ? p : (yield* canonicalSteps(parent, input, probe, hops + 1)).abs;
    return yield* canonicalSteps(path.resolve(base, link), input, probe, hops + 1);
  }
  if (parent === p) return { abs: p, exists: false };
  const up = yield* canonicalSteps(parent, input, probe, hops);
  // path.join(up.abs, name) without its normalising pass: up.abs is clean and name a plain name.
  const name = path.basename(p);
  return { abs: up.abs.endsWith(path.sep) ? up.abs + name : up.abs + path.sep + name, exists: false };
}

/** Whether something has the name `p`: false only for ENOENT/ENOTDIR; other errors say true (realpath reports them). */
function* named(p: string): FsSteps<boolean> {
  try {
    return (yield* lstatOf(p)) !== undefined;
  } catch (err) {
    return !MISSING.has(errno(err) ?? '');
  }
}

/** For roots and configured paths, once at start-up: canonical if it exists, else cleaned. */
export function canonicalizeSync(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

function unreadable(input: string, err: unknown): PathError {
  return new PathError(`${input}: cannot be resolved (${errno(err) ?? String(err)}).`, 'invalid');
}

/** Whether `child` is `parent` or below it. `/ws` does not contain `/ws2`. */
export function isWithin(parent: string, child: string, nocase: boolean): boolean {
  const a = nocase ? parent.toLowerCase() : parent;
  const b = nocase ? child.toLowerCase() : child;
  if (a === b) return true;
  // `b.startsWith(a + sep)` without building the prefix (the guard asks this several times a path).
  if (a.endsWith(path.sep)) return b.startsWith(a);
  return b.length > a.length && b.charCodeAt(a.length) === SEP && b.startsWith(a);
}

const SEP = path.sep.charCodeAt(0);

/** `child` relative to `parent` with forward slashes; '' for the parent itself. */
export function relativeSlash(parent: string, child: string): string {
  // Both clean and absolute, `child` under `parent` as written: what path.relative returns is the
  // rest of `child` after the separator (path.relative costs about a microsecond).
  if (isCleanAbsolute(child) && (parent === '/' || isCleanAbsolute(parent))) {
    if (child === parent) return '';
    const at = parent === '/' ? 1 : parent.length + 1;
    if (child.length > at && child.startsWith(parent) && child.charCodeAt(at - 1) === 47) return child.slice(at);
  }
  const rel = path.relative(parent, child);
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/** A POSIX path that path.resolve would return unchanged: absolute, no empty, `.` or `..` segment, no trailing slash. */
const UNCLEAN_SEGMENT = /\/(?:\.\.?)?(?:\/|$)/;
export function isCleanAbsolute(p: string): boolean {
  return path.sep === '/' && p.startsWith('/') && !UNCLEAN_SEGMENT.test(p);
}

function swapCase(s: string): string {
  let out = '';
  for (const ch of s) out += ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
  return out;
}

/**
 * Whether the file system holding `dir` ignores case: stat the same folder with its name's case
 * swapped. Linux can mount case-insensitive file systems and macOS can be case-sensitive, so the
 * platform is only the fallback when the name has no letters to swap.
 */
export function probeCaseInsensitive(dir: string): boolean {
  const fallback = process.platform === 'darwin' || process.platform === 'win32';
  const base = path.basename(dir);
  const swapped = swapCase(base);
  if (!base || swapped === base) return fallback;
  try {
    const a = fs.statSync(dir);
    const b = fs.statSync(path.join(path.dirname(dir), swapped));
    return a.dev === b.dev && a.ino === b.ino;
  } catch (err) {
    return MISSING.has(errno(err) ?? '') ? false : fallback;
  }
}
