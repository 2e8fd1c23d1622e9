// The one path resolver: every tool that takes a path (exec's working directory included) asks
// PathGuard.resolve, and walkers ask isDenied for each entry they would show.
//
// Decisions (tests in test/unit/fs/path-guard*.test.ts):
// - Containment is decided on the canonical path (every symlink followed; a missing path through
//   its deepest existing ancestor; a dangling link through its target), with a separator-aware
//   test, so `/ws` never admits `/ws2`. Links that stay inside are fine; a path that looks inside
//   but leads out is refused as 'symlink-escape', one that is outside as typed as 'outside'.
//   Symlinked workspace folders work: roots are canonicalised once, here in the constructor.
// - Hard links: writes refuse a file with nlink > 1 ('hardlink'), because an in-place write would
//   change every other name of the file, possibly one outside the workspace. Reads are allowed:
//   pnpm's node_modules are hard links into its store, and a hard link can only be made by someone
//   who could already read the file, so reading it gives the agent nothing the user lacked.
// - Swap races: resolve records the identity (dev/ino) of what it checked; openVerified (in
//   path-open.ts) opens with O_NOFOLLOW and proves the descriptor is still that file.
// - resolve (async) and resolveSync run one piece of logic (path-steps.ts) and give the same answers;
//   neither caches anything. File tools use resolve; the exec judge's pre-run write checks use
//   resolveSync, which is only faster (syscalls made in place, not via the thread pool).
// - Deny rules (path-deny.ts) are checked on the canonical path and on the path as typed, so a
//   link to `.git/config` is denied and so is `.git/config` when `.git` itself is a link.
//   DEFAULT_DENY_PATHS hides `.git` internals only: `.gitignore`, `.github/` and `.gitattributes`
//   are ordinary files. The always-denied folders (Pincer's storage) are refused everywhere.
// - Case: canonical paths come from the OS's realpath (which restores the on-disk case where the
//   file system ignores case) and comparisons ignore case on roots probed to be case-insensitive.
//   On a case-sensitive file system `.GIT/config` is a different file from `.git/config`.
// - Unicode: names are never NFKC-folded, so fullwidth `．．／` is a name, not `../`; deny rules
//   compare in NFC so a decomposed spelling of a denied name is denied too.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalizeSync, canonicalSteps, isCleanAbsolute, isWithin, probeCaseInsensitive, relativeSlash } from './path-canonical';
import { DenyRules, type DenyHit } from './path-deny';
import { expandInput, validateInput, type InputContext } from './path-input';
import { deniedError, outsideError, symlinkEscapeError } from './path-messages';
import { hardLinkError, recordIdentity } from './path-open';
import { lstatOf, runAsync, runSync, type FsSteps } from './path-steps';
import type { Access, PathError, PathGuardConfig, PathResolver, ResolvedPath } from './types';

export { DEFAULT_DENY_PATHS } from './path-deny';
export { openVerified } from './path-open';

interface Root {
  /** As configured, cleaned (may go through a link). */
  given: string;
  /** Canonical. */
  real: string;
  nocase: boolean;
}

function makeRoot(p: string): Root {
  const given = path.resolve(p);
  const real = canonicalizeSync(given);
  return { given, real, nocase: probeCaseInsensitive(real) };
}

export class PathGuard implements PathResolver {
  /** Workspace folders then allowed extra roots, canonical. */
  readonly roots: readonly string[];
  private readonly all: Root[];
  private readonly deny: DenyRules;
  private readonly inputs: InputContext;
  private containerRoot: boolean | undefined;

  constructor(private readonly config: PathGuardConfig) {
    const workspace = config.roots.map(makeRoot);
    const extra = config.allowPaths.filter((p) => path.isAbsolute(p) || p.startsWith('~')).map((p) => makeRoot(expandTilde(p, config.home)));
    this.all = [...workspace, ...extra];
    this.roots = this.all.map((r) => r.real);
    const denyRoots = this.all.flatMap((r) => (r.given === r.real ? [{ root: r.real, nocase: r.nocase }] : [
      { root: r.real, nocase: r.nocase },
      { root: r.given, nocase: r.nocase },
    ]));
    this.deny = new DenyRules(config.denyPaths, config.alwaysDeny, config.home, denyRoots);
    const rootNames = config.rootNames ?? (config.roots.length > 1 ? config.roots.map((r) => path.basename(r)) : []);
    this.inputs = {
      roots: workspace.map((r) => r.given),
      rootNames,
      home: config.home,
      containerRootExists: () => (this.containerRoot ??= fs.existsSync('/workspace')),
    };
  }

  async resolve(input: string, access: Access): Promise<ResolvedPath> {
    return runAsync(this.steps(input, access, false));
  }

  /**
   * resolve with synchronous file-system calls: the same checks in the same order, the same result
   * and errors, and nothing cached (every call looks at the disk as it is now). For the exec judge,
   * which checks each write target of a command before it runs (advisory: the run itself is
   * sandboxed, and the file tools re-check with resolve + openVerified at write time). A few
   * syscalls of 1–3 µs each instead of as many thread-pool round trips.
   */
  resolveSync(input: string, access: Access): ResolvedPath {
    return runSync(this.steps(input, access, true));
  }

  private *steps(input: string, access: Access, probe: boolean): FsSteps<ResolvedPath> {
    const raw = validateInput(input);
    const lexical = expandInput(raw, this.inputs);
    const canon = (probe ? yield* this.downFromRoot(lexical) : undefined) ?? (yield* canonicalSteps(lexical, raw, probe));
    // The same string needs no second look (a missing path under the root is canonical as typed).
    const hit: DenyHit | undefined = this.deny.match(canon.abs) ?? (lexical === canon.abs ? undefined : this.deny.match(lexical));
    if (hit) throw deniedError(raw, canon.abs, hit);
    const root = this.rootOf(canon.abs, false);
    if (!root && this.config.workspaceOnly) throw this.boundaryError(raw, lexical, canon.abs);
    const base = root ?? path.parse(canon.abs).root;
    const resolved: ResolvedPath = { abs: canon.abs, root: base, rel: relativeSlash(base, canon.abs), input: raw, exists: canon.exists };
    // Deleted since realpath saw it: report it as missing rather than fail.
    let st: fs.Stats | undefined;
    if (canon.exists) {
      try {
        st = yield* lstatOf(canon.abs);
      } catch {
        st = undefined;
      }
    }
    if (!st) resolved.exists = false;
    else {
      if (access === 'write' && st.isFile() && st.nlink > 1) throw hardLinkError(canon.abs, st.nlink);
      recordIdentity(resolved, st);
    }
    return resolved;
  }

  /**
   * canonicalSteps' answer for a path inside a canonical root, found from the root down: each name
   * below the root is looked at once (lstat), and the walk ends at the first missing one — nothing
   * beneath it exists, so the path is canonical as typed. Undefined (and canonicalSteps decides)
   * when a name on the way is a link, an error other than a missing name, the root ignores case
   * (realpath would restore the on-disk case) or the platform's separator is not `/`. A missing
   * write target three folders below a missing folder costs one lstat here, not four and a realpath.
   */
  private *downFromRoot(lexical: string): FsSteps<{ abs: string; exists: boolean } | undefined> {
    if (path.sep !== '/') return undefined;
    let root: Root | undefined;
    for (const r of this.all) if (isWithin(r.real, lexical, false) && (!root || r.real.length > root.real.length)) root = r;
    if (!root || root.nocase) return undefined;
    let at = root.real.length + (root.real.endsWith('/') ? 0 : 1);
    while (at <= lexical.length) {
      const slash = lexical.indexOf('/', at);
      const end = slash < 0 ? lexical.length : slash;
      let st: fs.Stats | undefined;
      try {
        st = yield* lstatOf(lexical.slice(0, end));
      } catch {
        return undefined;
      }
      if (!st) return { abs: lexical, exists: false };
      if (st.isSymbolicLink()) return undefined;
      if (end === lexical.length) return { abs: lexical, exists: true };
      // A file with names below it: nothing there exists (ENOTDIR), as canonicalSteps finds bottom-up.
      if (!st.isDirectory()) return { abs: lexical, exists: false };
      at = end + 1;
    }
    return undefined; // the root itself: realpath says whether it is still there
  }

  isDenied(abs: string): boolean {
    // Walkers ask about every entry with a path that is already absolute and clean; resolving it
    // again (a no-op for such a path) was a fifth of glob's time on a large tree.
    return this.deny.match(isCleanAbsolute(abs) ? abs : path.resolve(abs)) !== undefined;
  }

  /**
   * isDenied for an entry a walker listed: `abs` is the canonical path of a folder that isDenied (or
   * resolve) cleared, a separator and a name from its listing. Every ancestor of `abs` is then known
   * clear, so only the entry itself is matched against the rules (the same answer as isDenied, at a
   * fraction of the cost on deep trees).
   */
  isDeniedEntry(abs: string): boolean {
    return this.deny.match(abs, true) !== undefined;
  }

  /** The innermost canonical root holding `abs` (or, with `given`, holding it as typed). */
  private rootOf(abs: string, given: boolean): string | undefined {
    let best: string | undefined;
    for (const r of this.all) {
      const hold = isWithin(r.real, abs, r.nocase) || (given && isWithin(r.given, abs, r.nocase));
      if (hold && (best === undefined || r.real.length > best.length)) best = r.real;
    }
    return best;
  }

  private boundaryError(raw: string, lexical: string, abs: string): PathError {
    return this.rootOf(lexical, true) ? symlinkEscapeError(raw, abs) : outsideError(raw, abs, this.roots);
  }
}

function expandTilde(p: string, home: string): string {
  if (p === '~') return home;
  return p.startsWith('~/') || p.startsWith('~\\') ? path.join(home, p.slice(2)) : p;
}
