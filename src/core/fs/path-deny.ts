// The deny rules (pincer.fs.denyPaths plus the always-denied folders). Semantics, chosen so a rule
// hides a whole tree the way .gitignore does:
// - a relative glob is matched against the path relative to each root; a path is denied when it or
//   any of its ancestors matches, so `secrets` and `secrets/**` both hide the folder and everything
//   in it, and `**/.git/**` hides every `.git` folder (but not `.gitignore` or `.github/`);
// - an absolute entry is a folder (everything under it is denied) or, with glob characters, a glob
//   over absolute paths; `~/` entries are expanded;
// - names are compared in NFC, so a decomposed spelling of a denied name (which macOS treats as the
//   same file) is denied too, and without case on case-insensitive roots.
import * as path from 'node:path';
import { Minimatch } from 'minimatch';
import { canonicalizeSync, isWithin } from './path-canonical';

/** `.git` internals in any repository of the workspace, nested ones included. */
export const DEFAULT_DENY_PATHS: readonly string[] = ['**/.git/**'];

/** pincer.fs.* when nothing is set; here, free of the settings schema, for the CLI's quick paths. */
export const DEFAULT_FS_SETTINGS: Readonly<{ workspaceOnly: boolean; allowPaths: readonly string[]; denyPaths: readonly string[] }> = {
  workspaceOnly: true, allowPaths: [], denyPaths: DEFAULT_DENY_PATHS,
};

export interface DenyHit {
  /** The rule as the user wrote it (or the always-denied folder). */
  rule: string;
  /** Whether it came from pincer.fs.denyPaths (false: Pincer's own storage, not configurable). */
  configurable: boolean;
}

interface GlobRule {
  rule: string;
  /** Fast path for globs without wildcards: `a/b` (anchored) or `**\/a/b` (at any depth). */
  literal?: { text: string; anywhere: boolean };
  sensitive: RegExp;
  insensitive: RegExp;
}

interface RootInfo {
  root: string;
  nocase: boolean;
}

const toSlash = (p: string): string => (path.sep === '/' ? p : p.split(path.sep).join('/'));

function compile(rule: string, pattern: string): GlobRule | undefined {
  const opts = { dot: true, nocomment: true, nonegate: true, optimizationLevel: 2 } as const;
  const sensitive = new Minimatch(pattern, opts).makeRe();
  const insensitive = new Minimatch(pattern, { ...opts, nocase: true }).makeRe();
  if (!sensitive || !insensitive) return undefined;
  const anywhere = pattern.startsWith('**/');
  const text = anywhere ? pattern.slice(3) : pattern;
  const literal = MAGIC.test(text) || text.split('/').some((s) => s === '.' || s === '..') ? undefined : { text, anywhere };
  return { rule, literal, sensitive, insensitive };
}

/** `./a/` → `a`; `a/**` → `a` (the ancestor rule already covers everything below). */
function simplify(pattern: string): string {
  let p = toSlash(pattern).normalize('NFC').replace(/^(\.\/)+/, '');
  while (p.endsWith('/**') && p.length > 3) p = p.slice(0, -3);
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

const nfc = (s: string): string => (/[^\x00-\x7f]/.test(s) ? s.normalize('NFC') : s);

const GLOB_CHARS = /[*?[\]{}]/;
/** Anything minimatch might read as syntax (extglobs, escapes): such patterns take the regex path. */
const MAGIC = /[*?[\]{}()!+@\\]/;

/** `~` and `~/x` as people type them in settings → absolute paths. */
export function expandHome(entry: string, home: string): string {
  if (entry === '~') return home;
  if (entry.startsWith('~/') || entry.startsWith('~\\')) return path.join(home, entry.slice(2));
  return entry;
}

export class DenyRules {
  private readonly relative: GlobRule[] = [];
  private readonly absoluteGlobs: GlobRule[] = [];
  private readonly folders: { dir: string; hit: DenyHit }[] = [];
  private readonly nocaseAnywhere: boolean;

  constructor(denyPaths: readonly string[], alwaysDeny: readonly string[], home: string, private readonly roots: readonly RootInfo[]) {
    for (const raw of denyPaths) {
      const entry = expandHome(raw.trim(), home);
      if (!entry) continue;
      if (path.isAbsolute(entry) && !GLOB_CHARS.test(entry)) this.addFolder(entry, { rule: raw, configurable: true });
      else if (path.isAbsolute(entry)) {
        const rule = compile(raw, simplify(entry));
        if (rule) this.absoluteGlobs.push(rule);
      } else {
        const rule = compile(raw, simplify(entry));
        if (rule) this.relative.push(rule);
      }
    }
    for (const dir of alwaysDeny) this.addFolder(dir, { rule: dir, configurable: false });
    this.nocaseAnywhere = roots.some((r) => r.nocase);
  }

  private addFolder(dir: string, hit: DenyHit): void {
    const literal = path.resolve(dir);
    const canonical = canonicalizeSync(literal);
    this.folders.push({ dir: canonical, hit });
    if (canonical !== literal) this.folders.push({ dir: literal, hit });
  }

  /**
   * The rule that hides `abs` (absolute, cleaned; canonical for walkers), if any. With `parentClear`
   * the caller vouches that the folder holding `abs` was matched already and nothing hid it: then
   * every ancestor of `abs` is known clear and only `abs` itself is tested, which is what a walker
   * needs for each entry of a folder it lists (the same answer as the whole chain, in that case).
   */
  match(abs: string, parentClear = false): DenyHit | undefined {
    const nocaseAnywhere = this.nocaseAnywhere;
    for (const f of this.folders) if (isWithin(f.dir, abs, nocaseAnywhere)) return f.hit;
    if (this.absoluteGlobs.length) {
      const hit = this.matchChain(this.absoluteGlobs, nfc(toSlash(abs)), nocaseAnywhere, true, parentClear);
      if (hit) return hit;
    }
    if (!this.relative.length) return undefined;
    for (const r of this.roots) {
      if (!isWithin(r.root, abs, r.nocase)) continue;
      // isWithin held, so the relative path is a plain slice (path.relative costs a microsecond).
      const rel = nfc(toSlash(abs.slice(r.root.endsWith(path.sep) ? r.root.length : r.root.length + 1)));
      if (!rel) continue;
      const hit = this.matchChain(this.relative, rel, r.nocase, false, parentClear);
      if (hit) return hit;
    }
    return undefined;
  }

  /**
   * Tests `p` and each ancestor (`a/b/c`, `a/b`, `a`); absolute chains stop above the top level.
   * `selfOnly`: the ancestors are known clear, so `p` alone is tested.
   */
  private matchChain(rules: GlobRule[], p: string, nocase: boolean, absolute: boolean, selfOnly: boolean): DenyHit | undefined {
    const folded = nocase ? p.toLowerCase() : p;
    const globs: GlobRule[] = [];
    for (const rule of rules) {
      if (!rule.literal) globs.push(rule);
      else if (literalHit(rule.literal, folded, nocase, selfOnly)) return { rule: rule.rule, configurable: true };
    }
    if (!globs.length) return undefined;
    let cur = p;
    for (;;) {
      for (const rule of globs) {
        if ((nocase ? rule.insensitive : rule.sensitive).test(cur)) return { rule: rule.rule, configurable: true };
      }
      if (selfOnly) return undefined;
      const cut = cur.lastIndexOf('/');
      if (cut <= 0 || (absolute && cur.indexOf('/', 1) === -1)) return undefined;
      cur = cur.slice(0, cut);
    }
  }
}

/**
 * The ancestor rule for a wildcard-free pattern, as string tests on the (case-folded) path. With
 * `selfOnly` (every ancestor known clear) only the tests that end at `p` itself are made: a hit
 * through an ancestor (`text/…` or `…/text/…`) would have hidden that ancestor already.
 */
function literalHit(lit: { text: string; anywhere: boolean }, p: string, nocase: boolean, selfOnly: boolean): boolean {
  const text = nocase ? lit.text.toLowerCase() : lit.text;
  if (selfOnly) return p === text || (lit.anywhere && p.length > text.length && p.endsWith(text) && p.charCodeAt(p.length - text.length - 1) === 47);
  if (!lit.anywhere) return p === text || p.startsWith(`${text}/`);
  return p === text || p.startsWith(`${text}/`) || p.endsWith(`/${text}`) || p.includes(`/${text}/`);
}
