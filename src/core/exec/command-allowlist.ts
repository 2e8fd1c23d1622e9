// Allowlist mode: a segment runs only when an entry names its resolved executable and, for
// interpreters and package managers, its arguments. A bare-name entry (`ls`) matches only a bare
// command found through PATH, so `./ls` or `/tmp/x/ls` never borrow the approval (GoClaw's
// basename-reuse advisory).
import path from 'node:path';
import type { AllowlistEntry } from './command-policy';
import type { Word } from './command-types';
import { INTERPRETERS, PACKAGE_MANAGERS, viewOf, type SegmentView } from './command-view';
import { writeTargets } from './command-writes';
import { canonical, resolveExecutable } from './resolve-executable';

export { resolveExecutable };

/**
 * `*` any run of characters, `?` one; the whole argument string must match. `\\*`, `\\?` and `\\\\` stand
 * for a literal `*`, `?` and `\\` (so an exact rule can pin an argument that contains them); a
 * backslash before anything else is itself, as it always was.
 */
export function globMatch(glob: string, text: string): boolean {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    const next = glob[i + 1];
    if (c === '\\' && (next === '*' || next === '?' || next === '\\')) {
      re += escapeRe(next);
      i++;
    } else re += c === '*' ? '[\\s\\S]*' : c === '?' ? '[\\s\\S]' : escapeRe(c);
  }
  return new RegExp(`^${re}$`).test(text);
}

/** The glob that matches exactly `text` and nothing else. */
export function globEscape(text: string): string {
  return text.replace(/[\\*?]/g, '\\$&');
}

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether an entry's argument pattern lets any arguments through: omitted, or only `*`. An empty
 * string is not blanket: it is the exact pattern of a command given no arguments at all.
 */
export function isBlanketArgs(args: string | undefined): boolean {
  if (args === undefined) return true;
  if (args === '') return false;
  return /^\**$/.test(args.trim());
}

/** Interpreters and package managers run whatever their arguments say: an entry must pin them. */
export function needsArgumentPattern(name: string): boolean {
  return INTERPRETERS.has(name) || PACKAGE_MANAGERS.has(name) || /^(python|node|ruby|perl|php)[\d.]*$/.test(name);
}

export function allowlistMatch(v: SegmentView, entries: readonly AllowlistEntry[], cwd: string): AllowlistEntry | undefined {
  if (!entries.length || v.seg.argv.some((w) => w.dynamic)) return undefined;
  const exePath = resolveExecutable(v.exe, cwd);
  const bare = !v.exe.includes('/');
  const argText = v.args.join(' ');
  for (const e of entries) {
    const byPath = path.isAbsolute(e.executable) && exePath !== undefined && canonical(e.executable) === exePath;
    const byName = !path.isAbsolute(e.executable) && bare && e.executable === v.exe && exePath !== undefined;
    if (!byPath && !byName) continue;
    const blanket = isBlanketArgs(e.args);
    if (blanket && needsArgumentPattern(v.name)) continue;
    if (blanket || globMatch(e.args as string, argText)) return e;
  }
  return undefined;
}

/**
 * The entry that approves a segment: its own argv and, for a wrapper (`timeout 5 rm -rf x`), the
 * command it runs must both match, as one approval of the wrapper must not cover whatever it runs.
 * Nothing matches a program named by a relative path (`./x`) after a cd to a folder known only at
 * run time (`cwd` undefined): which file that is cannot be known. Returns the inner command's entry.
 */
export function approvalFor(v: SegmentView, inner: readonly Word[][], entries: readonly AllowlistEntry[], cwd: string | undefined): AllowlistEntry | undefined {
  if (!entries.length) return undefined; // nothing to match: no view of the inner command needed
  const views = inner.length ? [v, viewOf(v.seg, inner[inner.length - 1])] : [v];
  let hit: AllowlistEntry | undefined;
  for (const x of views) {
    if (cwd === undefined && x.exe.includes('/') && !path.isAbsolute(x.exe)) return undefined;
    hit = allowlistMatch(x, entries, cwd ?? path.parse(process.cwd()).root);
    if (!hit) return undefined;
  }
  return hit;
}

/**
 * Asks that an approval never settles, with why: what they are about is not in the argv an
 * approval pins (a script read from input or from a file can change), or the words themselves
 * deceive. Writes are settled only in part: see approvalSettles.
 */
export const UNPINNED_ASKS: Readonly<Record<string, string>> = {
  code_injection: 'it runs code the policy cannot read (a script from its input or from a file), which an approval of its arguments cannot pin',
  unicode: 'its name or arguments contain characters that imitate or hide others, so a look-alike could borrow the approval',
  parse: 'the command cannot be read exactly, so an approval could not say what it covers',
};

export const UNPINNED_WRITE = 'it writes to a place its arguments do not name exactly (through a redirection, to a relative path that depends on the working folder, or to a place known only at run time), so an approval cannot pin where; such writes are confirmed every time';

/**
 * Whether every place the segment (and the command a wrapper runs) writes is named in its
 * arguments, absolute and static: then an exact rule pins where it writes (`touch /tmp/a`).
 */
export function writesPinned(views: readonly SegmentView[]): boolean {
  return views.flatMap(writeTargets).every((t) => !t.by.startsWith('redirection') && !t.dynamic && /^(\/|~(\/|$))/.test(t.text));
}

/** A pattern without wildcards (escaped ones are literal): it names one exact argument string. */
export function isExactArgs(args: string | undefined): boolean {
  if (args === undefined) return false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '\\' && (args[i + 1] === '*' || args[i + 1] === '?' || args[i + 1] === '\\')) i++;
    else if (args[i] === '*' || args[i] === '?') return false;
  }
  return true;
}

/**
 * Whether a stored approval may turn this ask into an allow. An ask about a write is settled only
 * by an exact rule, and only when the arguments name every place written (`sort -o /tmp/x y`
 * approved exactly; never `sort` with any arguments, never `echo x > /tmp/x`).
 */
export function approvalSettles(group: string, writes: { pinned: boolean; exact: boolean }): boolean {
  if (group === 'write') return writes.pinned && writes.exact;
  return !Object.hasOwn(UNPINNED_ASKS, group);
}
