// .gitignore semantics for the walkers (glob, and grep's filters): every .gitignore from the
// workspace root down to a directory applies to it, the deepest file that has a say wins (so a nested
// `!keep.log` re-includes what the root ignored), and a path is tested relative to the directory of
// the .gitignore that holds the pattern. An ignored directory is never entered, as in git: a file
// inside it cannot be re-included.
import ignore, { type Ignore } from 'ignore';
import type { WorkspaceFs } from './types';

/** Git on Linux compares case-sensitively; on macOS and Windows it defaults to core.ignorecase. */
const IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32';

/** Directories no walk enters unless asked: dependency trees and git internals. */
export const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git']);

interface Level {
  /** Directory of the .gitignore relative to the workspace root, with a trailing '/'; '' for the root. */
  prefix: string;
  rules: Ignore;
  /**
   * Verdicts by entry name, when every pattern of the file is slash-free (`*.log`, `dist/`): such a
   * pattern matches by name at any depth, so one test per distinct name serves the whole tree.
   * 0 no rule applies, 1 ignored, 2 re-included.
   */
  byName?: Map<string, number>;
}

const NAME_CACHE_MAX = 100_000;

/** Whether a pattern matches on the entry's name alone (no slash but a trailing one). */
function matchesByName(content: string): boolean {
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const body = line.replace(/^\\?!/, '').replace(/\/$/, '');
    if (body.includes('/')) return false;
  }
  return true;
}

function verdict(rules: Ignore, path: string): number {
  const r = rules.test(path);
  return r.ignored ? 1 : r.unignored ? 2 : 0;
}

/** The .gitignore levels that apply to a directory, root first. Immutable: sibling walks share them. */
export class IgnoreRules {
  private constructor(private readonly levels: readonly Level[]) {}

  static none(): IgnoreRules {
    return new IgnoreRules([]);
  }

  /** The rules with a .gitignore found in `baseRel` added (deeper than every level so far). */
  with(baseRel: string, content: string): IgnoreRules {
    const rules = ignore({ ignorecase: IGNORE_CASE, allowRelativePaths: true }).add(content);
    const level: Level = { prefix: baseRel ? `${baseRel}/` : '', rules, byName: matchesByName(content) ? new Map() : undefined };
    return new IgnoreRules([...this.levels, level]);
  }

  /**
   * Whether `rel` (relative to the workspace root, forward slashes) is ignored. Walkers pass the
   * entry's `name` (the last segment of `rel`) to spare a slice per call.
   */
  ignores(rel: string, isDir: boolean, name?: string): boolean {
    let key: string | undefined;
    for (let i = this.levels.length - 1; i >= 0; i--) {
      const level = this.levels[i];
      if (rel.length <= level.prefix.length || (level.prefix && !rel.startsWith(level.prefix))) continue;
      let v: number;
      if (level.byName) {
        key ??= (isDir ? '/' : '') + (name ?? rel.slice(rel.lastIndexOf('/') + 1));
        let cached = level.byName.get(key);
        if (cached === undefined) {
          cached = verdict(level.rules, isDir ? key.slice(1) + '/' : key);
          if (level.byName.size >= NAME_CACHE_MAX) level.byName.clear();
          level.byName.set(key, cached);
        }
        v = cached;
      } else {
        const local = rel.slice(level.prefix.length);
        v = verdict(level.rules, isDir ? local + '/' : local);
      }
      if (v === 1) return true;
      if (v === 2) return false;
    }
    return false;
  }
}

function joinAbs(dir: string, name: string, sep: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** Reads `<dirAbs>/.gitignore` if there is one. */
export async function readGitignore(fs: WorkspaceFs, dirAbs: string, sep: string): Promise<string | undefined> {
  try {
    return Buffer.from(await fs.readFile(joinAbs(dirAbs, '.gitignore', sep))).toString('utf8');
  } catch {
    return undefined;
  }
}

export interface AncestorRules {
  rules: IgnoreRules;
  /** Why the directory itself would be skipped (ignored by a rule, or inside node_modules), if it would. */
  skippedBecause?: string;
}

/**
 * The rules that apply inside `baseRel` (a directory relative to `rootAbs`): the .gitignore files of
 * the root and of each directory on the way down, excluding `baseRel`'s own (the walk reads that).
 */
export async function rulesAbove(fs: WorkspaceFs, rootAbs: string, baseRel: string, sep: string): Promise<AncestorRules> {
  let rules = IgnoreRules.none();
  let skippedBecause: string | undefined;
  const segments = baseRel ? baseRel.split('/') : [];
  let dirAbs = rootAbs;
  let dirRel = '';
  for (const seg of segments) {
    const content = await readGitignore(fs, dirAbs, sep);
    if (content !== undefined) rules = rules.with(dirRel, content);
    dirRel = dirRel ? `${dirRel}/${seg}` : seg;
    dirAbs = joinAbs(dirAbs, seg, sep);
    if (!skippedBecause && ALWAYS_SKIPPED_DIRS.has(seg)) skippedBecause = `it is inside ${seg}/`;
    if (!skippedBecause && rules.ignores(dirRel, true)) skippedBecause = `${dirRel}/ is ignored by .gitignore`;
  }
  return { rules, skippedBecause };
}
