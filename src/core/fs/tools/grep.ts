// grep: search file contents under the workspace with ripgrep (the binary VS Code ships, or rg on
// PATH), or, where none can run, with a walk through WorkspaceFs and the regex in a worker thread.
// Denied paths are never searched or shown; .gitignored files are skipped unless asked; every limit
// that cuts the answer short says which parameter widens it.
import { z } from 'zod';
import { defineTool, fail, ok, type Tool, type ToolContext } from '../../tools/types';
import { DEFAULT_CAPS, GrepCollector, type GrepCaps, type GrepQuery } from '../grep-collect';
import { grepWithWorker } from '../grep-fallback';
import { grepReport, MAX_LIMIT } from '../grep-report';
import { compileFlags, escapeRegex } from '../grep-worker-source';
import { checkedStat } from '../path-open';
import { denyPathsToRgGlobs } from '../ripgrep-args';
import { looksBinary, searchWithRipgrep } from '../ripgrep-search';
import { processesToUse } from '../ripgrep-shards';
import { type FsToolDeps, type ResolvedPath } from '../types';

// The fields are getters: zod builds them when the schema is first used (a call's arguments, a listing),
// not when the runtime loads; the schema, its JSON Schema and its errors are the same.
const parameters = z.object({
  get pattern() {
    return z.string().min(1).describe('What to search for: a regular expression (ripgrep syntax, close to JavaScript\'s; one line at a time), or with literal: true the exact text.');
  },
  get path() {
    return z.string().min(1).optional().describe('File or directory to search, relative to the workspace root. Default: the workspace root.');
  },
  get literal() {
    return z.boolean().optional().describe('Search for the pattern as plain text, not as a regex. Default false.');
  },
  get ignoreCase() {
    return z.boolean().optional().describe('Match regardless of case. Default false.');
  },
  get glob() {
    return z.string().min(1).optional().describe('Only search files matching this glob: "*.ts" or "*.{js,jsx}" match file names, "src/**/*.test.ts" (with a slash) paths from the workspace root; a leading "!" excludes ("!*.min.js").');
  },
  get context() {
    return z.number().int().min(0).max(50).optional().describe('Lines of context shown before and after each match.');
  },
  get before() {
    return z.number().int().min(0).max(50).optional().describe('Lines of context before each match (overrides context).');
  },
  get after() {
    return z.number().int().min(0).max(50).optional().describe('Lines of context after each match (overrides context).');
  },
  get includeIgnored() {
    return z.boolean().optional().describe('Also search files that .gitignore excludes (node_modules, build output). Default false.');
  },
  get limit() {
    return z.number().int().min(1).max(MAX_LIMIT).optional().describe(`Most matches to return. Default ${DEFAULT_CAPS.limit}.`);
  },
  get maxLineChars() {
    return z.number().int().min(40).max(1_000_000).optional().describe(`Longest line shown whole; longer lines are cut to a window around the match. Default ${DEFAULT_CAPS.maxLineChars}.`);
  },
  get maxBytes() {
    return z.number().int().min(1_000).max(50_000_000).optional().describe(`Most bytes of output. Default ${DEFAULT_CAPS.maxBytes}.`);
  },
}).strict();

export interface GrepToolOptions {
  /** ripgrep to run (locateRipgrep's answer); undefined: the worker fallback. */
  rgPath?: string;
  /** pincer.fs.denyPaths and the always-denied folders, passed to rg as exclusions (results are filtered by guard.isDenied whatever this holds). */
  denyPaths?: readonly string[];
  home?: string;
  /** Fallback only: how long the regex may work on one file before the worker is terminated. */
  regexTimeoutMs?: number;
  /** Tests: told the pid of each rg process. */
  onSpawn?(pid: number): void;
  /** rg processes a directory search may be split over (default: one plus the idle cores, at most MAX_PROCESSES; 1 never splits). */
  processes?: number;
}

/** A sorted rg searches on one thread; a search is split over at most this many (ripgrep-shards.ts). */
const MAX_PROCESSES = 4;

const DEFAULT_REGEX_TIMEOUT_MS = 3000;

/** Ends the search a little before the pipeline's deadline, so what was found can still be returned. */
function searchDeadline(ctx: ToolContext): number | undefined {
  if (!Number.isFinite(ctx.deadline)) return undefined;
  const left = ctx.deadline - Date.now();
  return ctx.deadline - Math.min(1000, Math.max(0, left) * 0.1);
}

function toQuery(args: z.infer<typeof parameters>): GrepQuery {
  return {
    pattern: args.pattern,
    literal: args.literal ?? false,
    ignoreCase: args.ignoreCase ?? false,
    glob: args.glob,
    before: args.before ?? args.context ?? 0,
    after: args.after ?? args.context ?? 0,
    includeIgnored: args.includeIgnored ?? false,
  };
}

function patternFailure(detail: string, q: GrepQuery) {
  return fail(`The pattern ${JSON.stringify(q.pattern)} is not a valid regular expression: ${detail}\nFix the pattern, or pass literal: true to search for the text exactly as written.`, { details: { patternError: true } });
}

export function createGrepTool(deps: FsToolDeps, opts: GrepToolOptions = {}): Tool<typeof parameters> {
  return defineTool({
    name: 'grep',
    description: 'Searches the contents of files in the workspace for a regex or, with literal: true, exact text. '
      + 'Returns matching lines grouped by file with 1-based line numbers ("12: text"; context lines "13- text"), '
      + `at most ${DEFAULT_CAPS.limit} matches, lines cut at ${DEFAULT_CAPS.maxLineChars} characters and ${DEFAULT_CAPS.maxBytes / 1000} KB in all unless raised (a notice says which parameter to raise). `
      + 'Skips binary files and files ignored by .gitignore (includeIgnored: true searches them). '
      + 'Use it to find where something is defined or used; use glob to find files by name and read_file to read one.',
    parameters,
    group: 'fs',
    capability: 'read-only',
    timeoutMs: 60_000,
    async execute(args, ctx) {
      const q = toQuery(args);
      const caps: GrepCaps = { limit: args.limit ?? DEFAULT_CAPS.limit, maxLineChars: args.maxLineChars ?? DEFAULT_CAPS.maxLineChars, maxBytes: args.maxBytes ?? DEFAULT_CAPS.maxBytes };
      // A refused path is a PathError: the pipeline answers with its message.
      const target: ResolvedPath = await deps.guard.resolve(args.path ?? '.', 'read');
      // The guard's own lstat, where it took one, spares a second trip to the thread pool.
      const st = target.exists ? (checkedStat(target) ?? (await deps.fs.stat(target.abs))) : undefined;
      if (!st) return fail(`${JSON.stringify(args.path ?? '.')} does not exist. Use glob or list_files to find the right path.`);
      if (st.type !== 'file' && st.type !== 'directory') return fail(`${JSON.stringify(target.rel || target.input)} is neither a file nor a directory; grep searches files and directories.`);
      const isFile = st.type === 'file';
      const where = target.rel ? JSON.stringify(target.rel) : 'the workspace';
      const collector = new GrepCollector(caps, q.after, q.before);
      const deadline = searchDeadline(ctx);
      const details: Record<string, unknown> = { path: target.rel };
      let timedOut = false;
      let warning: string | undefined;

      let useWorker = !opts.rgPath;
      if (opts.rgPath) {
        const binaryAnswer = () => ok(`${JSON.stringify(target.rel)} is a binary file; grep searches text files only.`, { details: { ...details, binary: true, matches: 0 } });
        if (isFile && (await looksBinary(target.abs))) return binaryAnswer();
        const r = await searchWithRipgrep({
          rgPath: opts.rgPath, root: target.root, target: target.abs, query: q, collector, signal: ctx.signal, deadline, onSpawn: opts.onSpawn,
          denyGlobs: denyPathsToRgGlobs(opts.denyPaths ?? [], target.root, opts.home), isDenied: (abs) => deps.guard.isDenied(abs),
          split: isFile ? undefined : { fs: deps.fs, processes: opts.processes ?? processesToUse(MAX_PROCESSES) },
        });
        if (r.end === 'cancelled') return fail('grep was cancelled.');
        if (r.patternError) return patternFailure(`\n${r.patternError}`, q);
        if (r.binaryFile && collector.matches === 0) return binaryAnswer();
        if (r.end === 'spawn-error') useWorker = true; // rg vanished or cannot run here: same search, slower
        else {
          details.engine = 'ripgrep';
          if (r.processes > 1) details.rgProcesses = r.processes;
          timedOut = r.end === 'deadline';
          warning = r.warning;
        }
      }
      if (useWorker) {
        const compiled = compileFlags(q.literal ? escapeRegex(q.pattern) : q.pattern, q.ignoreCase);
        if ('error' in compiled) return patternFailure(compiled.error, q);
        const timeoutMs = opts.regexTimeoutMs ?? DEFAULT_REGEX_TIMEOUT_MS;
        const r = await grepWithWorker({
          fs: deps.fs, isDenied: (abs) => deps.guard.isDenied(abs), root: target.root, target: target.abs, targetIsFile: isFile,
          query: q, regex: { source: q.literal ? escapeRegex(q.pattern) : q.pattern, flags: compiled.flags }, collector, limit: caps.limit,
          signal: ctx.signal, deadline, regexTimeoutMs: timeoutMs,
        });
        if (r.end === 'cancelled') return fail('grep was cancelled.');
        if (r.end === 'regex-timeout') {
          return fail(`The pattern took too long: the regex engine spent over ${timeoutMs / 1000} s on ${JSON.stringify(r.slowFile ?? target.rel)} and the search was stopped. `
            + 'Simplify the pattern (nested repetition such as (\\w+\\s?)* or (a+)+ can take exponential time), or use literal: true.', { details: { ...details, engine: 'worker', regexTimeout: true } });
        }
        if (r.end === 'worker-error') return fail(`grep's search worker failed: ${r.error}. Try a simpler pattern or a narrower path.`, { details: { ...details, engine: 'worker' } });
        details.engine = 'worker';
        timedOut = r.end === 'deadline';
        if (r.unreadable) warning = `${r.unreadable} could not be read`;
      }
      Object.assign(details, { matches: collector.matches, files: collector.files, truncated: collector.stopped ?? (timedOut ? 'deadline' : undefined), cutLines: collector.cutCount });
      const text = grepReport({ query: q, caps, collector, where: isFile ? JSON.stringify(target.rel) : where, timedOut, warning });
      return ok(text, { details });
    },
  });
}

