// Where a command line's later segments start: `cd`, `pushd` and `popd` move the shell, so relative
// paths after them land elsewhere. Its own module so that code following a shell's folder (approval
// rules, the interactive gate) can do so without loading the whole judge.
import path from 'node:path';
import type { SegmentView } from './command-view';

/** `cd DIR` moves later relative writes; a cd to a place known only at run time makes them unknowable. */
export function nextCwd(v: SegmentView, cwd: string | undefined, home: string): string | undefined {
  if (v.name !== 'cd' && v.name !== 'pushd' && v.name !== 'popd' && v.name !== 'chdir') return cwd;
  if (v.name === 'popd') return undefined;
  const ops = v.words.filter((w) => !/^-[LPe@]+$/.test(w.text));
  if (!ops.length) return home;
  const t = ops[0];
  if (t.dynamic || t.text === '-' || cwd === undefined) return undefined;
  const p = t.text.replace(/^~(?=\/|$)/, home);
  return path.resolve(cwd, p);
}

/**
 * `path.relative(root, p).startsWith('..')`: whether `p` lies outside `root` (as the judge has always
 * asked it). Asked for every argv of every decision; when `p` is `root` or plainly below it (both
 * absolute POSIX paths, `p` with no `.` step and no `//`, `root` without a trailing `/`) the answer is
 * read off the strings, the same one path.relative gives; anything else goes to path.relative.
 */
export function relativeGoesUp(root: string, p: string): boolean {
  if (p === root) return false;
  if (path.sep === '/' && root.length > 1 && root.charCodeAt(0) === 0x2f && root.charCodeAt(root.length - 1) !== 0x2f && p.length > root.length + 1
    && p.charCodeAt(root.length) === 0x2f && p.startsWith(root) && !p.includes('/.') && !p.includes('//') && !root.includes('/.') && !root.includes('//') && p.charCodeAt(p.length - 1) !== 0x2f) {
    return false;
  }
  return path.relative(root, p).startsWith('..');
}
