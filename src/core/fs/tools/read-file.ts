// read_file: a text file with 1-based line numbers the model can quote in edits, paged so that any
// file, however large, comes back in pieces that fit the model's context, each piece saying exactly
// where the next one starts.
import { z } from 'zod';
import { formatCount } from '../../format-count';
import { defineTool, fail, ok, type Tool, type ToolContext, type ToolResult } from '../../tools/types';
import { isKnownToolError } from '../../tools/known-errors';
import { binaryMessage, sniffContent, SNIFF_BYTES } from '../binary';
import { formatBytes, readBudget, type ReadBudget } from '../read-budget';
import { readLineWindow, type LineWindow } from '../read-lines';
import { checkedStat } from '../path-open';
import { memorySource, openSource, type ByteSource, type RangeReadable } from '../read-range';
import { type FsToolDeps, type ResolvedPath, type WorkspaceFs } from '../types';

// The fields are getters: zod builds them when the schema is first used (a call's arguments, a listing),
// not when the runtime loads; the schema, its JSON Schema and its errors are the same.
const parameters = z.object({
  get path() {
    return z.string().min(1).describe('File to read: relative to the workspace root, or absolute.');
  },
  get offset() {
    return z.number().int().min(1).optional().describe('1-based line to start at. Default 1.');
  },
  get limit() {
    return z.number().int().min(1).optional().describe('Maximum lines to return. Default: as much as fits one page of your context budget.');
  },
  get column() {
    return z.number().int().min(1).optional()
      .describe('Only for a line too long to show whole (minified code, huge JSON): the 1-based character of line `offset` to start at, as a previous result told you.');
  },
}).strict();

const description =
  'Reads a text file and returns its lines prefixed with 1-based line numbers ("12\\t<text>"; the number and tab are not part of the file). ' +
  'Large files come back a page at a time: the result ends with a notice such as "Use offset=2001 to continue" when there is more. ' +
  'Use offset/limit to read a specific range (for example around a line grep reported). Binary files are detected and not shown. ' +
  'Files ignored by .gitignore can be read when you name them.';

/** Bytes of the budget kept for the closing notice. */
const NOTICE_ROOM = 400;

export interface ReadFileOptions {
  /** The pipeline's pincer.tools.maxResultChars, so a page ends on a line boundary before the pipeline would cut it. */
  maxResultChars?: number;
}

function shown(p: ResolvedPath): string {
  return p.rel || p.input;
}

function n(x: number): string {
  return formatCount(x);
}

/** UTF-16 files (with a BOM) are rare and read whole: re-encoded as UTF-8 they go through the same window. */
async function utf16Source(fs: WorkspaceFs, abs: string, encoding: 'utf16le' | 'utf16be', signal: AbortSignal): Promise<ByteSource> {
  const raw = Buffer.from(await fs.readFile(abs, signal));
  const body = Buffer.from(raw.subarray(2 + ((raw.length - 2) % 2)));
  if (encoding === 'utf16be') body.swap16();
  return memorySource(Buffer.from(body.toString('utf16le'), 'utf8'));
}

function numbered(win: LineWindow, offset: number): string {
  const last = offset + win.lines.length - 1;
  const width = String(last).length;
  let out = '';
  for (let i = 0; i < win.lines.length; i++) out += `${String(offset + i).padStart(width)}\t${win.lines[i]}\n`;
  return out;
}

/** The closing notice: what was shown and the exact call that shows the rest. */
function notice(win: LineWindow, offset: number, column: number, limited: boolean, budget: ReadBudget): string | undefined {
  const last = offset + win.lines.length - 1;
  const total = n(win.totalLines);
  if (win.slice) {
    const s = win.slice;
    const after = win.stop ? `offset=${win.stop.nextOffset} to continue after it (the file has ${total} lines)` : '';
    if (s.from > s.length) {
      return `[Line ${n(s.line)} has only ${n(s.length)} characters; column=${column} is past its end.${after ? ` Use ${after}.` : ''}]`;
    }
    const head = `[Line ${n(s.line)} is ${n(s.length)} characters long; showing characters ${n(s.from)}-${n(s.to)}.`;
    const more = s.to < s.length ? `Use offset=${s.line} column=${s.to + 1} for the next part of this line` : '';
    if (more && after) return `${head} ${more}, or ${after}.]`;
    if (more) return `${head} ${more}; it is the last line of the file.]`;
    if (after) return `${head} Use ${after}.]`;
    return `${head} It is the last line of the file.]`;
  }
  if (win.stop?.by === 'bytes') {
    return `[Output capped at ${formatBytes(budget.maxBytes)}: showing lines ${n(offset)}-${n(last)} of ${total}. Use offset=${win.stop.nextOffset} to continue.]`;
  }
  if (win.stop) {
    const why = limited ? '' : ` (${n(budget.maxLines)} lines a call)`;
    return `[Showing lines ${n(offset)}-${n(last)} of ${total}${why}. Use offset=${win.stop.nextOffset} to continue.]`;
  }
  if (offset > 1) return `[Showing lines ${n(offset)}-${n(last)} of ${total}: end of file.]`;
  return undefined;
}

async function read(deps: FsToolDeps, options: ReadFileOptions, args: z.infer<typeof parameters>, ctx: ToolContext): Promise<ToolResult> {
  const target = await deps.guard.resolve(args.path, 'read');
  const rel = shown(target);
  // The guard stat'ed the file while resolving it; a fresh lstat only when it did not (missing, virtual).
  const st = checkedStat(target) ?? await deps.fs.stat(target.abs);
  if (!st) return fail(`File not found: ${rel}. Use glob or list_files to find the right path.`);
  if (st.type === 'directory') return fail(`${rel} is a directory, not a file. Use list_files to see what it contains, or glob to find files in it.`);

  const fs = deps.fs as WorkspaceFs & RangeReadable;
  let src = await openSource(fs, target.abs, st.size, ctx.signal);
  const sniff = sniffContent(await src.read(0, Math.min(SNIFF_BYTES, src.size)));
  if (sniff.binary) {
    return fail(binaryMessage(rel, st.size, sniff), { details: { path: rel, bytes: st.size, binary: true, kind: sniff.kind } });
  }
  if (sniff.encoding !== 'utf8') src = await utf16Source(deps.fs, target.abs, sniff.encoding, ctx.signal);

  const offset = args.offset ?? 1;
  const budget = readBudget(deps.contextTokens?.({ agentId: ctx.agentId, provider: ctx.provider }), args.limit, options.maxResultChars);
  // The closing notice comes out of the same budget, so a page never exceeds what was promised.
  const win = await readLineWindow(src, { offset, maxLines: budget.maxLines, maxBytes: budget.maxBytes - NOTICE_ROOM, column: args.column, signal: ctx.signal });
  const details: Record<string, unknown> = {
    path: rel, bytes: st.size, totalLines: win.totalLines, bom: win.bom || sniff.encoding !== 'utf8', crlf: win.crlf,
    encoding: sniff.encoding, budgetBytes: budget.maxBytes, budgetLines: budget.maxLines,
  };

  if (win.totalLines === 0) return ok(`[${rel} is empty (0 lines).]`, { details: { ...details, empty: true } });
  if (win.lines.length === 0) {
    const msg = `[offset=${offset} is past the end of ${rel}: the file has ${n(win.totalLines)} lines. Use an offset from 1 to ${win.totalLines}.]`;
    return ok(msg, { details: { ...details, pastEnd: true } });
  }
  const last = offset + win.lines.length - 1;
  const tail = notice(win, offset, args.column ?? 1, args.limit !== undefined, budget);
  Object.assign(details, { startLine: offset, endLine: last, nextOffset: win.stop?.nextOffset, truncated: win.stop?.by, slice: win.slice });
  // A column past the end of its line shows nothing of the line, only the notice.
  const text = win.slice && win.slice.from > win.slice.length ? '' : numbered(win, offset);
  return ok(text + (tail ? tail : ''), { details });
}

export function createReadFileTool(deps: FsToolDeps, options: ReadFileOptions = {}): Tool {
  return defineTool({
    name: 'read_file',
    description,
    parameters,
    group: 'fs',
    capability: 'read-only',
    async execute(args, ctx) {
      try {
        return await read(deps, options, args, ctx);
      } catch (e) {
        if (isKnownToolError(e)) throw e; // the pipeline answers a refused path
        if (ctx.signal.aborted) throw e;
        return fail(`Could not read ${args.path}: ${(e as Error).message}`);
      }
    },
  });
}
