// list_files: one directory, the way `ls -p` shows it, with sizes. Directories come first, then
// files, each group alphabetical ignoring case, because a model exploring a project looks for the
// folders to go into before the files. Denied entries are not shown at all.
import * as nodePath from 'node:path';
import { z } from 'zod';
import { defineTool, fail, ok, type Tool, type ToolContext, type ToolResult } from '../../tools/types';
import { isKnownToolError } from '../../tools/known-errors';
import { formatBytes } from '../read-budget';
import { PathError, type FileStat, type FsToolDeps } from '../types';

export const LIST_DEFAULT_LIMIT = 500;
const STAT_CONCURRENCY = 16;

// The fields are getters: zod builds them when the schema is first used (a call's arguments, a listing),
// not when the runtime loads; the schema, its JSON Schema and its errors are the same.
const parameters = z.object({
  get path() {
    return z.string().min(1).optional().describe('Directory to list: relative to the workspace root, or absolute. Default: the workspace root.');
  },
  get limit() {
    return z.number().int().min(1).optional().describe(`Maximum entries to return. Default ${LIST_DEFAULT_LIMIT}.`);
  },
}).strict();

const description =
  'Lists one directory (not recursive): subdirectories first with a trailing "/", then files with their sizes, each group sorted by name. ' +
  'Use glob to find files across directories by pattern, read_file to read one.';

export interface ListedEntry {
  name: string;
  type: 'file' | 'directory' | 'link-outside' | 'link-broken' | 'other';
  size?: number;
}

function compareNames(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const RANK: Record<ListedEntry['type'], number> = { directory: 0, file: 1, 'link-outside': 1, 'link-broken': 1, other: 1 };

interface Classified extends ListedEntry {
  /** Where sizes are read: the entry itself, or a link's target inside the boundary. */
  target?: string;
}

/** What an entry is, following a symlink only through the guard (a link out of the boundary is shown as such, never read). */
async function classify(deps: FsToolDeps, abs: string, name: string, type: FileStat['type']): Promise<Classified | undefined> {
  if (type === 'directory') return { name, type: 'directory' };
  if (type === 'file') return { name, type: 'file', target: abs };
  if (type !== 'symlink') return { name, type: 'other' };
  try {
    const r = await deps.guard.resolve(abs, 'list');
    if (!r.exists) return { name, type: 'link-broken' };
    if (deps.guard.isDenied(r.abs)) return undefined;
    const st = await deps.fs.stat(r.abs);
    if (!st) return { name, type: 'link-broken' };
    return st.type === 'directory' ? { name, type: 'directory' } : st.type === 'file' ? { name, type: 'file', target: r.abs } : { name, type: 'other' };
  } catch (e) {
    if (e instanceof PathError && e.code === 'denied') return undefined;
    return { name, type: e instanceof PathError && e.code === 'not-found' ? 'link-broken' : 'link-outside' };
  }
}

/** Runs `fn` over `items`, a few at a time, stopping early when the call is cancelled. */
async function pool<T, R>(items: T[], signal: AbortSignal, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal.aborted) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, items.length) }, worker));
  if (signal.aborted) throw signal.reason ?? new Error('aborted');
  return out;
}

function formatEntry(e: ListedEntry): string {
  switch (e.type) {
    case 'directory': return `${e.name}/`;
    case 'file': return e.size === undefined ? `${e.name}\t(size unknown: it vanished while listing)` : `${e.name}\t${formatBytes(e.size)}`;
    case 'link-outside': return `${e.name}@\t(symlink to a path outside the workspace; not readable)`;
    case 'link-broken': return `${e.name}@\t(broken symlink)`;
    default: return `${e.name}\t(special file)`;
  }
}

async function run(deps: FsToolDeps, args: z.infer<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  const limit = args.limit ?? LIST_DEFAULT_LIMIT;
  const dir = await deps.guard.resolve(args.path ?? '.', 'list');
  const where = dir.rel || (dir.root === dir.abs ? '.' : dir.input);
  const st = await deps.fs.stat(dir.abs);
  if (!st) return fail(`Directory not found: ${dir.input}. List its parent, or use glob to find it.`);
  if (st.type !== 'directory') return fail(`${where} is a file, not a directory. Use read_file to read it.`);

  const raw = await deps.fs.readDirectory(dir.abs);
  const visible = raw.filter(([name]) => !deps.guard.isDenied(nodePath.join(dir.abs, name)));
  const classified = await pool(visible, ctx.signal, ([name, type]) => classify(deps, nodePath.join(dir.abs, name), name, type));
  const listed = classified.filter((e): e is Classified => e !== undefined)
    .sort((a, b) => RANK[a.type] - RANK[b.type] || compareNames(a.name, b.name));
  // Sizes only for the entries shown: a directory of 100,000 files costs `limit` stats, not 100,000.
  const shownEntries: ListedEntry[] = await pool(listed.slice(0, limit), ctx.signal, async ({ target, ...e }) => {
    if (e.type !== 'file' || !target) return e;
    const st = await deps.fs.stat(target).catch(() => undefined);
    return { ...e, size: st?.size };
  });
  const dirs = listed.filter((e) => e.type === 'directory').length;
  const details = { path: where, count: listed.length, dirs, files: listed.length - dirs, shown: shownEntries.length, truncated: listed.length > limit, entries: shownEntries };
  if (!listed.length) return ok(`${where} is empty.`, { details });
  const lines = shownEntries.map(formatEntry);
  const head = `${where}: ${dirs} ${dirs === 1 ? 'directory' : 'directories'}, ${listed.length - dirs} ${listed.length - dirs === 1 ? 'file' : 'files'}`;
  if (listed.length > limit) lines.push(`[Showing ${limit} of ${listed.length} entries. Use limit=${listed.length} to see all, or glob to find specific files.]`);
  return ok(`${head}\n${lines.join('\n')}`, { details });
}

export function createListFilesTool(deps: FsToolDeps): Tool {
  return defineTool({
    name: 'list_files',
    description,
    parameters,
    group: 'fs',
    capability: 'read-only',
    async execute(args, ctx) {
      try {
        return await run(deps, args, ctx);
      } catch (e) {
        if (isKnownToolError(e)) throw e; // the pipeline answers a refused path
        if (ctx.signal.aborted) return fail('list_files was cancelled.', { details: { aborted: true } });
        return fail(`Could not list ${args.path ?? 'the workspace root'}: ${(e as Error).message}`);
      }
    },
  });
}
