// Canonical paths: what a path really names once every symlink is followed, including paths that
// do not exist yet (resolved through their deepest existing ancestor) and dangling links (resolved
// through their target), plus the separator-aware containment test the whole guard rests on.
import * as fs from 'node:fs';
import * as path from 'node:path';
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
 */
export async function canonicalize(p: string, input: string, hops = 0): Promise<Canonical> {
  if (hops > MAX_LINK_HOPS) throw loopError(input);
  try {
    return { abs: await fs.promises.realpath(p), exists: true };
  } catch (err) {
    if (errno(err) === 'ELOOP') throw loopError(input);
    if (!MISSING.has(errno(err) ?? '')) throw unreadable(input, err);
  }
  const parent = path.dirname(p);
  let link: string | undefined;
  try {
    if ((await fs.promises.lstat(p)).isSymbolicLink()) link = await fs.promises.readlink(p);
  } catch (err) {
    if (!MISSING.has(errno(err) ?? '')) throw unreadable(input, err);
  }
  if (link !== undefined) {
    // A dangling link: where it points is where a write would land.
    const base = parent === p ? p : (await canonicalize(parent, input, hops + 1)).abs;
    return canonicalize(path.resolve(base, link), input, hops + 1);
  }
  if (parent === p) return { abs: p, exists: false };
  const up = await canonicalize(parent, input, hops);
  return { abs: path.join(up.abs, path.basename(p)), exists: false };
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
  const prefix = a.endsWith(path.sep) ? a : a + path.sep;
  return b.startsWith(prefix);
}

/** `child` relative to `parent` with forward slashes; '' for the parent itself. */
export function relativeSlash(parent: string, child: string): string {
  const rel = path.relative(parent, child);
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
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
