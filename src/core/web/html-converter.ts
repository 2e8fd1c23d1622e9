// web_fetch's HTML → markdown conversion, off the calling thread. A 1 MB page takes tens of
// milliseconds, but a hostile one can take far longer or need a large heap: on the extension host's
// thread that would freeze every extension, and its heap is everyone's. One worker
// (web-convert-worker.js) is started by the first page, converts one page at a time, and is stopped
// after a quiet minute. Cancelling the page being converted stops the worker
// (a synchronous conversion cannot be interrupted otherwise); a worker that dies fails only the page
// it was converting, with the reason, and the next page starts a new one.
import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { PageMarkdown } from './html-to-markdown';

export interface ConvertRequest {
  id: number;
  html: string;
  url: string;
}

export type ConvertReply = { id: number; page: PageMarkdown } | { id: number; error: string };

export interface HtmlConverterOptions {
  /** The worker script. Default: web-convert-worker.js beside this module (in dist/, beside the bundle). */
  workerPath?: string;
  /** How long an unused worker is kept, in ms (default one minute). */
  idleMs?: number;
  /** The worker's heap caps: a hostile page can exhaust the worker, never the caller's process. */
  resourceLimits?: ResourceLimits;
}

interface Job {
  id: number;
  html: string;
  url: string;
  resolve: (page: PageMarkdown) => void;
  reject: (e: Error) => void;
}

const DEFAULT_IDLE_MS = 60_000;
const DEFAULT_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 1024 };

export class HtmlConverter {
  private worker: Worker | undefined;
  private running: Job | undefined;
  private queue: Job[] = [];
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 1;
  private disposed = false;
  private readonly workerPath: string;

  constructor(private readonly opts: HtmlConverterOptions = {}) {
    this.workerPath = opts.workerPath ?? path.join(__dirname, 'web-convert-worker.js');
  }

  /** The page's title and main content as markdown; rejects when `signal` aborts first. */
  convert(html: string, url: string, signal?: AbortSignal): Promise<PageMarkdown> {
    if (this.disposed) return Promise.reject(new Error('the HTML converter was shut down'));
    if (signal?.aborted) return Promise.reject(new Error('the conversion was cancelled'));
    return new Promise<PageMarkdown>((resolve, reject) => {
      const onAbort = () => this.cancel(job);
      const job: Job = {
        id: this.nextId++, html, url,
        resolve: (p) => { signal?.removeEventListener('abort', onAbort); resolve(p); },
        reject: (e) => { signal?.removeEventListener('abort', onAbort); reject(e); },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  /** Whether a worker is running now (started by a page, not yet stopped for idleness). */
  get workerRunning(): boolean {
    return this.worker !== undefined;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.idleTimer);
    const waiting = [...(this.running ? [this.running] : []), ...this.queue];
    this.running = undefined;
    this.queue = [];
    this.stopWorker();
    for (const job of waiting) job.reject(new Error('the HTML converter was shut down'));
  }

  private pump(): void {
    if (this.running) return;
    const job = this.queue.shift();
    if (!job) {
      this.worker?.unref(); // an idle worker never keeps a process (the CLI) alive
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.stopWorker(), this.opts.idleMs ?? DEFAULT_IDLE_MS).unref();
      return;
    }
    clearTimeout(this.idleTimer);
    this.running = job;
    const worker = this.ensureWorker();
    worker.ref(); // a page being converted does
    const request: ConvertRequest = { id: job.id, html: job.html, url: job.url };
    worker.postMessage(request);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerPath, { resourceLimits: this.opts.resourceLimits ?? DEFAULT_LIMITS });
    worker.on('message', (reply: ConvertReply) => {
      const job = this.running;
      if (worker !== this.worker || !job || job.id !== reply.id) return;
      this.running = undefined;
      if ('page' in reply) job.resolve(reply.page);
      else job.reject(new Error(`the HTML could not be converted: ${reply.error}`));
      this.pump();
    });
    // 'error' (an uncaught exception, the heap cap reached) comes before 'exit'; whichever is first tells.
    worker.on('error', (e) => this.lost(worker, `the HTML converter failed (${e.message})`));
    worker.on('exit', (code) => this.lost(worker, `the HTML converter stopped unexpectedly (exit code ${code})`));
    this.worker = worker;
    return worker;
  }

  /** The worker died on its own: the page it was converting fails with why; the queue goes on with a new one. */
  private lost(worker: Worker, why: string): void {
    if (worker !== this.worker) return; // one this converter stopped itself
    this.worker = undefined;
    const job = this.running;
    this.running = undefined;
    job?.reject(new Error(`${why}; the next page starts a new converter`));
    this.pump();
  }

  private cancel(job: Job): void {
    if (this.running === job) {
      this.running = undefined;
      this.stopWorker();
    } else {
      this.queue = this.queue.filter((j) => j !== job);
    }
    job.reject(new Error('the conversion was cancelled'));
    this.pump();
  }

  private stopWorker(): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }
}

let shared: HtmlConverter | undefined;

/** The process's converter (web_fetch's default): its worker stops when idle, so nothing disposes it. */
export function sharedHtmlConverter(): HtmlConverter {
  shared ??= new HtmlConverter();
  return shared;
}
