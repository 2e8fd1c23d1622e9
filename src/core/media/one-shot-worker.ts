// A job on a worker thread of its own, started for it and ended after: CPU-heavy work on untrusted bytes
// (decoding an image, converting a Word document) blocks that thread, never the extension host's, a
// cancelled call ends the worker mid-job, and heap caps keep a hostile input from exhausting the host.
import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/** What every such worker posts back: its result, or why it failed. */
export type WorkerReply<T> = ({ ok: true } & T) | { ok: false; error: string };

/**
 * Runs `script` (a file beside this module: dist/<script> in the bundle, the compiled file in tests) with
 * `request` as its workerData; resolves its answer, rejects with its error, when it dies (`what` names
 * it), or when `signal` aborts (the worker is ended).
 */
export function runOneShotWorker<T>(script: string, request: unknown, what: string, opts: { signal?: AbortSignal; resourceLimits?: ResourceLimits } = {}): Promise<{ ok: true } & T> {
  const { signal } = opts;
  if (signal?.aborted) return Promise.reject(new Error('cancelled'));
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, script), { workerData: request, resourceLimits: opts.resourceLimits });
    const onAbort = () => void worker.terminate();
    signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      f();
    };
    worker.once('message', (reply: WorkerReply<T>) => settle(() => (reply.ok ? resolve(reply) : reject(new Error(reply.error)))));
    worker.once('error', (e) => settle(() => reject(e)));
    worker.once('exit', (code) => settle(() => reject(new Error(signal?.aborted ? 'cancelled' : `the ${what} stopped (exit code ${code})`))));
  });
}
