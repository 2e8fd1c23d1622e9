// For ripgrep with a path glob (`src/**`): rg treats a -g glob as a whitelist that overrides
// .gitignore for the files it names, so a file ignored by name (`secret.js`, `*.log`) would be
// searched. Ignored folders are still skipped by rg, so only those files need this second look: each
// file rg reports is checked against the .gitignore and .ignore files from the root down to it.
// Synchronous reads, cached per folder: rg only runs on a local disk, and only folders holding
// matches are read.
import ignore from 'ignore';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isIgnored, type IgnoreLevel } from './grep-walk';

const IGNORE_FILES = ['.gitignore', '.ignore'];

export class GitignoreCheck {
  private readonly cache = new Map<string, IgnoreLevel | null>();

  constructor(private readonly root: string) {}

  private level(base: string): IgnoreLevel | null {
    const cached = this.cache.get(base);
    if (cached !== undefined) return cached;
    let ig: ReturnType<typeof ignore> | undefined;
    for (const name of IGNORE_FILES) {
      try {
        const text = fs.readFileSync(path.join(this.root, base, name), 'utf8');
        ig = (ig ?? ignore()).add(text);
      } catch {
        // No such file (or unreadable): hides nothing.
      }
    }
    const lv = ig ? { base, ig } : null;
    this.cache.set(base, lv);
    return lv;
  }

  /** Whether `rel` (root-relative, forward slashes) is ignored by the ignore files above it. */
  ignored(rel: string, isDir = false): boolean {
    const parts = rel.split('/');
    const levels: IgnoreLevel[] = [];
    for (let i = 0; i < parts.length; i++) {
      const lv = this.level(parts.slice(0, i).join('/'));
      if (lv) levels.push(lv);
    }
    return isIgnored(levels, rel, isDir);
  }
}
