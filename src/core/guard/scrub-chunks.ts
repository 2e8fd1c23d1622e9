// A long text in chunks, for two threads that share them out as they go (scrub-split.ts, the calling
// thread, and scrub-worker.ts): where the chunks end, how a thread claims the next one, how it scans
// the chunks it claimed, and how their outputs make the one-pass string.
//
// Each thread takes the next unclaimed chunk when it is done with one, so a thread that gets less
// of a core (another process on the machine, the worker's start, a garbage collection) simply does
// fewer chunks; a fixed cut made the other thread wait for it instead.
import { beyondMark, pendingFrom, runFrom, type Combined, type Matcher, type RunResult } from './scrub-combine';
import { joinPieces, type Output, type Pieces } from './scrub-output';

/**
 * About how long a chunk is. Shorter chunks share the work more evenly (at the end one thread
 * waits for at most the other's last chunk) but each costs a little: its scan's patterns look past
 * its end for their next match, and its answer is a message.
 */
export const CHUNK_CHARS = 384 * 1024;
/** How far from the aim a line break (a blank line first) and the start of a BEGIN … END block are looked for. */
const CUT_WINDOW = 64 * 1024;

/**
 * Where to cut near `aim`: just after a line break at or past it, preferring the end of a blank line
 * (a multi-line value rarely spans one) and not inside a BEGIN … END block. Only a window around the
 * aim is searched (slices of a long string are views, not copies). -1: no such place. Any line break
 * would do for the output (runFrom checks each cut); this one rarely fails it.
 */
export function cutNear(text: string, aim: number): number {
  const ahead = text.slice(aim, aim + CUT_WINDOW);
  const blank = ahead.indexOf('\n\n');
  const nl = blank >= 0 ? blank + 1 : ahead.indexOf('\n');
  if (nl < 0) return -1;
  let cut = aim + nl + 1;
  const behind = text.slice(Math.max(0, cut - CUT_WINDOW), cut);
  // A look for `BEGIN ` first: most windows hold no block, and V8 skips through a window for it,
  // where a search starting with `-` stops at every `-` of the text (measured over the ~26 cuts of
  // the 10 MB bench text: 0.05 ms, against 1 ms for the two searches below, all of it before the
  // worker can start).
  if (behind.indexOf('BEGIN ') >= 0 && behind.lastIndexOf('-----BEGIN ') > behind.lastIndexOf('-----END ')) {
    const end = text.slice(cut, cut + CUT_WINDOW).indexOf('-----END ');
    const after = end < 0 ? -1 : text.indexOf('\n', cut + end);
    if (after < 0) return -1;
    cut = after + 1;
  }
  return cut < text.length ? cut : -1;
}

/**
 * The chunks' bounds: 0, then cuts (cutNear) aimed at even shares of about `chunk` characters,
 * rising, then the text's length. Every bound but the first and last is just after a line break.
 */
export function chunkBounds(text: string, chunk = CHUNK_CHARS): number[] {
  const count = Math.max(2, Math.round(text.length / chunk));
  const bounds = [0];
  for (let k = 1; k < count; k++) {
    const cut = cutNear(text, Math.floor((text.length * k) / count));
    if (cut > bounds[bounds.length - 1]) bounds.push(cut);
  }
  bounds.push(text.length);
  return bounds;
}

/**
 * The claim word, shared by the threads: the job's number in its high 16 bits, the next unclaimed
 * chunk in its low 16. A thread claims with a compare-and-swap that checks the job too, so a thread
 * still on an earlier job can never take a chunk of the next one.
 */
export const claimWord = (job: number, chunk: number): number => ((job & 0x7fff) << 16) | chunk;

/** Claims the next chunk of `job` (of `count`), or -1 when every chunk is claimed or the job is over. */
export function claimChunk(words: Int32Array, index: number, job: number, count: number): number {
  for (;;) {
    const word = Atomics.load(words, index);
    const chunk = word & 0xffff;
    if (word >>> 16 !== (job & 0x7fff) || chunk >= count) return -1;
    if (Atomics.compareExchange(words, index, word, word + 1) === word) return chunk;
  }
}

/** Whether a chunk of `job` is left to claim (a look only). */
export function claimable(words: Int32Array, index: number, job: number, count: number): boolean {
  const word = Atomics.load(words, index);
  return word >>> 16 === (job & 0x7fff) && (word & 0xffff) < count;
}

/** Leaves no chunk of `job` to claim (a thread whose scan went on to the end did them all). */
export function endClaims(words: Int32Array, index: number, job: number, count: number): void {
  for (;;) {
    const word = Atomics.load(words, index);
    if (word >>> 16 !== (job & 0x7fff) || (word & 0xffff) >= count) return;
    if (Atomics.compareExchange(words, index, word, claimWord(job, count)) === word) return;
  }
}

/**
 * A pattern of bounded reach searched no further than the current chunk: V8 searches a pattern to
 * its next match, which for the rare-anchor lane (no match in most texts) is the end of the text,
 * however short the chunk. Searching a copy-free slice of the text that ends `reach` past `limit`
 * finds exactly what the whole text gives at every start up to `limit` (an attempt there reads no
 * further; lookbehinds see the text before, which the slice keeps), so a match found up to `limit`
 * is the match, and none means none before limit + 1 (beyondMark; runFrom searches on from there
 * if its scan gets that far). Past `limit`, the whole text is searched.
 */
class BoundedMatcher implements Matcher {
  lastIndex = 0;
  limit = Number.POSITIVE_INFINITY;

  constructor(
    private readonly re: RegExp,
    private readonly reach: number,
  ) {}

  exec(text: string): RegExpExecArray | null {
    const from = this.lastIndex;
    const end = this.limit + this.reach + 1;
    this.re.lastIndex = from;
    if (from > this.limit || end >= text.length) return this.re.exec(text);
    const m = this.re.exec(text.slice(0, end));
    return m !== null && m.index <= this.limit ? m : beyondMark(this.limit + 1);
  }
}

/**
 * One thread's scan of the chunks it claims, in rising order: each pattern's pending match is
 * handed on from one chunk to the next (pendingFrom says why that holds), and a pattern of bounded
 * reach is searched no further than the chunk (BoundedMatcher), so the rare-anchor lane is not
 * searched to the end of the text from every thread's first chunk. Starts are just after a line
 * break, where the bare-token scan finds what it finds from any earlier start (a run of token
 * characters cannot cross a line break).
 */
export class ChunkWalk {
  private next: (RegExpExecArray | null)[] | undefined;
  private readonly patterns: readonly Combined[];
  private readonly bounded: BoundedMatcher[] = [];

  constructor(
    patterns: readonly Combined[],
    private readonly text: string,
    private readonly placeholder: string,
  ) {
    this.patterns = patterns.map((c) => {
      if (c.reach === undefined || !(c.re instanceof RegExp)) return c;
      const re = new BoundedMatcher(c.re, c.reach);
      this.bounded.push(re);
      return { ...c, re };
    });
  }

  /**
   * The scrubbed chunk [from, to): stopped at `to` where a scan started fresh there makes exactly
   * the rest (runFrom), else run on to the end of the text (`stopped` false).
   */
  scan(from: number, to: number): RunResult {
    for (const b of this.bounded) b.limit = to;
    this.next ??= pendingFrom(this.patterns, this.text, from);
    return runFrom(this.patterns, this.text, this.placeholder, from, to, this.next);
  }
}

/** A chunk's scrubbed text: this thread's Output, or the worker's pieces; undefined when unchanged. */
export interface ChunkResult {
  readonly output?: Output;
  readonly pieces?: Pieces;
  /** Whether the scan stopped at the chunk's end (else it made the rest of the text). */
  readonly stopped: boolean;
}

/**
 * The one-pass string from the chunks' results in order, each covering its chunk (the last taken,
 * one that did not stop, covering the rest of the text); the text itself when nothing changed.
 */
export function joinChunks(text: string, bounds: readonly number[], results: readonly ChunkResult[]): string {
  let out = '';
  let changed = false;
  for (let k = 0; k < results.length; k++) {
    const r = results[k];
    const end = r.stopped ? bounds[k + 1] : text.length;
    if (r.output) out += r.output.toString();
    else if (r.pieces) out += joinPieces(text, r.pieces);
    else out += text.slice(bounds[k], end);
    changed ||= r.output !== undefined || r.pieces !== undefined;
    if (!r.stopped) break;
  }
  return changed ? out : text;
}
