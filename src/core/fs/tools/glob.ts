// glob: files whose path matches a pattern (minimatch semantics), newest first, from an in-process
// walk that skips node_modules, .git and what .gitignore ignores. Listing is cheaper in process than
// spawning ripgrep: no process start, and the directory entries already carry their type.
import { Minimatch } from 'minimatch';
import * as nodePath from 'node:path';
import { z } from 'zod';
import { formatCount } from '../../format-count';
import { defineTool, fail, ok, type Tool, type ToolContext, type ToolResult } from '../../tools/types';
import { isKnownToolError } from '../../tools/known-errors';
import { rulesAbove } from '../ignore-rules';
import { checkedStat } from '../path-open';
import { PathError, type FileStat, type FsToolDeps, type ResolvedPath } from '../types';
import { walk, type WalkFile } from '../walk';

export const GLOB_DEFAULT_LIMIT = 1000;
/** Stats in flight while ordering matches by modification time, on a port without statMany. */
const STAT_CONCURRENCY = 32;
/** Matches per statMany call: sent as the walk finds them, so the stats run beside it. */
const STAT_CHUNK = 1024;

// The fields are getters: zod builds them when the schema is first used (a call's arguments, a listing),
// not when the runtime loads; the schema, its JSON Schema and its errors are the same.
const parameters = z.object({
  get pattern() {
    return z.string().min(1).describe('Glob pattern relative to `path`, e.g. "**/*.ts", "src/**", "*.{js,ts}", "**/test_*.py".');
  },
  get path() {
    return z.string().min(1).optional().describe('Directory to search in. Default: the workspace root.');
  },
  get limit() {
    return z.number().int().min(1).optional().describe(`Maximum paths to return (newest first). Default ${GLOB_DEFAULT_LIMIT}.`);
  },
  get includeIgnored() {
    return z.boolean().optional().describe('Also search node_modules and files ignored by .gitignore. Default false.');
  },
}).strict();

const description =
  'Finds files by name pattern (glob, minimatch syntax: "*" within one directory, "**" across directories, "{a,b}" alternatives). ' +
  'A pattern without "/" matches only directly in `path`: use "**/*.ts" to search every subdirectory. ' +
  'Returns file paths (not directories) newest first, relative to the workspace root. Skips node_modules, .git and files ignored by .gitignore unless includeIgnored is true. ' +
  'To search file contents use grep; to see one directory use list_files.';

const MAGIC = /[*?[\]{}()!+@]/;

/** The leading directories of a pattern that contain no glob syntax: the walk can start there. */
export function splitStaticPrefix(pattern: string): { prefix: string; rest: string } {
  const segs = pattern.split('/');
  let i = 0;
  while (i < segs.length - 1 && segs[i] !== '' && segs[i] !== '.' && segs[i] !== '..' && !MAGIC.test(segs[i])) i++;
  return { prefix: segs.slice(0, i).join('/'), rest: segs.slice(i).join('/') };
}

/** How a match is shown: relative to the first workspace root (what read_file takes), absolute elsewhere. */
function displayPath(deps: FsToolDeps, base: ResolvedPath, file: WalkFile): string {
  return base.root === deps.guard.roots[0] ? file.rootRel : file.abs;
}

/**
 * Modification times of the matches, asked for while the walk still runs: on a port with statMany,
 * each full chunk of matches is sent as it fills (the stats run beside the walk, see node-fs.ts), the
 * rest when the walk ends; on other ports, a few stats at a time once the walk is done.
 */
class MtimeCollector {
  private readonly chunks: Promise<(FileStat | undefined)[]>[] = [];
  private sent = 0;

  constructor(private readonly deps: FsToolDeps, private readonly files: WalkFile[]) {}

  /** Called as matches are added: sends the next chunk once it is full. */
  added(): void {
    if (this.deps.fs.statMany && this.files.length - this.sent >= STAT_CHUNK) this.send(this.files.length);
  }

  private send(end: number): void {
    const statMany = this.deps.fs.statMany!.bind(this.deps.fs);
    const chunk = statMany(this.files.slice(this.sent, end).map((f) => f.abs));
    // Awaited in mtimes(); a walk that ends in an error never gets there.
    chunk.catch(() => undefined);
    this.chunks.push(chunk);
    this.sent = end;
  }

  async mtimes(signal: AbortSignal): Promise<Float64Array> {
    const out = new Float64Array(this.files.length);
    if (this.deps.fs.statMany) {
      if (this.sent < this.files.length) this.send(this.files.length);
      let at = 0;
      for (const chunk of this.chunks) {
        if (signal.aborted) break;
        const stats = await chunk;
        for (let i = 0; i < stats.length; i++) out[at + i] = stats[i]?.mtime ?? 0;
        at += stats.length;
      }
      return out;
    }
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < this.files.length && !signal.aborted) {
        const i = next++;
        const st = await this.deps.fs.stat(this.files[i].abs).catch(() => undefined);
        out[i] = st?.mtime ?? 0;
      }
    };
    await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, this.files.length) }, worker));
    return out;
  }
}

/** Newest first; equal times by path, so the order is stable from one call to the next. */
async function byNewest(files: WalkFile[], collector: MtimeCollector, signal: AbortSignal): Promise<WalkFile[]> {
  const mtime = await collector.mtimes(signal);
  if (signal.aborted) throw signal.reason ?? new Error('aborted');
  const order = Array.from({ length: files.length }, (_, i) => i);
  order.sort((a, b) => mtime[b] - mtime[a] || (files[a].rootRel < files[b].rootRel ? -1 : files[a].rootRel > files[b].rootRel ? 1 : 0));
  return order.map((i) => files[i]);
}

/**
 * The file test for a pattern. "**\/<name glob>" (the common case) only needs the file name, and a
 * regex on the name is several times cheaper than minimatch's full-path regex with its lookaheads.
 */
export function fileMatcher(rest: string): ((rel: string, name: string) => boolean) | undefined {
  const opts = { dot: true, nocomment: true, nonegate: true } as const;
  const byName = /^\*\*\/([^/]+)$/.exec(rest);
  if (byName && !byName[1].includes('**')) {
    const re = new Minimatch(byName[1], opts).makeRe();
    return re ? (_rel, name) => re.test(name) : undefined;
  }
  const re = new Minimatch(rest, opts).makeRe();
  return re ? (rel) => re.test(rel) : undefined;
}

function normalisePattern(pattern: string, baseAbs: string): string | undefined {
  let p = pattern.replace(/\\/g, '/');
  const base = baseAbs.replace(/\\/g, '/');
  if (p.startsWith(base + '/')) p = p.slice(base.length + 1);
  else if (nodePath.isAbsolute(pattern)) return undefined;
  while (p.startsWith('./')) p = p.slice(2);
  // "src/" asks for what is under src/.
  return p.endsWith('/') ? `${p}**` : p;
}

async function run(deps: FsToolDeps, args: z.infer<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  const limit = args.limit ?? GLOB_DEFAULT_LIMIT;
  const dir = await deps.guard.resolve(args.path ?? '.', 'list');
  // The guard's own lstat, where it took one, spares a second trip to the thread pool.
  const dirStat = checkedStat(dir) ?? (await deps.fs.stat(dir.abs));
  if (!dirStat || dirStat.type !== 'directory') {
    return fail(`${dir.rel || dir.input} is not a directory. Give glob a directory as \`path\` (or omit it for the workspace root).`);
  }
  const pattern = normalisePattern(args.pattern, dir.abs);
  if (pattern === undefined) return fail(`The pattern "${args.pattern}" is an absolute path outside ${dir.rel || dir.abs}; make it relative to \`path\`.`);

  // Start the walk at the pattern's literal directories (src/ in "src/**/*.ts"): one guard check, no wasted reads.
  const { prefix, rest } = splitStaticPrefix(pattern);
  let base = dir;
  if (prefix) {
    try {
      base = await deps.guard.resolve(nodePath.join(dir.abs, prefix), 'list');
    } catch (e) {
      if (e instanceof PathError && e.code !== 'not-found') throw e;
      return ok(`No files match "${args.pattern}": ${prefix}/ does not exist in ${dir.rel || '.'}.`, { details: { count: 0 } });
    }
    const st = checkedStat(base) ?? (await deps.fs.stat(base.abs));
    if (!st) return ok(`No files match "${args.pattern}": ${prefix}/ does not exist in ${dir.rel || '.'}.`, { details: { count: 0 } });
    if (st.type !== 'directory') return ok(`No files match "${args.pattern}": ${prefix} is a file, not a directory.`, { details: { count: 0 } });
  }
  const mm = new Minimatch(rest, { dot: true, nocomment: true, nonegate: true });
  const accept = fileMatcher(rest);
  if (!accept) return fail(`"${args.pattern}" is not a valid glob pattern.`);

  const above = args.includeIgnored ? undefined : await rulesAbove(deps.fs, base.root, base.rel, nodePath.sep);
  // A directory the model names explicitly is searched even if it is ignored: it asked for it.
  const namedIgnored = above?.skippedBecause;
  const rules = above && !namedIgnored ? above.rules : undefined;
  const matches: WalkFile[] = [];
  const collector = new MtimeCollector(deps, matches);
  const stats = await walk({
    fs: deps.fs, guard: deps.guard, base: base.abs, baseRootRel: base.rel, ignore: rules, signal: ctx.signal,
    descend: rest.includes('**') ? undefined : (rel) => mm.match(rel, true),
    accept,
    onFile: (f) => { matches.push(f); collector.added(); },
  });
  if (stats.aborted) throw ctx.signal.reason ?? new Error('aborted');

  const sorted = await byNewest(matches, collector, ctx.signal);
  const shownFiles = sorted.slice(0, limit).map((f) => displayPath(deps, base, f));
  const details = {
    count: sorted.length, shown: shownFiles.length, truncated: sorted.length > limit, files: shownFiles,
    dirsWalked: stats.dirs, ignored: stats.ignored, skippedLinks: stats.skippedLinks, searchedIgnoredDir: namedIgnored,
  };
  const notes: string[] = [];
  if (namedIgnored) notes.push(`[Searched ${base.rel}/ although ${namedIgnored}, because you named it.]`);
  if (sorted.length > limit) notes.push(`[Showing the ${formatCount(limit)} newest of ${formatCount(sorted.length)} matches. Use limit=${sorted.length} to see all, or narrow the pattern or path.]`);
  if (!sorted.length) {
    const where = base.rel || '.';
    const hints: string[] = [];
    if (!rest.includes('/')) hints.push(`a pattern without "/" matches only directly in ${where}; try "**/${rest}"`);
    if (stats.ignored && rules) hints.push(`${stats.ignored} entries were skipped as ignored (node_modules, .gitignore); use includeIgnored: true to search them`);
    return ok(`No files match "${args.pattern}" in ${where}.${hints.length ? ` Hint: ${hints.join('; ')}.` : ''}`, { details });
  }
  return ok([...shownFiles, ...notes].join('\n'), { details });
}

export function createGlobTool(deps: FsToolDeps): Tool {
  return defineTool({
    name: 'glob',
    description,
    parameters,
    group: 'fs',
    capability: 'read-only',
    async execute(args, ctx) {
      try {
        return await run(deps, args, ctx);
      } catch (e) {
        if (isKnownToolError(e)) throw e; // the pipeline answers a refused path
        if (ctx.signal.aborted) return fail('glob was cancelled before it finished.', { details: { aborted: true } });
        return fail(`glob failed: ${(e as Error).message}`);
      }
    },
  });
}
