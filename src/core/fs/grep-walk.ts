// The files the grep fallback searches, in path order, by the rules ripgrep uses with the flags the
// grep tool passes it: .gitignore and .ignore honoured (from the root down) unless includeIgnored,
// hidden files included, `.git` never entered, symlinks not followed, denied paths never listed.
// It walks through WorkspaceFs, so it works where no rg can run (remote and virtual workspaces).
import ignore from 'ignore';
import { Minimatch } from 'minimatch';
import * as path from 'node:path';
import type { WorkspaceFs } from './types';

type Ignore = ReturnType<typeof ignore>;

export interface WalkOptions {
  fs: WorkspaceFs;
  /** The root (canonical) that paths and root-relative globs are relative to. */
  root: string;
  /** The directory to walk, inside `root`. */
  start: string;
  includeIgnored: boolean;
  glob?: string;
  isDenied(abs: string): boolean;
  signal: AbortSignal;
}

export interface WalkedFile {
  abs: string;
  /** Relative to the root, with forward slashes. */
  rel: string;
}

export interface IgnoreLevel {
  /** Directory of the ignore file, relative to the root ('' for the root). */
  base: string;
  ig: Ignore;
}

const IGNORE_FILES = ['.gitignore', '.ignore'];

const toSlash = (p: string) => (path.sep === '/' ? p : p.split(path.sep).join('/'));

/** The model's glob as rg reads it: a name glob tests the base name, a path glob the root-relative path. */
export function globFilter(glob: string | undefined): { include(rel: string): boolean; exclude(rel: string): boolean } {
  const g = glob?.trim();
  if (!g) return { include: () => true, exclude: () => false };
  const negated = g.startsWith('!');
  const body = negated ? g.slice(1) : g;
  const byName = !body.includes('/');
  const mm = new Minimatch(body.replace(/^\/+/, ''), { dot: true, nonegate: true, nocomment: true });
  const test = (rel: string) => mm.match(byName ? rel.slice(rel.lastIndexOf('/') + 1) : rel);
  return negated ? { include: () => true, exclude: test } : { include: test, exclude: () => false };
}

async function loadIgnore(fs: WorkspaceFs, dirAbs: string, names: Set<string>): Promise<Ignore | undefined> {
  let ig: Ignore | undefined;
  for (const name of IGNORE_FILES) {
    if (!names.has(name)) continue;
    try {
      const text = Buffer.from(await fs.readFile(path.join(dirAbs, name))).toString('utf8');
      ig = (ig ?? ignore()).add(text);
    } catch {
      // An unreadable ignore file hides nothing, as in git.
    }
  }
  return ig;
}

/** Later (deeper) levels override earlier ones, so a nested `!keep.log` re-includes a file. */
export function isIgnored(levels: IgnoreLevel[], rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, ig } of levels) {
    const sub = base ? rel.slice(base.length + 1) : rel;
    if (!sub) continue;
    const r = ig.test(isDir ? `${sub}/` : sub);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

export async function* walkFiles(o: WalkOptions): AsyncGenerator<WalkedFile> {
  const filter = globFilter(o.glob);
  const levels: IgnoreLevel[] = [];
  if (!o.includeIgnored) {
    // The ignore files of the folders above the start apply too, as they do for rg.
    const rel = toSlash(path.relative(o.root, o.start));
    const parts = rel ? rel.split('/') : [];
    for (let i = 0; i < parts.length; i++) {
      const base = parts.slice(0, i).join('/');
      const dirAbs = path.join(o.root, base);
      const names = new Set((await o.fs.readDirectory(dirAbs).catch(() => [])).map(([n]) => n));
      const ig = await loadIgnore(o.fs, dirAbs, names);
      if (ig) levels.push({ base, ig });
    }
    // A folder the model names is searched even when it is ignored (rg does the same); the rules
    // above it would otherwise hide everything in it, since an ignored parent hides its children.
    if (rel && isIgnored(levels, rel, true)) levels.length = 0;
  }
  yield* walkDir(o, o.start, levels, filter);
}

async function* walkDir(o: WalkOptions, dirAbs: string, levels: IgnoreLevel[], filter: ReturnType<typeof globFilter>): AsyncGenerator<WalkedFile> {
  if (o.signal.aborted) return;
  let entries: [string, string][];
  try {
    entries = await o.fs.readDirectory(dirAbs);
  } catch {
    return;
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const dirRel = toSlash(path.relative(o.root, dirAbs));
  let here = levels;
  if (!o.includeIgnored) {
    const ig = await loadIgnore(o.fs, dirAbs, new Set(entries.map(([n]) => n)));
    if (ig) here = [...levels, { base: dirRel, ig }];
  }
  for (const [name, type] of entries) {
    if (o.signal.aborted) return;
    if (type !== 'file' && type !== 'directory') continue;
    if (type === 'directory' && name === '.git') continue;
    const abs = path.join(dirAbs, name);
    const rel = dirRel ? `${dirRel}/${name}` : name;
    if (o.isDenied(abs) || filter.exclude(rel)) continue;
    if (!o.includeIgnored && isIgnored(here, rel, type === 'directory')) continue;
    if (type === 'directory') yield* walkDir(o, abs, here, filter);
    else if (filter.include(rel)) yield { abs, rel };
  }
}
