// The ripgrep command line for one grep call. rg runs with the search root as its working directory,
// so root-relative deny rules can be passed as anchored globs (`!/secrets`) and paths come back
// relative to the root.
import * as path from 'node:path';
import type { GrepQuery } from './grep-collect';

const GLOB_SPECIAL = /[*?[\]{}!\\]/g;

const toSlash = (p: string) => (path.sep === '/' ? p : p.split(path.sep).join('/'));

/**
 * pincer.fs.denyPaths entries (and always-denied folders) as rg exclusion globs for a search rooted at
 * `root`. Relative rules are anchored to the root, as the guard reads them (`secrets` hides the
 * top-level folder only); absolute folders inside the root become anchored literals; anything else is
 * left to the result filter (guard.isDenied), which every result goes through anyway.
 */
export function denyPathsToRgGlobs(entries: readonly string[], root: string, home?: string): string[] {
  const out: string[] = [];
  for (const raw of entries) {
    let entry = raw.trim();
    if (!entry) continue;
    if (home && (entry === '~' || entry.startsWith('~/'))) entry = path.join(home, entry.slice(1));
    if (path.isAbsolute(entry)) {
      const rel = path.relative(root, entry);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
      out.push(`!/${toSlash(rel).replace(GLOB_SPECIAL, '\\$&')}`);
      continue;
    }
    let p = toSlash(entry).replace(/^(\.\/)+/, '');
    while (p.endsWith('/**') && p.length > 3) p = p.slice(0, -3);
    while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
    if (!p || p.startsWith('!')) continue;
    out.push(p.startsWith('**/') ? `!${p}` : `!/${p.replace(/^\/+/, '')}`);
  }
  return out;
}

/** Whether a glob names files by their base name only (`*.ts`, `{a,b}.json`), not by a path. */
export function isBaseNameGlob(glob: string): boolean {
  return !glob.includes('/');
}

export interface RipgrepArgsInput {
  query: GrepQuery;
  /** The file or directory to search, relative to the working directory ('.' for the root). */
  target: string;
  /** Exclusion globs for denied paths (from denyPathsToRgGlobs). */
  denyGlobs: readonly string[];
}

export function ripgrepArgs({ query: q, target, denyGlobs }: RipgrepArgsInput): string[] {
  // --no-config: a user's RIPGREP_CONFIG_PATH must not change what the model sees.
  // --hidden: dotfiles (.github/, .eslintrc) are project source; .git is excluded below and secrets
  //   are the deny rules' job. --no-require-git: honour .gitignore in a folder that is not a repo yet.
  // --sort path: the same call gives the same answer (the loop detector compares results) and the
  //   first `limit` matches are the first by path, not whichever thread finished first.
  // The output flags give the records ripgrep-output reads: every line with its path (even for one
  //   file), NUL after the path, line numbers, the first match's column, no `--` between groups.
  // No --max-columns: it drops the whole line for a placeholder; grep-collect cuts a window around
  //   the match instead.
  const a = ['--with-filename', '--null', '--line-number', '--column', '--no-heading', '--no-context-separator', '--color=never'];
  a.push('--no-config', '--hidden', '--no-require-git', '--sort', 'path');
  a.push(q.ignoreCase ? '--ignore-case' : '--case-sensitive');
  // Patterns that need look-around or backreferences fall back to PCRE2 where rg has it.
  a.push(q.literal ? '--fixed-strings' : '--engine=auto');
  if (q.before > 0) a.push(`--before-context=${q.before}`);
  if (q.after > 0) a.push(`--after-context=${q.after}`);
  if (q.includeIgnored) a.push('--no-ignore');
  if (q.glob) {
    const g = q.glob.trim();
    // An include glob passed with -g would whitelist .gitignored files it names (rg's override
    // rule); a file type filters by name and leaves ignore rules alone. Exclusions are safe as -g.
    if (!g.startsWith('!') && isBaseNameGlob(g) && !g.startsWith('include:')) a.push(`--type-add=pincerglob:${g}`, '--type=pincerglob');
    else a.push(`--glob=${g}`);
  }
  // Later globs win in rg, so the exclusions come after the model's glob and cannot be re-included.
  a.push('--glob=!.git');
  for (const g of denyGlobs) a.push(`--glob=${g}`);
  a.push('--', q.pattern, target);
  return a;
}
