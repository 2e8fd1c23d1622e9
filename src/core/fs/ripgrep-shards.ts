// A directory search split over several rg processes that together print what one would, in the same
// order. grep passes --sort path, for a stable answer and so that the first `limit` matches are the
// first by path; but a sorted rg searches on one thread. Cutting the tree into consecutive ranges of
// that order and giving each range to its own rg gets the other cores back: each process is the
// tool's own command line plus exclusion globs (`!/<path>`, anchored at the working directory,
// the search root) that hide everything outside its range. Exclusions only take away, so the ignore
// rules, hidden files and the model's own glob work as before in every range, and the outputs, read
// one after the other (ripgrep-run.ts), are the single rg's output.
//
// rg sorts by name within each directory, comparing bytes, and visits depth first, so a range is:
// some entries of one directory (the split directory), everything that comes before it (first range)
// or after it (last range) on the way down from the target. The split directory is found by listing a
// few directories: while one subdirectory holds most of the entries below a directory, the split moves
// into it. The weights only decide how well the work is balanced, never what is found, so a rough one
// (entries one level down, .gitignored folders left out) is enough; the names, though, must be every
// name rg will see, so the folders on the way are listed from the disk, and a name that cannot be
// written into a glob exactly leaves the search in one process.
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { readGitignore, rulesAbove, type IgnoreRules } from './ignore-rules';
import type { FileStat, WorkspaceFs } from './types';

export interface ShardPlanInput {
  /** For the .gitignore files that weigh the folders (the folders themselves are listed from disk). */
  fs: WorkspaceFs;
  /** Canonical absolute search root (rg's working directory). */
  root: string;
  /** The directory searched, relative to root with forward slashes ('' for the root). */
  relTarget: string;
  includeIgnored: boolean;
  /** Processes wanted (the cores to use); below 2 nothing is planned. */
  shards: number;
  sep: string;
}

type Entry = [name: string, type: FileStat['type']];

/** Directories listed at most while planning. */
const MAX_LISTINGS = 40;
/**
 * Subdirectories listed to weigh them, at most; a wider directory is split by counting its entries
 * (its subdirectories are many, so the share of any one is small anyway).
 */
const MAX_WEIGHED = 12;
/** Levels the split may move down from the target. */
const MAX_DEPTH = 4;
/** A subdirectory with this share of the weight below its directory is split instead. */
const DOMINANT = 0.6;
/** More exclusions than this per process and the search is not split (a very wide directory). */
const MAX_GLOBS = 400;
/**
 * Names written into a glob as they are: nothing a glob reads as syntax, no control characters, and
 * no U+FFFD (what a name that is not UTF-8 reads as here, which would not match the name on disk).
 */
const PLAIN_NAME = /^[^*?[\]{}!\\\x00-\x1f\x7f\uFFFD]+$/;

const byBytes = (a: Entry, b: Entry): number => Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0]));
const join = (dir: string, name: string, sep: string): string => (dir.endsWith(sep) ? dir + name : dir + sep + name);
const relJoin = (rel: string, name: string): string => (rel ? `${rel}/${name}` : name);

interface Level {
  rel: string;
  names: string[];
  /** Index of the entry the plan went down into. */
  at: number;
}

/**
 * How many rg processes a search should use now: one, plus one per core nothing else wants. A range
 * after the first is speculative work (a capped search often ends inside the first), so on a busy
 * machine it would only slow the first range down. On Linux the run queue as it is now
 * (/proc/loadavg's running count, this process included) tells; elsewhere the one-minute load.
 */
export function processesToUse(max: number): number {
  const cores = availableParallelism();
  let busy = loadavg()[0];
  try {
    const running = /\s(\d+)\/\d+\s/.exec(readFileSync('/proc/loadavg', 'latin1'));
    if (running) busy = Number(running[1]) - 1;
  } catch {
    // Not Linux: the load average.
  }
  return Math.max(1, Math.min(max, 1 + Math.floor(cores - 1 - busy)));
}

/**
 * Exclusion globs (`!/a/b`) per process, in output order (the first process's matches come first), or
 * undefined when the search should stay in one process (one core, nothing to split, odd names).
 */
export async function planShards(o: ShardPlanInput): Promise<string[][] | undefined> {
  // The target's own path goes into every glob too.
  if (o.shards < 2 || (o.relTarget && o.relTarget.split('/').some((seg) => !PLAIN_NAME.test(seg)))) return undefined;
  // The disk as rg will read it, not the port: a name the port left out would be excluded from no
  // range and searched by all of them.
  const list = (abs: string): Promise<Entry[] | undefined> => readdir(abs, { withFileTypes: true })
    .then((es) => es.map((e): Entry => [e.name, e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other']), () => undefined);
  let rules: IgnoreRules | undefined = o.includeIgnored ? undefined : (await rulesAbove(o.fs, o.root, o.relTarget, o.sep)).rules;
  const levels: Level[] = [];
  let rel = o.relTarget;
  let abs = o.relTarget ? join(o.root, o.relTarget.split('/').join(o.sep), o.sep) : o.root;
  let before = 0;
  let after = 0;
  let listings = 0;
  for (let depth = 0; depth <= MAX_DEPTH; depth++) {
    const entries = await list(abs);
    listings++;
    if (!entries || entries.some(([name]) => !PLAIN_NAME.test(name))) return undefined;
    entries.sort(byBytes);
    if (rules && entries.some(([name, type]) => name === '.gitignore' && type === 'file')) {
      const text = await readGitignore(o.fs, abs, o.sep);
      if (text !== undefined) rules = rules.with(rel, text);
    }
    const searched = (i: number): boolean => {
      const [name, type] = entries[i];
      return name !== '.git' && !rules?.ignores(relJoin(rel, name), type === 'directory', name);
    };
    const weights: number[] = entries.map((e, i) => (searched(i) ? 1 : 0));
    const dirs = entries.flatMap((e, i) => (e[1] === 'directory' && weights[i] ? [i] : []));
    if (!dirs.length) return undefined;
    if (dirs.length <= MAX_WEIGHED && listings + dirs.length <= MAX_LISTINGS) {
      const below = await Promise.all(dirs.map((i) => list(join(abs, entries[i][0], o.sep))));
      listings += dirs.length;
      dirs.forEach((i, k) => { weights[i] = Math.max(1, below[k]?.length ?? 0); });
    }
    const total = weights.reduce((a, b) => a + b, 0);
    const heaviest = dirs.reduce((best, i) => (weights[i] > weights[best] ? i : best), dirs[0]);
    if (depth < MAX_DEPTH && (dirs.length === 1 || weights[heaviest] >= DOMINANT * total)) {
      levels.push({ rel, names: entries.map((e) => e[0]), at: heaviest });
      for (let i = 0; i < entries.length; i++) if (i < heaviest) before += weights[i]; else if (i > heaviest) after += weights[i];
      rel = relJoin(rel, entries[heaviest][0]);
      abs = join(abs, entries[heaviest][0], o.sep);
      continue;
    }
    return globsFor(levels, rel, entries.map((e) => e[0]), cuts(weights, before, after, o.shards));
  }
  return undefined;
}

/**
 * Where each range after the first begins among the split directory's entries: the weight before
 * the directory, its entries' weights and the weight after it, cut into `shards` near-equal parts.
 */
function cuts(weights: number[], before: number, after: number, shards: number): number[] {
  const total = before + after + weights.reduce((a, b) => a + b, 0);
  const out: number[] = [];
  let sum = before;
  for (let i = 0; i < weights.length && out.length < shards - 1; i++) {
    const share = (total * (out.length + 1)) / shards;
    // Cut before entry i when that leaves the running sum nearer the share than taking i in would.
    if (i > 0 && sum > 0 && Math.abs(sum - share) < Math.abs(sum + weights[i] - share)) out.push(i);
    sum += weights[i];
  }
  return out;
}

function globsFor(levels: Level[], splitRel: string, names: string[], starts: number[]): string[][] | undefined {
  if (!starts.length) return undefined;
  const bounds = [0, ...starts, names.length];
  const exclude = (rel: string, name: string): string => `!/${relJoin(rel, name)}`;
  const shards: string[][] = [];
  for (let s = 0; s + 1 < bounds.length; s++) {
    const first = s === 0;
    const last = s + 2 === bounds.length;
    const globs: string[] = [];
    for (const level of levels) {
      level.names.forEach((name, i) => {
        if ((i < level.at && !first) || (i > level.at && !last)) globs.push(exclude(level.rel, name));
      });
    }
    names.forEach((name, i) => {
      if (i < bounds[s] || i >= bounds[s + 1]) globs.push(exclude(splitRel, name));
    });
    if (globs.length > MAX_GLOBS) return undefined;
    shards.push(globs);
  }
  return shards;
}
