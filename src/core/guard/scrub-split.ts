// A long text is scrubbed on two threads: cut at a line break, this thread scrubs the first part
// while a worker thread (scrub-worker.ts) scrubs the second, and the two outputs are joined. The
// caller gets the same string as from one pass: the first part's scan stops at the cut only where a
// scan started fresh there makes exactly the rest of the output (runFrom says when); otherwise it
// goes on to the end itself and the worker's answer is dropped. The worker gets the whole text, so
// the rules' lookbehinds and checks see before the cut what they see in one pass.
//
// `scrub` is synchronous (its callers are), so this thread waits for the answer with Atomics.wait
// on a counter the worker bumps after each answer, and takes it with receiveMessageOnPort: no turn
// of the event loop is needed. The worker is started by the first long text (which is scrubbed here
// alone, while it starts and compiles the rules), kept unreferenced (it never holds a process open)
// and stopped after a quiet minute. If it cannot start, fails, or is late, this thread scrubs the
// rest itself. Wall-clock time halves at best; CPU time grows a little (the text is copied to the
// worker and the second part's output copied back).
//
// The text goes to the worker as its UTF-16 code units in a SharedArrayBuffer kept between jobs,
// not in the message: posting a 10 MB string serializes it on this thread before its own part can
// start (about 12 ms here, on fresh memory each time, and as much again to deserialize it) where
// writing it into the kept buffer costs about 2 ms; the worker makes its string from the buffer
// (about 4 ms) while this thread scans. The buffer is
// written only while the worker has no job (a job is given only once the last answer was taken).
import fs from 'node:fs';
import path from 'node:path';
import type { MessagePort, Worker } from 'node:worker_threads';
import { runCombined, runFrom, type Combined } from './scrub-combine';
import { joinPieces, type Pieces } from './scrub-output';

/** Shorter texts stay on the calling thread: the copies and the hand-over would eat the gain. */
export const SPLIT_MIN = 512 * 1024;

/** What the worker is asked: the scrubbed text of `text` from `from` on, for these registered values. */
export interface SplitJob {
  readonly id: number;
  /** The text as UTF-16 code units (little-endian) in its first `length` * 2 bytes. */
  readonly buffer: SharedArrayBuffer;
  readonly length: number;
  readonly from: number;
  readonly placeholder: string;
  readonly values: readonly string[];
}

/**
 * The scrubbed text from `from` on, as pieces of the text (the answer stays small: mostly offsets),
 * or undefined when nothing was replaced there.
 */
export type SplitReply = { readonly id: number; readonly pieces: Pieces | undefined } | { readonly id: number; readonly error: string };

/** The worker's start-up data: its end of the channel and the shared signal words. */
export interface SplitWorkerData {
  readonly port: MessagePort;
  readonly signal: SharedArrayBuffer;
}

/** Signal words: answers posted so far (bumped after each), and 1 once the worker has compiled the rules. */
export const SIGNAL_ANSWERS = 0;
export const SIGNAL_READY = 1;

/** How long an unused worker is kept. */
const IDLE_MS = 60_000;
/**
 * How long the worker's answer is waited for, after the first part is done, before this thread does
 * the rest itself: meant for a worker that died (which a blocked thread cannot hear of), so it is
 * generous. A busy machine slows both threads alike.
 */
export const splitPatience = { factor: 10, minMs: 1000 };
/** How far from the aim a line break (a blank line first) and the start of a BEGIN … END block are looked for. */
const CUT_WINDOW = 64 * 1024;

interface Helper {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly signal: Int32Array;
  /** The id of the job whose answer has not been taken yet. */
  pending: number | undefined;
  /** The buffer the texts are handed over in, grown as longer texts come. */
  buffer: Buffer | undefined;
  idle: NodeJS.Timeout | undefined;
}

/**
 * node:worker_threads, loaded with the first long text: loading it costs about 1.4 ms, and the
 * scrubber is loaded on the start-up path, where most processes never see a long text.
 */
let threads: typeof import('node:worker_threads') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
const workerThreads = (): typeof import('node:worker_threads') => (threads ??= require('node:worker_threads') as typeof import('node:worker_threads'));
/** receiveMessageOnPort; only called once a worker was started (so the module is loaded). */
const receive = (port: MessagePort): { message: unknown } | undefined => workerThreads().receiveMessageOnPort(port);

let helper: Helper | undefined;
/** Set when no worker can run here (no script beside this module, or it failed): stay on one thread. */
let disabled = false;
let nextId = 1;
/** The worker script (tests and benches point it at their own build). */
let workerPath = path.join(__dirname, 'scrub-worker.js');

/** Where the worker script is; a new path applies to the next worker started. Returns the old one. */
export function setSplitWorkerPath(p: string): string {
  const old = workerPath;
  workerPath = p;
  disabled = false;
  return old;
}

/**
 * How long texts went (for the benches and tests): on two threads; on this one alone because the
 * first part's scan could not stop at the cut (a match across it); finished here because the
 * worker failed or was late; on this one alone because the machine was found busy (splitBackoff).
 */
export const splitCounts = { split: 0, crossed: 0, late: 0, paused: 0 };

/**
 * On a busy machine the two threads wait for cores, and a text split in two can take longer than
 * on one thread (measured here at load 5-7: 118-154 ms on two threads against 78-104 ms on one,
 * medians of 21 rounds of the 10 MB bench text). So the time per character of the last split text
 * is compared with that of the last long text scrubbed on this thread alone: when splitting was
 * not faster (or the answer was late), the next `texts` long texts are scrubbed on this thread
 * alone, each measured, then a split is tried again. With no one-thread time yet, one long text is
 * scrubbed alone to get one. whenSplitReady ends a pause (tests and benches that want a split).
 */
export const splitBackoff = { texts: 4 };
/** Milliseconds per character of the last long text on two threads, and on this one alone (NaN: none yet). */
const rates = { split: Number.NaN, one: Number.NaN };
let paused = 0;

/** Atomics.waitAsync (Node 16+), which this project's TypeScript library does not declare. */
interface AtomicsWaitAsync {
  waitAsync(a: Int32Array, index: number, value: number): { async: boolean; value: Promise<string> | string };
}

/**
 * Starts the worker if it is not running, and resolves once it has compiled the rules and answered
 * every job it was given (true), or when it cannot run here (false). Long texts do not wait for it:
 * this is for tests and benches, which want the next long text scrubbed on two threads.
 */
export async function whenSplitReady(): Promise<boolean> {
  paused = 0;
  if (!helper && !disabled) start();
  const h = helper;
  if (!h) return false;
  const exited = new Promise<void>((resolve) => h.worker.once('exit', () => resolve()));
  const changeOf = (index: number, value: number): Promise<unknown> => {
    const w = (Atomics as unknown as AtomicsWaitAsync).waitAsync(h.signal, index, value);
    return w.async ? (w.value as Promise<string>) : Promise.resolve();
  };
  // Held open meanwhile: an unreferenced worker and a pending waitAsync keep no process alive.
  h.worker.ref();
  try {
    while (helper === h && Atomics.load(h.signal, SIGNAL_READY) !== 1) await Promise.race([changeOf(SIGNAL_READY, 0), exited]);
    for (;;) {
      // Read before draining: an answer posted after the drain bumps the counter past `seen`.
      const seen = Atomics.load(h.signal, SIGNAL_ANSWERS);
      drain(h);
      if (helper !== h || h.pending === undefined) break;
      await Promise.race([changeOf(SIGNAL_ANSWERS, seen), exited]);
    }
  } finally {
    h.worker.unref();
  }
  return helper === h && Atomics.load(h.signal, SIGNAL_READY) === 1;
}

/**
 * Stops the worker (when idle, and in tests; a process exiting need not: it is unreferenced).
 * Closing the channel, its only handle, lets the worker's thread end by itself once any job it has
 * is done: terminating a thread can cut into V8's background work for it (its regex and code
 * compiles), which has aborted the whole process on Node 20.
 */
export function stopSplitWorker(): void {
  if (!helper) return;
  clearTimeout(helper.idle);
  helper.port.close();
  helper = undefined;
}

function start(): void {
  if (!fs.existsSync(workerPath)) {
    disabled = true;
    return;
  }
  const { MessageChannel, Worker } = workerThreads();
  const { port1, port2 } = new MessageChannel();
  const shared = new SharedArrayBuffer(8);
  let worker: Worker;
  try {
    worker = new Worker(workerPath, { workerData: { port: port2, signal: shared } satisfies SplitWorkerData, transferList: [port2] });
  } catch {
    disabled = true;
    return;
  }
  const h: Helper = { worker, port: port1, signal: new Int32Array(shared), pending: undefined, idle: undefined, buffer: undefined };
  const gone = (): void => {
    if (helper === h) helper = undefined;
    clearTimeout(h.idle);
    h.port.close();
  };
  worker.on('error', () => {
    disabled = true;
    gone();
  });
  worker.on('exit', gone);
  worker.unref();
  port1.unref();
  helper = h;
}

/** Takes answers that came after their job was given up. */
function drain(h: Helper): void {
  for (let m = receive(h.port); m; m = receive(h.port)) {
    if ((m.message as SplitReply).id === h.pending) h.pending = undefined;
  }
}

/** The worker, when it is ready and free; starts it on first use. */
function readyHelper(): Helper | undefined {
  if (disabled) return undefined;
  if (!helper) {
    start();
    return undefined;
  }
  if (helper.pending !== undefined) drain(helper);
  if (helper.pending !== undefined || Atomics.load(helper.signal, SIGNAL_READY) !== 1) return undefined;
  return helper;
}

/** The answer to job `id`, or undefined when it has not come by `deadline` (performance.now()). */
function answer(h: Helper, id: number, deadline: number): SplitReply | undefined {
  for (;;) {
    const seen = Atomics.load(h.signal, SIGNAL_ANSWERS);
    const m = receive(h.port);
    if (m) {
      const reply = m.message as SplitReply;
      if (reply.id === id) {
        h.pending = undefined;
        return reply;
      }
      continue;
    }
    const left = deadline - performance.now();
    if (left <= 0 || helper !== h) return undefined;
    try {
      Atomics.wait(h.signal, SIGNAL_ANSWERS, seen, left);
    } catch {
      // A thread that may not block (a browser's main thread) cannot wait: scrub on one thread.
      disabled = true;
      return undefined;
    }
  }
}

/**
 * Where the cut is aimed, as a share of the text: a little past the middle, because the worker first
 * makes its string of the whole text from the buffer (about 4 ms for the 10 MB bench text, two bytes
 * a character: scrub-worker.ts) while this thread only writes it there (about 2.3 ms); both scan at
 * about the same speed (~65 ms for the whole text), so the worker's part is shorter by that difference.
 */
export const CUT_SHARE = 0.52;

/**
 * Where to cut: just after a line break at or past CUT_SHARE of the text, preferring the end of a
 * blank line (a multi-line value rarely spans one) and not inside a BEGIN … END block. Only a
 * window around the aim is searched (slices of a long string are views, not copies). -1: no such
 * place. Any line break would do for the output (runFrom checks the cut); this one rarely fails it.
 */
export function cutPoint(text: string): number {
  const aim = Math.floor(text.length * CUT_SHARE);
  const ahead = text.slice(aim, aim + CUT_WINDOW);
  const blank = ahead.indexOf('\n\n');
  const nl = blank >= 0 ? blank + 1 : ahead.indexOf('\n');
  if (nl < 0) return -1;
  let cut = aim + nl + 1;
  const behind = text.slice(Math.max(0, cut - CUT_WINDOW), cut);
  if (behind.lastIndexOf('-----BEGIN ') > behind.lastIndexOf('-----END ')) {
    const end = text.slice(cut, cut + CUT_WINDOW).indexOf('-----END ');
    const after = end < 0 ? -1 : text.indexOf('\n', cut + end);
    if (after < 0) return -1;
    cut = after + 1;
  }
  return cut < text.length ? cut : -1;
}

/**
 * `text` scrubbed by `patterns` on two threads, or undefined when that cannot be done now (no
 * worker ready, no place to cut): the caller then scrubs it alone.
 */
export function scrubSplit(patterns: readonly Combined[], text: string, placeholder: string, values: readonly string[]): string | undefined {
  if (paused > 0) {
    paused -= 1;
    splitCounts.paused += 1;
    const t = performance.now();
    const out = runCombined(patterns, text, placeholder);
    rates.one = (performance.now() - t) / text.length;
    return out;
  }
  const h = readyHelper();
  if (!h) return undefined;
  const cut = cutPoint(text);
  if (cut < 0) return undefined;
  const start = performance.now();
  const bytes = text.length * 2;
  if (!h.buffer || h.buffer.length < bytes) h.buffer = Buffer.from(new SharedArrayBuffer(bytes + (bytes >> 3)));
  if (h.buffer.write(text, 0, 'utf16le') !== bytes) return undefined;
  const id = nextId++;
  h.pending = id;
  clearTimeout(h.idle);
  h.port.postMessage({ id, buffer: h.buffer.buffer as SharedArrayBuffer, length: text.length, from: cut, placeholder, values } satisfies SplitJob);
  const t0 = performance.now();
  const head = runFrom(patterns, text, placeholder, 0, cut);
  if (!head.stopped) {
    splitCounts.crossed += 1;
    idleLater(h);
    return head.output?.toString() ?? text;
  }
  const took = performance.now() - t0;
  const reply = answer(h, id, performance.now() + Math.max(splitPatience.minMs, splitPatience.factor * took));
  idleLater(h);
  let tail: string | undefined;
  if (reply && !('error' in reply)) {
    splitCounts.split += 1;
    rates.split = (performance.now() - start) / text.length;
    if (!(rates.split < rates.one)) paused = Number.isNaN(rates.one) ? Math.min(1, splitBackoff.texts) : splitBackoff.texts;
    tail = reply.pieces && joinPieces(text, reply.pieces);
  } else {
    splitCounts.late += 1;
    paused = splitBackoff.texts;
    tail = runFrom(patterns, text, placeholder, cut).output?.toString();
  }
  if (!head.output && tail === undefined) return text;
  return (head.output?.toString() ?? text.slice(0, cut)) + (tail ?? text.slice(cut));
}

function idleLater(h: Helper): void {
  clearTimeout(h.idle);
  h.idle = setTimeout(() => {
    if (helper === h) stopSplitWorker();
  }, IDLE_MS);
  h.idle.unref();
}
