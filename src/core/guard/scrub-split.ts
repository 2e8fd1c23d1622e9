// A long text is scrubbed on two threads: cut into chunks at line breaks, this thread and a worker
// thread (scrub-worker.ts) each claim the next chunk as they finish one (scrub-chunks.ts), and the
// outputs are joined in order. The caller gets the same string as from one pass: a chunk's scan
// stops at its end only where a scan started fresh there makes exactly the rest of the output
// (runFrom says when); otherwise it goes on to the end itself and later chunks are dropped. The
// worker gets the whole text, so the rules' lookbehinds and checks see before a cut what they see
// in one pass.
//
// `scrub` is synchronous (its callers are), so this thread waits for the worker's answers with
// Atomics.wait on a counter the worker bumps after each, and takes them with receiveMessageOnPort:
// no turn of the event loop is needed. The worker is started by the first long text (which is
// scrubbed here alone, while it starts and compiles the rules), kept unreferenced (it never holds a
// process open) and stopped after a quiet minute. If it cannot start, fails, is late or hangs
// (splitPatience), this thread scans its chunks itself. Wall-clock time halves at best; CPU time grows
// a little (the text is copied to the worker, each thread's first chunk searches the patterns to their
// next match, and the worker's output is copied back).
//
// The text goes to the worker as its UTF-16 code units in a SharedArrayBuffer kept between jobs,
// not in the message: posting a 10 MB string serializes it on this thread before its own part can
// start (about 12 ms here, on fresh memory each time, and as much again to deserialize it) where
// writing it into the kept buffer costs about 2 ms; the worker makes its string from the buffer
// (about 2.5 ms, scrub-worker.ts) while this thread scans. A text whose code units all fit in a
// byte could go as Latin-1, half the bytes, but telling which texts do costs a scan (6-22 ms on a
// two-byte string of such units), more than the byte saved per unit. The buffer is written again only once every chunk of the
// last job was claimed (this thread finished the job), and the worker copies a job's text before it
// claims a chunk of it, so a copy made while the next text is written is of a job it can no longer
// claim from, and is dropped.
import fs from 'node:fs';
import path from 'node:path';
import type { MessagePort, Worker } from 'node:worker_threads';
import { runCombined, type Combined } from './scrub-combine';
import type { ChunkResult } from './scrub-chunks';
import type { Pieces } from './scrub-output';

/** Shorter texts stay on the calling thread: the copies and the hand-over would eat the gain. */
export const SPLIT_MIN = 512 * 1024;

/**
 * What the worker is asked: to claim chunks of the text (scrub-chunks.ts) until none is left, for
 * these registered values, and answer each.
 */
export interface SplitJob {
  readonly id: number;
  /** The text as UTF-16 code units (little-endian) in its first `length` * 2 bytes. */
  readonly buffer: SharedArrayBuffer;
  readonly length: number;
  /** The chunks' bounds (chunkBounds). */
  readonly bounds: readonly number[];
  readonly placeholder: string;
  readonly values: readonly string[];
}

/**
 * One chunk's scrubbed text, as pieces of the text (the answer stays small: mostly offsets), or
 * undefined when nothing was replaced there; `done` once the worker claims no more of the job.
 */
export type SplitReply =
  | { readonly id: number; readonly chunk: number; readonly pieces: Pieces | undefined; readonly stopped: boolean }
  | { readonly id: number; readonly done: true }
  | { readonly id: number; readonly error: string };

/** The worker's start-up data: its end of the channel and the shared signal words. */
export interface SplitWorkerData {
  readonly port: MessagePort;
  readonly signal: SharedArrayBuffer;
}

/**
 * Signal words: answers posted so far (bumped after each), 1 once the worker has compiled the rules,
 * and the claim word of the current job (claimWord).
 */
export const SIGNAL_ANSWERS = 0;
export const SIGNAL_READY = 1;
export const SIGNAL_CLAIM = 2;

/** How long an unused worker is kept. */
const IDLE_MS = 60_000;
/**
 * How long a chunk the worker claimed is waited for, once this thread has no chunk left to claim,
 * before it scans the chunk itself: `factor` times this thread's mean time per chunk, at least
 * `minMs`. The worker is then busy with its last chunk (or has not started): scanning it here costs
 * about a chunk too, so a short wait is enough. After one wait runs out, none is waited for.
 * A worker not ready `hungMs` after it was started, or not done with a job `hungMs` after it was
 * posted (a 10 MB job takes well under a second even on a busy machine), is taken for hung: long texts
 * stay on this thread from then on; one stuck in a job is terminated, one still starting (it may be in
 * V8's compiles, where stopping a thread can abort the process) only has its channel closed.
 */
export const splitPatience = { factor: 2, minMs: 1, hungMs: 10_000 };

interface Helper {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly signal: Int32Array;
  /** The id of the job whose answer has not been taken yet. */
  pending: number | undefined;
  /** When the worker was started, or the pending job posted (performance.now()). */
  since: number;
  /** Texts it took part in; the first is not timed (slower: the chunk walk's code is not yet optimized). */
  texts: number;
  /** The buffer the texts are handed over in, grown as longer texts come. */
  buffer: Buffer | undefined;
  idle: NodeJS.Timeout | undefined;
}

/**
 * node:worker_threads and scrub-chunks.ts, loaded with the first long text: loading the first costs
 * about 1.4 ms, and the scrubber is loaded on the start-up path, where most processes never see a
 * long text. A literal path, so that esbuild bundles scrub-chunks.ts.
 */
let threads: typeof import('node:worker_threads') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
const workerThreads = (): typeof import('node:worker_threads') => (threads ??= require('node:worker_threads') as typeof import('node:worker_threads'));
let chunksModule: typeof import('./scrub-chunks') | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
const chunks = (): typeof import('./scrub-chunks') => (chunksModule ??= require('./scrub-chunks') as typeof import('./scrub-chunks'));
/** receiveMessageOnPort; only called once a worker was started (so the module is loaded). */
const receive = (port: MessagePort): { message: unknown } | undefined => workerThreads().receiveMessageOnPort(port);

let helper: Helper | undefined;
/** Set when no worker can run here (no script beside this module, it failed or hung): stay on one thread. */
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
 * How long texts went (for the benches and tests): on two threads (the worker answered chunks);
 * with a chunk's scan going on past its end to the end of the text (a match across the cut, also
 * counted as how the text went otherwise); with a chunk the worker claimed scanned here, its answer
 * late or never coming; on this one alone because the worker claimed no chunk; on this one alone
 * because the machine was found busy (splitBackoff). And workers ended as hung (splitPatience).
 */
export const splitCounts = { split: 0, crossed: 0, late: 0, alone: 0, paused: 0, abandoned: 0 };

/**
 * On a busy machine the two threads wait for cores, and a text split in two can take longer than
 * on one thread (measured here at load 5-7: 118-154 ms on two threads against 78-104 ms on one,
 * medians of 21 rounds of the 10 MB bench text). So the time per character of split texts is
 * compared with that of long texts scrubbed on this thread alone, the median of the last `kept` of
 * each (one slow split, a moment's load, does not stop splitting): when splitting was not faster,
 * the next `texts` long texts are scrubbed on this thread alone, each measured, then a split is
 * tried again. With no one-thread time yet, one long text is scrubbed alone to get one.
 * whenSplitReady ends a pause (tests and benches that want a split).
 */
export const splitBackoff = { texts: 4, kept: 3 };
/** Milliseconds per character of the last long texts on two threads, and on this one alone, latest last. */
const rates: { split: number[]; one: number[] } = { split: [], one: [] };
/** Notes a text's time per character in `kept` (rates.split or .one); whether splitting was not the faster. */
function slower(kept: number[], since: number, chars: number): boolean {
  kept.push((performance.now() - since) / chars);
  kept.splice(0, kept.length - splitBackoff.kept);
  const middle = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1] ?? Number.NaN;
  return !(middle(rates.split) < middle(rates.one));
}
let paused = 0;

/** Atomics.waitAsync (Node 16+), which this project's TypeScript library does not declare. */
interface AtomicsWaitAsync {
  waitAsync(a: Int32Array, index: number, value: number, timeout: number): { async: boolean; value: Promise<string> | string };
}
/** A worker stuck in a job, being terminated (whenSplitReady waits for its end). */
let ending: Promise<unknown> | undefined;

/**
 * Starts the worker if it is not running, and resolves once it has compiled the rules and answered
 * every job it was given (true), or when it cannot run here or was found hung (false, once a hung
 * worker has ended). Long texts do not wait for it: this is for tests and benches, which want the
 * next long text scrubbed on two threads.
 */
export async function whenSplitReady(): Promise<boolean> {
  paused = 0;
  if (!helper && !disabled) start();
  const h = helper;
  if (h) {
    let onExit: (() => void) | undefined;
    const exited = new Promise<void>((resolve) => h.worker.once('exit', (onExit = resolve)));
    // Held open meanwhile: an unreferenced worker and a pending waitAsync keep no process alive.
    h.worker.ref();
    try {
      for (;;) {
        // Read before draining: an answer posted after the drain bumps the counter past `seen`.
        const seen = Atomics.load(h.signal, SIGNAL_ANSWERS);
        const ready = helper === h && readyHelper() === h;
        if (helper !== h || (ready && h.pending === undefined)) break;
        // Until the word changes, or the worker would be taken for hung.
        const w = (Atomics as unknown as AtomicsWaitAsync).waitAsync(h.signal, ready ? SIGNAL_ANSWERS : SIGNAL_READY, ready ? seen : 0,
          Math.max(0, h.since + splitPatience.hungMs - performance.now()) + 1);
        if (w.async) await Promise.race([w.value, exited]);
      }
    } finally {
      h.worker.off('exit', onExit as () => void);
      h.worker.unref();
    }
  }
  await ending;
  return h !== undefined && helper === h && Atomics.load(h.signal, SIGNAL_READY) === 1;
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
  const shared = new SharedArrayBuffer(12);
  let worker: Worker;
  try {
    // No warnings printed from the worker: it calls vm.measureMemory, flagged experimental (scrub-worker.ts).
    // Not this process's options: a worker refuses some (V8 flags such as --expose-gc), which would stop it.
    worker = new Worker(workerPath, { workerData: { port: port2, signal: shared } satisfies SplitWorkerData, transferList: [port2], execArgv: ['--no-warnings'] });
  } catch {
    disabled = true;
    return;
  }
  const h: Helper = { worker, port: port1, signal: new Int32Array(shared), pending: undefined, since: performance.now(), texts: 0, idle: undefined, buffer: undefined };
  const gone = (): void => {
    if (helper === h) helper = undefined;
    clearTimeout(h.idle);
    h.port.close();
  };
  worker.on('error', () => ((disabled = true), gone()));
  worker.on('exit', gone);
  worker.unref();
  port1.unref();
  helper = h;
}

/** Takes answers that came after their job was given up; the job is over once its `done` came. */
function drain(h: Helper): void {
  for (let m = receive(h.port); m; m = receive(h.port)) {
    const reply = m.message as SplitReply;
    if (reply.id === h.pending && !('chunk' in reply)) h.pending = undefined;
  }
}

/**
 * The worker, when it has compiled the rules; starts it on first use, and ends it when it is taken
 * for hung (splitPatience.hungMs). It need not be free: a job posted while it finishes an earlier
 * one is joined late, or left to this thread.
 */
function readyHelper(): Helper | undefined {
  const h = helper;
  if (disabled || !h) {
    if (!disabled) start();
    return undefined;
  }
  if (h.pending !== undefined) drain(h);
  const ready = Atomics.load(h.signal, SIGNAL_READY) === 1;
  if ((!ready || h.pending !== undefined) && performance.now() - h.since > splitPatience.hungMs) {
    disabled = true;
    splitCounts.abandoned += 1;
    stopSplitWorker();
    if (ready) ending = h.worker.terminate().catch(() => undefined);
    return undefined;
  }
  return ready ? h : undefined;
}

/**
 * Takes the worker's answers to job `id` into `got` (per chunk) until chunk `want` is in or
 * `deadline` (performance.now()) passes; returns whether the worker gave up the job (an error).
 */
function collect(h: Helper, id: number, got: Map<number, ChunkResult>, want: number, deadline: number): boolean {
  for (;;) {
    const seen = Atomics.load(h.signal, SIGNAL_ANSWERS);
    for (let m = receive(h.port); m; m = receive(h.port)) {
      const reply = m.message as SplitReply;
      if (reply.id !== id) continue;
      if ('chunk' in reply) got.set(reply.chunk, { pieces: reply.pieces, stopped: reply.stopped });
      else {
        h.pending = undefined;
        if ('error' in reply) return true;
      }
    }
    if (got.has(want) || h.pending !== id) return false;
    const left = deadline - performance.now();
    if (left <= 0 || helper !== h) return false;
    try {
      Atomics.wait(h.signal, SIGNAL_ANSWERS, seen, left);
    } catch {
      // A thread that may not block (a browser's main thread) cannot wait: scrub on one thread.
      disabled = true;
      return true;
    }
  }
}

/**
 * `text` scrubbed by `patterns` on two threads, or undefined when that cannot be done now (no
 * worker ready, no place to cut): the caller then scrubs it alone. Both threads claim chunks
 * (scrub-chunks.ts) until none is left; then this thread takes the worker's answers in chunk order,
 * waiting for a chunk still being scanned there at most splitPatience, and scans itself any chunk
 * the worker has not answered by then.
 */
export function scrubSplit(patterns: readonly Combined[], text: string, placeholder: string, values: readonly string[]): string | undefined {
  if (paused > 0) {
    paused -= 1;
    splitCounts.paused += 1;
    const t = performance.now();
    const out = runCombined(patterns, text, placeholder);
    slower(rates.one, t, text.length);
    return out;
  }
  const h = readyHelper();
  if (!h) return undefined;
  const { chunkBounds, ChunkWalk, claimChunk, claimWord, endClaims, joinChunks } = chunks();
  const bounds = chunkBounds(text);
  const count = bounds.length - 1;
  if (count < 2) return undefined;
  const start = performance.now();
  const bytes = text.length * 2;
  if (!h.buffer || h.buffer.length < bytes) h.buffer = Buffer.from(new SharedArrayBuffer(bytes + (bytes >> 3)));
  if (h.buffer.write(text, 0, 'utf16le') !== bytes) return undefined;
  const id = nextId++;
  h.pending = id;
  h.since = performance.now();
  clearTimeout(h.idle);
  Atomics.store(h.signal, SIGNAL_CLAIM, claimWord(id, 0));
  h.port.postMessage({ id, buffer: h.buffer.buffer as SharedArrayBuffer, length: text.length, bounds, placeholder, values } satisfies SplitJob);
  const results: ChunkResult[] = [];
  const mine = new ChunkWalk(patterns, text, placeholder);
  let scanned = 0;
  for (let k = claimChunk(h.signal, SIGNAL_CLAIM, id, count); k >= 0; k = claimChunk(h.signal, SIGNAL_CLAIM, id, count)) {
    const r = mine.scan(bounds[k], bounds[k + 1]);
    results[k] = r.output ? { output: r.output, stopped: r.stopped } : { stopped: r.stopped };
    scanned += 1;
    if (!r.stopped) {
      endClaims(h.signal, SIGNAL_CLAIM, id, count);
      break;
    }
  }
  const perChunk = (performance.now() - start) / Math.max(1, scanned);
  const got = new Map<number, ChunkResult>();
  let redo: InstanceType<typeof ChunkWalk> | undefined;
  let patient = true;
  let worker = 0;
  let redone = 0;
  let crossed = false;
  for (let k = 0; k < count; k++) {
    if (!results[k]) {
      if (patient && collect(h, id, got, k, performance.now() + Math.max(splitPatience.minMs, splitPatience.factor * perChunk))) patient = false;
      const answered = got.get(k);
      if (answered) {
        results[k] = answered;
        worker += 1;
      } else {
        // Not answered in time: scanned here, in rising order, so one walk serves every such chunk.
        patient = false;
        const r = (redo ??= new ChunkWalk(patterns, text, placeholder)).scan(bounds[k], bounds[k + 1]);
        results[k] = r.output ? { output: r.output, stopped: r.stopped } : { stopped: r.stopped };
        redone += 1;
      }
    }
    if (!results[k].stopped) {
      crossed = true;
      results.length = k + 1;
      break;
    }
  }
  idleLater(h);
  const out = joinChunks(text, bounds, results);
  if (crossed) splitCounts.crossed += 1;
  if (redone > 0) splitCounts.late += 1;
  else if (worker > 0) splitCounts.split += 1;
  else splitCounts.alone += 1;
  if ((redone > 0 || worker > 0) && h.texts++ > 0 && slower(rates.split, start, text.length)) {
    paused = rates.one.length === 0 ? Math.min(1, splitBackoff.texts) : splitBackoff.texts;
  }
  return out;
}

function idleLater(h: Helper): void {
  clearTimeout(h.idle);
  h.idle = setTimeout(() => {
    if (helper === h) stopSplitWorker();
  }, IDLE_MS);
  h.idle.unref();
}
