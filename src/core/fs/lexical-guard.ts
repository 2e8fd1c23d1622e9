// The path resolver for virtual workspaces (virtual-folders.ts): folders served by a
// FileSystemProvider, addressed by synthetic POSIX roots. There is no local disk behind them, so
// this guard is LEXICAL ONLY: no realpath, no symlink or hard-link checks, no descriptor identity,
// because none of those exist for a URI. What it decides it decides on the text of the path:
// - backslashes are separators here (a provider may serve a Windows share, where `..\x` climbs);
// - `.` and `..` are resolved lexically, and the result must stay inside one folder's root;
// - absolute paths are allowed only inside a root; drive letters, UNC paths, `~` and URIs are refused
//   (they name the local disk or another place, never this workspace);
// - a segment that percent-decodes to `.`, `..` or something holding a separator is refused, since a
//   provider that maps names into URLs (a GitHub API path) might decode it;
// - deny rules are the configured pincer.fs.denyPaths (relative globs, matched without regard to
//   case, since a provider's case rules are unknown); absolute deny entries name local places and
//   cannot match a synthetic path, so they are left out.
// Existence comes from the WorkspaceFs port (a stat through the provider).
import * as path from 'node:path';
import { DenyRules } from './path-deny';
import { validateInput } from './path-input';
import { deniedError } from './path-messages';
import { PathError, type Access, type PathResolver, type ResolvedPath, type WorkspaceFs } from './types';
import type { VirtualFolder } from './virtual-folders';

export interface LexicalGuardConfig {
  /** The virtual folders, the primary first (relative paths are relative to it). */
  folders: readonly VirtualFolder[];
  /** pincer.fs.denyPaths. */
  denyPaths: readonly string[];
  fs: Pick<WorkspaceFs, 'stat'>;
}

const shown = (s: string) => JSON.stringify(s.length > 200 ? `${s.slice(0, 200)}…` : s);
const invalid = (m: string) => new PathError(m, 'invalid');

/** Normalised, without a trailing slash (but `/` stays `/`). */
function clean(p: string): string {
  const n = path.posix.normalize(p);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

function decodedOnce(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export class LexicalPathGuard implements PathResolver {
  readonly roots: readonly string[];
  private readonly deny: DenyRules;

  constructor(private readonly config: LexicalGuardConfig) {
    this.roots = config.folders.map((f) => f.root);
    const relative = config.denyPaths.filter((d) => !path.posix.isAbsolute(d.trim()) && !/^[~\\]|^[a-z]:/i.test(d.trim()));
    this.deny = new DenyRules(relative, [], '/', this.roots.map((root) => ({ root, nocase: true })));
  }

  async resolve(input: string, _access: Access): Promise<ResolvedPath> {
    const raw = validateInput(input);
    const abs = await this.expand(raw);
    const root = this.rootOf(abs);
    if (!root) throw this.outside(raw, abs);
    const hit = this.deny.match(abs);
    if (hit) throw deniedError(raw, abs, hit);
    const rel = abs === root ? '' : abs.slice(root.length + 1);
    return { abs, root, rel, input: raw, exists: (await this.config.fs.stat(abs)) !== undefined };
  }

  isDenied(abs: string): boolean {
    const p = clean(abs.replace(/\\/g, '/'));
    return !this.rootOf(p) || this.deny.match(p) !== undefined;
  }

  /** `raw` as an absolute, normalised synthetic path (not yet checked against the roots). */
  private async expand(raw: string): Promise<string> {
    let p = this.refuseElsewhere(raw);
    if (path.posix.isAbsolute(p)) return clean(p);
    if (!this.roots.length) throw invalid(`${shown(raw)} is relative, but no workspace folder is open.`);
    const primary = this.roots[0];
    const first = p.split('/')[0];
    // `@src/a.ts` is a mention of src/a.ts, unless the folder really has an `@src`.
    if (p.startsWith('@') && p.length > 1 && !(await this.has(primary, first))) return this.expand(p.slice(1));
    // `proj-b/src/a.ts` in a multi-root workspace names the folder `proj-b`, unless the primary folder has a `proj-b`.
    const named = first === '.' || first === '..' ? -1 : this.config.folders.findIndex((f) => f.name === first);
    if (named >= 0 && !(await this.has(primary, first))) p = `${this.roots[named]}/${p.slice(first.length)}`;
    else p = `${primary}/${p}`;
    return clean(p);
  }

  /** Slashes for backslashes; refuses what can only name another place than this workspace. */
  private refuseElsewhere(raw: string): string {
    const p = raw.replace(/\\/g, '/');
    if (/^[a-z][a-z0-9+.-]+:\//i.test(p)) {
      throw invalid(`${shown(raw)} is a URI; give a path inside the workspace folder (${this.roots.join(', ')}), such as "src/index.ts".`);
    }
    if (/^[a-z]:/i.test(p) || p.startsWith('//')) throw this.outside(raw, p);
    if (p === '~' || p.startsWith('~/')) throw invalid(`${shown(raw)} names a home folder, which a virtual workspace has none of; give a path inside ${this.roots.join(', ')}.`);
    for (const seg of p.split('/')) {
      if (!seg.includes('%')) continue;
      const d = decodedOnce(seg);
      if (d === '.' || d === '..' || /[/\\]/.test(d)) throw invalid(`${shown(raw)} holds the percent-encoded segment ${shown(seg)}; give the path with plain characters.`);
    }
    return p;
  }

  private async has(dir: string, name: string): Promise<boolean> {
    return (await this.config.fs.stat(`${dir}/${name}`)) !== undefined;
  }

  private rootOf(abs: string): string | undefined {
    return this.roots.find((r) => abs === r || abs.startsWith(`${r}/`));
  }

  private outside(raw: string, abs: string): PathError {
    return new PathError(
      `${shown(raw)}${raw === abs ? '' : ` (${abs})`} is outside the workspace (${this.roots.join(', ') || 'no folder is open'}). `
        + 'This is a virtual workspace (its folders are served by a file system provider, not the local disk): only paths inside its folders can be used.',
      'outside',
    );
  }
}
