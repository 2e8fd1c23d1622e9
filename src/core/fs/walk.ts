// The in-process directory walk behind glob: directory listings only (their entries carry their
// type, so there is no stat per file), read in batches (readDirectories in one call where the port
// has it, else a few readDirectory calls at a time), denied paths invisible, ignored directories
// never entered, and symlinks followed only when the guard says they stay inside the boundary.
// Each directory is read once for real and at most once more through links, so link loops end and
// a fan of links cannot make the walk explode. The walk gives the event loop a turn every few
// milliseconds, so a large tree never freezes the host.
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
  /** Directories read at a time when the port has no readDirectories (one call each). */
  concurrency?: number;
  /** Milliseconds of walking between turns of the event loop (tests use 0). */
  sliceMs?: number;
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

type Entries = [name: string, type: FileStat['type']][];

/**
 * Directories listed per readDirectories call: at least BATCH, and when the queue is long, half of it
 * up to MAX_BATCH, since every call is a message to a listing thread and back (on a busy machine
 * each wake-up can cost a context switch); small enough that handling one batch takes about a slice.
 */
const BATCH = 32;
const MAX_BATCH = 256;
/** Batches being read at once: one handled while the next is read. */
const BATCHES_IN_FLIGHT = 2;
const SLICE_MS = 8;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

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

  /** The entries of one listed directory; `rules` already include its own .gitignore. */
  const visit = async (task: DirTask, entries: Entries, rules: IgnoreRules | undefined): Promise<void> => {
    const prefix = task.abs.endsWith(sep) ? task.abs : task.abs + sep;
    const relPrefix = task.rel ? `${task.rel}/` : '';
    const rootRelPrefix = task.rootRel ? `${task.rootRel}/` : '';
    for (const [name, entryType] of entries) {
      if (name === '.git') continue;
      const rel = relPrefix + name;
      // Regular files the caller does not want are dropped before the costlier checks.
      if (entryType === 'file' && opts.accept && !opts.accept(rel, name)) continue;
      let abs = prefix + name;
      // Every queued folder was cleared (the base below, the rest here or through followLink).
      if (deniedEntry(abs)) continue;
      let type = entryType;
      if (type === 'symlink') {
        const link = await followLink(task, abs);
        if (!link) { stats.skippedLinks++; continue; }
        abs = link.abs;
        type = link.type;
        if (type === 'file' && opts.accept && !opts.accept(rel, name)) continue;
      }
      if (type !== 'file' && type !== 'directory') continue;
      const rootRel = rootRelPrefix + name;
      if (rules && ((type === 'directory' && ALWAYS_SKIPPED_DIRS.has(name)) || rules.ignores(rootRel, type === 'directory', name))) {
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

  const guard = opts.guard;
  const deniedEntry = guard.isDeniedEntry ? (abs: string) => guard.isDeniedEntry!(abs) : (abs: string) => guard.isDenied(abs);
  // The base is checked whole, so each entry only needs its own name checked.
  if (guard.isDenied(opts.base)) return stats;
  const fsPort = opts.fs;
  const readBatch = fsPort.readDirectories
    ? (dirs: string[]) => (fsPort.readDirectories as NonNullable<WorkspaceFs['readDirectories']>).call(fsPort, dirs).catch(() => dirs.map(() => undefined))
    : (dirs: string[]) => Promise.all(dirs.map((d) => fsPort.readDirectory(d).catch(() => undefined)));
  const batchSize = fsPort.readDirectories ? BATCH : Math.ceil(Math.max(1, opts.concurrency ?? 8) / BATCHES_IN_FLIGHT);
  const sliceMs = opts.sliceMs ?? SLICE_MS;
  let sliceStart = performance.now();

  /** Reads the next batch (and its .gitignore files); started before the previous batch is handled, so I/O overlaps. */
  const startBatch = async (): Promise<{ batch: DirTask[]; listings: (Entries | undefined)[]; ignoreTexts: (string | undefined)[] }> => {
    // From the end of the queue: depth first, so the queue stays short.
    const take = fsPort.readDirectories ? Math.min(MAX_BATCH, Math.max(batchSize, Math.ceil(queue.length / BATCHES_IN_FLIGHT))) : batchSize;
    const batch = queue.splice(Math.max(0, queue.length - take));
    const listings = await readBatch(batch.map((t) => t.abs));
    // The batch's .gitignore files are read together: they are small and the reads overlap.
    const ignoreTexts = await Promise.all(batch.map((t, i) => {
      const hasIgnore = t.rules && listings[i]?.some(([name, type]) => name === '.gitignore' && type === 'file');
      return hasIgnore ? readGitignore(fsPort, t.abs, sep) : undefined;
    }));
    return { batch, listings, ignoreTexts };
  };

  const inFlight: ReturnType<typeof startBatch>[] = [];
  const fill = (): void => {
    while (inFlight.length < BATCHES_IN_FLIGHT && queue.length && !halted()) inFlight.push(startBatch());
  };
  fill();
  while (inFlight.length) {
    const { batch, listings, ignoreTexts } = await (inFlight.shift() as ReturnType<typeof startBatch>);
    fill();
    for (let i = 0; i < batch.length && !halted(); i++) {
      const entries = listings[i];
      if (!entries) { stats.unreadable++; continue; }
      stats.dirs++;
      const text = ignoreTexts[i];
      const task = batch[i];
      await visit(task, entries, task.rules && text !== undefined ? task.rules.with(task.rootRel, text) : task.rules);
    }
    fill();
    if (performance.now() - sliceStart >= sliceMs) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return stats;
}
