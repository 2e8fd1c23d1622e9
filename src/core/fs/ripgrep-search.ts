// One grep call through ripgrep: the command line, the stream of events into the collector, denied
// files dropped on the way (rg was told to skip them; this is the second line of defence), and rg's
// complaints turned into something the model can act on.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GrepCollector, GrepQuery } from './grep-collect';
import { byteToCharIndex } from './grep-collect';
import { GitignoreCheck } from './grep-ignore-check';
import { ripgrepArgs } from './ripgrep-args';
import { runRipgrep, type RunRipgrepOutcome } from './ripgrep-run';
import { planShards } from './ripgrep-shards';
import type { WorkspaceFs } from './types';

export interface RipgrepSearchOptions {
  rgPath: string;
  root: string;
  /** The file or directory to search (canonical, inside root). */
  target: string;
  query: GrepQuery;
  denyGlobs: readonly string[];
  isDenied(abs: string): boolean;
  collector: GrepCollector;
  signal: AbortSignal;
  deadline?: number;
  onSpawn?(pid: number): void;
  /** A directory search split over this many rg processes where the tree allows (ripgrep-shards.ts); the port reads the .gitignore files that weigh its folders. */
  split?: { fs: WorkspaceFs; processes: number };
}

export interface RipgrepSearchOutcome {
  end: RunRipgrepOutcome['end'];
  /** A message about the pattern itself (it does not compile): the call failed. */
  patternError?: string;
  /** Other complaints (unreadable files) when something was found anyway. */
  warning?: string;
  deniedFiles: number;
  /** The file rg was named holds a NUL byte past the part looksBinary reads: rg printed none of it. */
  binaryFile: boolean;
  /** rg processes the search was split over (ripgrep-shards.ts). */
  processes: number;
}

// rg's words for a pattern it cannot use, in its two engines, across versions.
const PATTERN_ERROR = /regex parse error|error parsing regex|PCRE2|not allowed in a regex|look-?around|backreferences|unclosed|unopened|repetition|compiled regex exceeds/i;

function firstLines(text: string, n: number): string {
  return text.trim().split('\n').slice(0, n).join('\n');
}

export async function searchWithRipgrep(o: RipgrepSearchOptions): Promise<RipgrepSearchOutcome> {
  const relTarget = path.relative(o.root, o.target).split(path.sep).join('/');
  const shards = o.split && (await planShards({ fs: o.split.fs, root: o.root, relTarget, includeIgnored: o.query.includeIgnored, shards: o.split.processes, sep: path.sep }));
  // A range's exclusions are deny globs of its own: they come after the model's glob, which cannot re-include them.
  const [first, ...more] = (shards ?? [[]]).map((range) => ripgrepArgs({ query: o.query, target: relTarget || '.', denyGlobs: [...o.denyGlobs, ...range] }));
  let skipping = false;
  let deniedFiles = 0;
  let binaryFile = false;
  // rg's -g re-includes ignored files a path glob names (name globs go in as a file type, which
  // does not); a folder the model named is searched whole, as rg does, so it needs no check.
  const g = o.query.glob?.trim();
  const recheck = g && !g.startsWith('!') && g.includes('/') && !o.query.includeIgnored ? new GitignoreCheck(o.root) : undefined;
  const checkIgnored = recheck && relTarget && recheck.ignored(relTarget, true) ? undefined : recheck;
  const c = o.collector;
  const rootPrefix = o.root.endsWith(path.sep) ? o.root : o.root + path.sep;
  const outcome = await runRipgrep({
    rgPath: o.rgPath, args: first, moreArgs: more, cwd: o.root, signal: o.signal, deadline: o.deadline, onSpawn: o.onSpawn,
    onEvent(ev) {
      switch (ev.type) {
        case 'begin': {
          const rel = ev.path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
          // A plain concatenation: rg's paths have no `.` or `..` parts, and isDenied cleans any path that is not clean.
          skipping = o.isDenied(rootPrefix + rel);
          if (skipping) deniedFiles++;
          else skipping = checkIgnored?.ignored(rel) ?? false;
          if (!skipping) c.beginFile(rel);
          return true;
        }
        case 'match':
          return skipping || c.addMatch(ev.line, ev.text, () => byteToCharIndex(ev.text, ev.atByte));
        case 'context':
          return skipping || c.addContext(ev.line, ev.text);
        case 'end':
          if (!skipping) c.endFile();
          skipping = false;
          return true;
        case 'binary':
          binaryFile = true;
          return true;
      }
    },
  });
  const result: RipgrepSearchOutcome = { end: outcome.end, deniedFiles, binaryFile, processes: 1 + more.length };
  if (outcome.end === 'done' && outcome.exitCode === 2 && outcome.stderr) {
    if (c.matches === 0 && PATTERN_ERROR.test(outcome.stderr)) result.patternError = firstLines(outcome.stderr, 8);
    else result.warning = firstLines(outcome.stderr, 3);
  }
  if (outcome.end === 'spawn-error') result.warning = outcome.stderr;
  return result;
}

/**
 * rg searches a file it is named explicitly even when it is binary (it only skips binary files it
 * finds on its own); grep skips them all. Same test as rg: a NUL byte, here in the first 8 KB.
 */
export async function looksBinary(abs: string): Promise<boolean> {
  let fh: fs.promises.FileHandle | undefined;
  try {
    fh = await fs.promises.open(abs, 'r');
    const buf = Buffer.alloc(8192);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).includes(0);
  } catch {
    return false;
  } finally {
    await fh?.close();
  }
}
