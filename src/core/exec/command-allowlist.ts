// Allowlist mode: a segment runs only when an entry names its resolved executable and, for
// interpreters and package managers, its arguments. A bare-name entry (`ls`) matches only a bare
// command found through PATH, so `./ls` or `/tmp/x/ls` never borrow the approval (GoClaw's
// basename-reuse advisory).
import fs from 'node:fs';
import path from 'node:path';
import type { AllowlistEntry } from './command-policy';
import { INTERPRETERS, PACKAGE_MANAGERS, type SegmentView } from './command-view';

const resolved = new Map<string, string | undefined>();

/** The absolute, canonical path the shell would run, or undefined (not found, or a builtin). */
export function resolveExecutable(exe: string, cwd: string, pathVar = process.env.PATH ?? ''): string | undefined {
  if (!exe) return undefined;
  if (exe.includes('/')) return canonical(path.resolve(cwd, exe));
  const key = `${pathVar}\0${exe}`;
  if (resolved.has(key)) return resolved.get(key);
  let hit: string | undefined;
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue; // a relative PATH entry would make the answer depend on cwd
    const c = path.join(dir, exe);
    try {
      fs.accessSync(c, fs.constants.X_OK);
      if (fs.statSync(c).isFile()) { hit = canonical(c); break; }
    } catch { /* not here */ }
  }
  resolved.set(key, hit);
  return hit;
}

function canonical(p: string): string {
  try { return fs.realpathSync.native(p); } catch { return p; }
}

/** `*` any run of characters, `?` one; the whole argument string must match. */
export function globMatch(glob: string, text: string): boolean {
  const re = new RegExp(`^${glob.split('').map((c) => (c === '*' ? '[\\s\\S]*' : c === '?' ? '[\\s\\S]' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
  return re.test(text);
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
    const blanket = e.args === undefined || /^\**$/.test(e.args.trim());
    if (blanket && needsArgumentPattern(v.name)) continue;
    if (blanket || globMatch(e.args as string, argText)) return e;
  }
  return undefined;
}
