// lstat of many files on a worker thread: glob's newest-first ordering stats every match (8,000 on the
// glob benchmark, ~70 ms of synchronous calls), and on the host thread those calls would wait for the
// walk, which keeps that thread busy. On a thread of its own they run beside the walk. One worker per
// process, started on first use and kept (unreferenced, so it never holds a process open); if it
// cannot run, the caller stats on its own thread.
//
// The worker's code is a string evaluated by `new Worker(src, { eval: true })`, so it survives
// bundling (see grep-worker-source.ts). Protocol: { id, paths } answers { id, types, sizes, mtimes }:
// a Uint8Array of TYPE_CODES indexes (0: missing or unreadable) and two Float64Arrays.
import { Worker } from 'node:worker_threads';
import type { FileStat } from './types';

const TYPE_CODES: readonly (FileStat['type'] | undefined)[] = [undefined, 'file', 'directory', 'symlink', 'other'];

const SOURCE = `
'use strict';
const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, paths }) => {
  const n = paths.length;
  const types = new Uint8Array(n);
  const sizes = new Float64Array(n);
  const mtimes = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let st;
    try {
      st = fs.lstatSync(paths[i], { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (!st) continue;
    types[i] = st.isSymbolicLink() ? 3 : st.isFile() ? 1 : st.isDirectory() ? 2 : 4;
    sizes[i] = st.size;
    mtimes[i] = st.mtimeMs;
  }
  parentPort.postMessage({ id, types, sizes, mtimes }, [types.buffer, sizes.buffer, mtimes.buffer]);
});
`;

interface Reply {
  id: number;
  types: Uint8Array;
  sizes: Float64Array;
  mtimes: Float64Array;
}

type Pending = { resolve: (r: (FileStat | undefined)[]) => void; reject: (e: Error) => void };

let shared: { worker: Worker; pending: Map<number, Pending>; failed?: Error } | undefined;
let nextId = 1;

function start(): NonNullable<typeof shared> {
  const worker = new Worker(SOURCE, { eval: true });
  const state: NonNullable<typeof shared> = { worker, pending: new Map() };
  const failAll = (err: Error) => {
    state.failed = err;
    if (shared === state) shared = undefined;
    for (const p of state.pending.values()) p.reject(err);
    state.pending.clear();
  };
  worker.on('message', (m: Reply) => {
    const p = state.pending.get(m.id);
    if (!p) return;
    state.pending.delete(m.id);
    if (!state.pending.size) worker.unref();
    const out: (FileStat | undefined)[] = new Array(m.types.length);
    for (let i = 0; i < out.length; i++) {
      const type = TYPE_CODES[m.types[i]];
      out[i] = type && { type, size: m.sizes[i], mtime: m.mtimes[i] };
    }
    p.resolve(out);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the stat worker exited (code ${code})`)));
  worker.unref();
  return state;
}

/** lstat of each path on the shared worker thread (undefined: missing or unreadable); rejects if the worker cannot run. */
export function statOffThread(paths: readonly string[]): Promise<(FileStat | undefined)[]> {
  return new Promise((resolve, reject) => {
    try {
      shared ??= start();
    } catch (err) {
      reject(err as Error);
      return;
    }
    const id = nextId++;
    shared.pending.set(id, { resolve, reject });
    shared.worker.ref();
    shared.worker.postMessage({ id, paths });
  });
}
