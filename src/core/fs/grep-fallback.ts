// grep without ripgrep: the walk and the reading happen here, the model's regex runs in a worker
// thread. V8's backtracking engine can take exponential time (`^(\w+\s?)*$` on a 27-character line:
// 347 ms, tripling every two characters), and on the extension host's thread that would freeze the
// whole editor. A watchdog terminates the worker when it stops answering.
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { GrepCollector, GrepQuery } from './grep-collect';
import { GREP_WORKER_SOURCE } from './grep-worker-source';
import { walkFiles, type WalkedFile } from './grep-walk';
import type { WorkspaceFs } from './types';

export interface FallbackOptions {
  fs: WorkspaceFs;
  isDenied(abs: string): boolean;
  root: string;
  /** The file or directory to search (canonical, inside root). */
  target: string;
  targetIsFile: boolean;
  query: GrepQuery;
  /** Regex source and flags, already known to compile. */
  regex: { source: string; flags: string };
  collector: GrepCollector;
  /** Matches wanted at most (the worker stops a file after one more, so "more exist" is known). */
  limit: number;
  signal: AbortSignal;
  deadline?: number;
  /** How long the worker may go without finishing a file before it is terminated. */
  regexTimeoutMs: number;
}

export interface FallbackOutcome {
  end: 'done' | 'stopped' | 'cancelled' | 'deadline' | 'regex-timeout' | 'worker-error';
  /** For a worker-error: what went wrong. */
  error?: string;
  /** The file the worker was stuck on, for a regex-timeout. */
  slowFile?: string;
  unreadable: number;
}

type ScanReply = { binary: true } | { binary?: false; hits: number[] };

class Stop extends Error {
  constructor(readonly end: 'cancelled' | 'deadline' | 'regex-timeout' | 'worker-error', detail?: string) {
    super(detail ?? end);
  }
}

/** One worker, requests answered in order; a watchdog runs while any request is outstanding. */
class RegexWorker {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { name: string; resolve(r: ScanReply): void; reject(e: Error): void }>();
  private seq = 0;
  private watchdog: NodeJS.Timeout | undefined;
  private dead: Stop | undefined;
  private ready = false;

  constructor(regex: { source: string; flags: string }, private readonly timeoutMs: number) {
    this.worker = new Worker(GREP_WORKER_SOURCE, {
      eval: true,
      workerData: regex,
      // A runaway match must not take the extension host's memory with it.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    this.worker.on('message', (m: { id: number; ready?: true } & ScanReply) => {
      if (m.ready) {
        this.ready = true;
        this.arm();
        return;
      }
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      this.arm();
      w?.resolve(m);
    });
    this.worker.on('error', (e) => this.kill(new Stop('worker-error', e instanceof Error ? e.message : String(e))));
  }

  /** `name` is the file's: files are read in parallel, so the one posted first is not always the one awaited. */
  scan(bytes: Uint8Array, max: number, name: string): Promise<ScanReply> {
    if (this.dead) return Promise.reject(this.dead);
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { name, resolve, reject });
      if (this.waiting.size === 1) this.arm();
      this.worker.postMessage({ id, bytes, max });
    });
  }

  /** (Re)starts the watchdog for the oldest outstanding request, or stops it when none is left. */
  private arm(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    // The worker answers in posting order, so the oldest request is the one it is stuck on.
    const oldest = this.waiting.values().next().value?.name;
    this.watchdog = this.ready && oldest !== undefined ? setTimeout(() => this.kill(new Stop('regex-timeout', oldest)), this.timeoutMs) : undefined;
  }

  kill(why: Stop): void {
    if (this.dead) return;
    this.dead = why;
    if (this.watchdog) clearTimeout(this.watchdog);
    void this.worker.terminate();
    for (const w of this.waiting.values()) w.reject(why);
    this.waiting.clear();
  }
}

/** Feeds one file's matches, with their context lines, to the collector the way rg streams them. */
function emitFile(o: FallbackOptions, rel: string, bytes: Uint8Array, hits: number[]): boolean {
  const c = o.collector;
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // as the worker and ripgrep do
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const { before, after } = o.query;
  const ctx = (from: number, to: number) => {
    for (let n = from; n <= to; n++) if (!c.addContext(n, lines[n - 1])) return false;
    return true;
  };
  c.beginFile(rel);
  let emitted = 0;
  let prev = 0;
  for (let k = 0; k < hits.length; k += 2) {
    const line = hits[k];
    if (prev && !ctx(emitted + 1, Math.min(prev + after, line - 1))) return false;
    emitted = Math.max(emitted, prev ? Math.min(prev + after, line - 1) : 0);
    if (!ctx(Math.max(emitted + 1, line - before), line - 1)) return false;
    if (!c.addMatch(line, lines[line - 1] ?? '', hits[k + 1])) return false;
    emitted = prev = line;
  }
  if (prev && !ctx(emitted + 1, Math.min(prev + after, lines.length))) return false;
  c.endFile();
  return true;
}

const READ_AHEAD = 4;

export async function grepWithWorker(o: FallbackOptions): Promise<FallbackOutcome> {
  const worker = new RegexWorker(o.regex, o.regexTimeoutMs);
  const rel = (abs: string) => path.relative(o.root, abs).split(path.sep).join('/');
  const onAbort = () => worker.kill(new Stop('cancelled'));
  o.signal.addEventListener('abort', onAbort, { once: true });
  const deadlineTimer = o.deadline !== undefined ? setTimeout(() => worker.kill(new Stop('deadline')), Math.max(0, o.deadline - Date.now())) : undefined;
  let unreadable = 0;
  const files: AsyncIterator<WalkedFile> = o.targetIsFile
    ? (async function* () { yield { abs: o.target, rel: rel(o.target) }; })()
    : walkFiles({ fs: o.fs, root: o.root, start: o.target, includeIgnored: o.query.includeIgnored, glob: o.query.glob, isDenied: o.isDenied, signal: o.signal });
  const job = async (f: WalkedFile) => {
    let bytes: Uint8Array;
    try {
      bytes = await o.fs.readFile(f.abs, o.signal);
    } catch {
      unreadable++;
      return undefined;
    }
    const reply = worker.scan(bytes, o.limit + 1, f.rel);
    // Rejected when the worker is terminated; only the reply being waited for reports it.
    reply.catch(() => undefined);
    return { f, bytes, reply };
  };
  const inflight: ReturnType<typeof job>[] = [];
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && inflight.length < READ_AHEAD) {
        const next = await files.next();
        if (next.done) exhausted = true;
        else inflight.push(job(next.value));
      }
      const head = inflight.shift();
      if (!head) return { end: 'done', unreadable };
      const got = await head;
      if (!got) continue;
      const reply = await got.reply;
      if (reply.binary || !reply.hits.length) continue;
      if (!emitFile(o, got.f.rel, got.bytes, reply.hits)) return { end: 'stopped', unreadable };
    }
  } catch (e) {
    if (e instanceof Stop) return { end: e.end, slowFile: e.end === 'regex-timeout' ? e.message : undefined, error: e.end === 'worker-error' ? e.message : undefined, unreadable };
    throw e;
  } finally {
    o.signal.removeEventListener('abort', onAbort);
    if (deadlineTimer) clearTimeout(deadlineTimer);
    worker.kill(new Stop('cancelled'));
  }
}
