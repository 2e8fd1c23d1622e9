// The in-process directory walk behind glob: readDirectory only (its entries carry their type, so
// there is no stat per file), a few directories read at a time, denied paths invisible, ignored
// directories never entered, and symlinks followed only when they stay inside the boundary. Each
// directory is read once for real and at most once more through links, so link loops end and a
// fan of links cannot make the walk explode.
import * as nodePath from 'node:path';
import { ALWAYS_SKIPPED_DIRS, IgnoreRules, readGitignore } from './ignore-rules';
import type { FileStat, PathResolver, WorkspaceFs } from './types';

export interface WalkFile {
  /** Relative to the walk's base directory, forward slashes (the path a glob pattern is matched against). */
  rel: string;
  /** Relative to the workspace root the base belongs to. */
  rootRel: string;
  /** Canonical absolute path (through links followed on the way). */
  abs: string;
}

export interface WalkOptions {
  fs: WorkspaceFs;
  guard: PathResolver;
  /** Canonical absolute path of the directory to walk. */
  base: string;
  /** `base` relative to its workspace root ('' for the root itself). */
  baseRootRel: string;
  /** Rules from the .gitignore files above `base`; undefined walks without any ignore rules. */
  ignore?: IgnoreRules;
  signal?: AbortSignal;
  /** Whether a directory (relative to base) can hold matches; false prunes it. */
  descend?: (rel: string) => boolean;
  /**
   * A cheap test on a file's path (relative to base) made before the deny and ignore checks, so
   * files that cannot match cost nothing more. Files it rejects are never passed to onFile.
   */
  accept?: (rel: string, name: string) => boolean;
  /** Called for every visible file; return false to stop the walk. */
  onFile: (file: WalkFile) => boolean | void;
  /** Directories read at a time. */
  concurrency?: number;
  /** Path separator of the file system (path.sep by default). */
  sep?: string;
}

export interface WalkStats {
  dirs: number;
  files: number;
  /** Entries hidden by .gitignore or by the node_modules rule. */
  ignored: number;
  /** Symlinks not followed: leaving the boundary, dangling, or back into a directory already walked. */
  skippedLinks: number;
  /** Directories that could not be read (permissions, removed while walking). */
  unreadable: number;
  aborted: boolean;
  stopped: boolean;
}

interface DirTask {
  abs: string;
  rel: string;
  rootRel: string;
  rules: IgnoreRules | undefined;
  /** The directory this one was reached from, for the link-cycle check. */
  parent: DirTask | undefined;
}

function isInside(dir: string, maybeAncestor: string, sep: string): boolean {
  return dir === maybeAncestor || dir.startsWith(maybeAncestor.endsWith(sep) ? maybeAncestor : maybeAncestor + sep);
}

export async function walk(opts: WalkOptions): Promise<WalkStats> {
  const sep = opts.sep ?? nodePath.sep;
  const stats: WalkStats = { dirs: 0, files: 0, ignored: 0, skippedLinks: 0, unreadable: 0, aborted: false, stopped: false };
  const linkTargets = new Set<string>();
  const queue: DirTask[] = [{ abs: opts.base, rel: '', rootRel: opts.baseRootRel, rules: opts.ignore, parent: undefined }];
  const halted = (): boolean => {
    if (opts.signal?.aborted) stats.aborted = true;
    return stats.aborted || stats.stopped;
  };

  /** Where a symlink leads, if it may be followed: inside the boundary, not denied, existing. */
  const followLink = async (task: DirTask, abs: string): Promise<{ abs: string; type: FileStat['type'] } | undefined> => {
    try {
      const target = await opts.guard.resolve(abs, 'list');
      if (!target.exists || opts.guard.isDenied(target.abs)) return undefined;
      const st = await opts.fs.stat(target.abs);
      if (!st || (st.type !== 'file' && st.type !== 'directory')) return undefined;
      if (st.type === 'directory') {
        for (let t: DirTask | undefined = task; t; t = t.parent) if (isInside(t.abs, target.abs, sep)) return undefined;
        if (linkTargets.has(target.abs)) return undefined;
        linkTargets.add(target.abs);
      }
      return { abs: target.abs, type: st.type };
    } catch {
      return undefined;
    }
  };

  const visit = async (task: DirTask): Promise<void> => {
    let entries: [string, FileStat['type']][];
    try {
      entries = await opts.fs.readDirectory(task.abs);
    } catch {
      stats.unreadable++;
      return;
    }
    stats.dirs++;
    let rules = task.rules;
    if (rules && entries.some(([name, type]) => name === '.gitignore' && type === 'file')) {
      const content = await readGitignore(opts.fs, task.abs, sep);
      if (content !== undefined) rules = rules.with(task.rootRel, content);
    }
    const prefix = task.abs.endsWith(sep) ? task.abs : task.abs + sep;
    for (const [name, entryType] of entries) {
      if (halted()) return;
      if (name === '.git') continue;
      const rel = task.rel ? `${task.rel}/${name}` : name;
      // Regular files the caller does not want are dropped before the costlier checks.
      if (entryType === 'file' && opts.accept && !opts.accept(rel, name)) continue;
      let abs = prefix + name;
      if (opts.guard.isDenied(abs)) continue;
      let type = entryType;
      if (type === 'symlink') {
        const link = await followLink(task, abs);
        if (!link) { stats.skippedLinks++; continue; }
        abs = link.abs;
        type = link.type;
      }
      if (type !== 'file' && type !== 'directory') continue;
      if (entryType === 'symlink' && type === 'file' && opts.accept && !opts.accept(rel, name)) continue;
      const rootRel = task.rootRel ? `${task.rootRel}/${name}` : name;
      if (rules && ((type === 'directory' && ALWAYS_SKIPPED_DIRS.has(name)) || rules.ignores(rootRel, type === 'directory'))) {
        stats.ignored++;
        continue;
      }
      if (type === 'directory') {
        if (!opts.descend || opts.descend(rel)) queue.push({ abs, rel, rootRel, rules, parent: task });
      } else {
        stats.files++;
        if (opts.onFile({ rel, rootRel, abs }) === false) { stats.stopped = true; return; }
      }
    }
  };

  const limit = Math.max(1, opts.concurrency ?? 8);
  await new Promise<void>((resolve, reject) => {
    let active = 0;
    const pump = (): void => {
      if (halted()) queue.length = 0;
      while (active < limit && queue.length) {
        const task = queue.pop() as DirTask;
        active++;
        visit(task).then(() => { active--; pump(); }, (e: unknown) => { stats.stopped = true; reject(e); });
      }
      if (active === 0 && queue.length === 0) resolve();
    };
    pump();
  });
  return stats;
}
