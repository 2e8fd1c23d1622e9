// memory_get: a memory document (the user's own, else the agent's shared one) or a line range of
// it, with 1-based line numbers as read_file shows them. A folder path lists what is in it; a
// missing document is answered with what exists and the nearest names.
import { z } from 'zod';
import { defineTool, fail, ok, type Tool } from '../../tools/types';
import { splitLines } from '../chunker';
import { checkMemoryPath } from '../memory-paths';
import { normalizeFolder } from '../memory-scope-sql';
import type { MemoryApi } from '../memory-store';
import { levelLabel, type MemoryToolEnv } from '../memory-tools';
import { type MemoryDocumentInfo, type Scope } from '../types';

const parameters = z.object({
  path: z.string().min(1).describe('MEMORY.md, memory.md or a path under memory/ (e.g. "memory/projects/pincer.md"). A folder ("memory/projects") lists its documents.'),
  offset: z.number().int().min(1).optional().describe('1-based first line. Default 1.'),
  limit: z.number().int().min(1).optional().describe(`Lines to return. Default: up to ${2000} lines.`),
}).strict();

const description =
  'Reads a memory document (MEMORY.md, memory.md or memory/**) with 1-based line numbers ("12\\t<text>"), or the lines offset..offset+limit-1 of it. ' +
  'Your own copy of a document is read when you have one, else the agent\'s shared one; the result says which. ' +
  'To find something in memory use memory_search first (it gives paths and line ranges), then memory_get for the surrounding lines. A folder path lists its documents.';

const MAX_LINES = 2000;
const MAX_CHARS = 50_000;

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return 99;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** Up to five stored paths that look like the one asked for: same file name, or a few letters off. */
export function nearestPaths(wanted: string, docs: readonly MemoryDocumentInfo[]): string[] {
  const w = wanted.toLowerCase();
  const base = (p: string) => p.slice(p.lastIndexOf('/') + 1).toLowerCase();
  return docs
    .map((d) => ({ p: d.path, score: base(d.path) === base(w) ? 0 : Math.min(distance(d.path.toLowerCase(), w), distance(base(d.path), base(w)) + 1) }))
    .filter((x) => x.score <= 4 || x.p.toLowerCase().includes(base(w).replace(/\.md$/, '')))
    .sort((a, b) => a.score - b.score || a.p.localeCompare(b.p))
    .slice(0, 5)
    .map((x) => x.p);
}

async function missing(store: MemoryApi, scope: Scope, path: string): Promise<string> {
  const docs = await store.list(scope);
  if (!docs.length) return `${path} does not exist, and this agent has no memory documents yet. Memory documents are created by writing MEMORY.md or files under memory/ (write_file).`;
  const near = nearestPaths(path, docs);
  const listed = docs.slice(0, 20).map((d) => d.path).join(', ');
  return `${path} does not exist in memory.${near.length ? ` Did you mean ${near.join(', ')}?` : ''} ` +
    `There ${docs.length === 1 ? 'is 1 document' : `are ${docs.length} documents`}: ${listed}${docs.length > 20 ? ', …' : ''}. ` +
    'Use memory_search to find text when you do not know the path.';
}

async function folderListing(store: MemoryApi, scope: Scope, folder: string): Promise<string | undefined> {
  const docs = await store.list(scope, { prefix: `${folder}/` });
  if (!docs.length) return undefined;
  const rows = docs.slice(0, 200).map((d) => `${d.path}\t${d.size} B\t${d.chunks} chunk${d.chunks === 1 ? '' : 's'}${d.userId === '' && scope.userId ? '\t(shared)' : ''}`);
  return `${folder}/: ${docs.length} document${docs.length === 1 ? '' : 's'}\n${rows.join('\n')}${docs.length > 200 ? `\n[${docs.length - 200} more not shown.]` : ''}`;
}

export function createMemoryGetTool(env: MemoryToolEnv): Tool {
  return defineTool({
    name: 'memory_get',
    description,
    parameters,
    group: 'memory',
    capability: 'read-only',
    async execute(args, ctx) {
      const scope = env.scope(ctx);
      const path = normalizeFolder(args.path.trim()).replace(/^\/+/, '');
      const store = await env.store();
      if (path === 'memory' || (path.startsWith('memory/') && !/\.[^/]+$/.test(path))) {
        const listing = await folderListing(store, scope, path);
        if (listing) return ok(listing, { details: { path, folder: true } });
      }
      checkMemoryPath(path);
      const doc = await store.read(scope, path);
      if (!doc) return fail(await missing(store, scope, path), { details: { path, found: false } });
      const lines = splitLines(doc.content);
      const from = args.offset ?? 1;
      const level = levelLabel(doc.userId, scope);
      if (lines.length === 0) return ok(`${path} (${level}) is empty.`, { details: { path, userId: doc.userId, lines: 0 } });
      if (from > lines.length) return fail(`offset=${from} is past the end of ${path}, which has ${lines.length} line${lines.length === 1 ? '' : 's'}.`);
      const wantedTo = Math.min(lines.length, from - 1 + (args.limit ?? MAX_LINES), from - 1 + MAX_LINES);
      const width = String(wantedTo).length;
      let out = '';
      let to = from - 1;
      while (to < wantedTo) {
        const line = `${String(to + 1).padStart(width)}\t${lines[to]}\n`;
        if (out.length + line.length > MAX_CHARS && to >= from) break;
        out += line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS)}…\n` : line;
        to++;
      }
      const head = `${path} (${level}; ${lines.length} line${lines.length === 1 ? '' : 's'})`;
      const tail = to < lines.length ? `\n[Showing lines ${from}-${to} of ${lines.length}. Use offset=${to + 1} to continue.]` : '';
      return ok(`${head}\n${out.trimEnd()}${tail}`, { details: { path, userId: doc.userId, from, to, lines: lines.length } });
    },
  });
}
