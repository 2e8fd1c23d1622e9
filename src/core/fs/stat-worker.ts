// lstat and directory listings of many paths on worker threads: glob's newest-first ordering stats
// every match (8,000 on the glob benchmark) and its walk lists every folder (3,000), and on the host
// thread those calls would wait for the walk, which keeps that thread busy. On threads of their own
// they run beside it. Workers are started on first use and kept (unreferenced, so they never hold a
// process open); if none can run, the caller does the work on its own thread.
//
// Messages are few and flat, because a message costs more than the syscalls it carries: a batch of
// paths goes as one string (paths joined by NUL, which no path holds), and a batch of listings comes
// back as one string of names (joined by '/', which no name holds) with typed arrays beside it; a
// structured clone of one string is a copy, of thousands of strings a walk over each.
//
// The workers' code is a string evaluated by `new Worker(src, { eval: true })`, so it survives
// bundling (see grep-worker-source.ts). Protocol:
//   { id, op: 'stat', paths } answers { id, types, sizes, mtimes }: a Uint8Array of TYPE_CODES
//     indexes (0: missing or unreadable) and two Float64Arrays;
//   { id, op: 'list', paths } answers { id, counts, names, types }: per folder the number of its
//     entries (-1: could not be listed), their names in order, and a TYPE_CODES index per entry.
import { Worker } from 'node:worker_threads';
import type { FileStat } from './types';

const TYPE_CODES: readonly (FileStat['type'] | undefined)[] = [undefined, 'file', 'directory', 'symlink', 'other'];

const SOURCE = `
'use strict';
const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');
const code = (e) => (e.isSymbolicLink() ? 3 : e.isFile() ? 1 : e.isDirectory() ? 2 : 4);
function stat(id, paths) {
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
    types[i] = code(st);
    sizes[i] = st.size;
    mtimes[i] = st.mtimeMs;
  }
  parentPort.postMessage({ id, types, sizes, mtimes }, [types.buffer, sizes.buffer, mtimes.buffer]);
}
function list(id, dirs) {
  const counts = new Int32Array(dirs.length);
  const names = [];
  const codes = [];
  for (let i = 0; i < dirs.length; i++) {
    let entries;
    try {
      entries = fs.readdirSync(dirs[i], { withFileTypes: true });
    } catch {
      counts[i] = -1;
      continue;
    }
    counts[i] = entries.length;
    for (const e of entries) {
      names.push(e.name);
      codes.push(code(e));
    }
  }
  const types = Uint8Array.from(codes);
  parentPort.postMessage({ id, counts, names: names.join('/'), types }, [counts.buffer, types.buffer]);
}
parentPort.on('message', ({ id, op, n, paths }) => {
  const list_ = n === 0 ? [] : paths.split('\\u0000');
  if (op === 'list') list(id, list_);
  else stat(id, list_);
});
`;

interface StatReply {
  id: number;
  types: Uint8Array;
  sizes: Float64Array;
  mtimes: Float64Array;
}

interface ListReply {
  id: number;
  counts: Int32Array;
  names: string;
  types: Uint8Array;
}

type Entries = [name: string, type: FileStat['type']][];
type Pending = { resolve: (m: StatReply & ListReply) => void; reject: (e: Error) => void };

interface Slot {
  worker: Worker;
  pending: Map<number, Pending & { cost: number }>;
  /** The cost of the requests it has not answered yet. */
  queued: number;
}

/**
 * Workers kept. Each request goes to the one with the least work queued, so a walk's listings and its
 * matches' stats share both cores: with the stats on one worker and the listings alternating, that
 * worker had twice the other's work and the glob waited for it.
 */
const WORKERS = 2;
/** What one path costs a worker, roughly (glob benchmark: a listing ~20 µs, an lstat ~5 µs). */
const COST: Record<'stat' | 'list', number> = { stat: 1, list: 4 };
const slots: (Slot | undefined)[] = new Array(WORKERS);
const queuedOn = (i: number): number => slots[i]?.queued ?? 0;
let nextId = 1;
let turn = 0;

/** The worker with the least work queued (ties taken in turn). */
function leastQueued(): number {
  let best = turn++ % WORKERS;
  for (let k = 1; k < WORKERS; k++) {
    const i = (best + k) % WORKERS;
    if (queuedOn(i) < queuedOn(best)) best = i;
  }
  return best;
}

function start(index: number): Slot {
  const worker = new Worker(SOURCE, { eval: true });
  const slot: Slot = { worker, pending: new Map(), queued: 0 };
  const failAll = (err: Error) => {
    if (slots[index] === slot) slots[index] = undefined;
    for (const p of slot.pending.values()) p.reject(err);
    slot.pending.clear();
    slot.queued = 0;
  };
  worker.on('message', (m: StatReply & ListReply) => {
    const p = slot.pending.get(m.id);
    if (!p) return;
    slot.pending.delete(m.id);
    slot.queued -= p.cost;
    if (!slot.pending.size) worker.unref();
    p.resolve(m);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the stat worker exited (code ${code})`)));
  worker.unref();
  return slot;
}

function ask(op: 'stat' | 'list', paths: readonly string[]): Promise<StatReply & ListReply> {
  return new Promise((resolve, reject) => {
    const index = leastQueued();
    let slot: Slot;
    try {
      slot = slots[index] ??= start(index);
    } catch (err) {
      reject(err as Error);
      return;
    }
    const id = nextId++;
    const cost = COST[op] * paths.length;
    slot.pending.set(id, { resolve, reject, cost });
    slot.queued += cost;
    slot.worker.ref();
    slot.worker.postMessage({ id, op, n: paths.length, paths: paths.join('\u0000') });
  });
}

/** lstat of each path on a worker thread (undefined: missing or unreadable); rejects if the worker cannot run. */
export async function statOffThread(paths: readonly string[]): Promise<(FileStat | undefined)[]> {
  const m = await ask('stat', paths);
  const out: (FileStat | undefined)[] = new Array(m.types.length);
  for (let i = 0; i < out.length; i++) {
    const type = TYPE_CODES[m.types[i]];
    out[i] = type && { type, size: m.sizes[i], mtime: m.mtimes[i] };
  }
  return out;
}

/**
 * The entries of each folder (names and types, links not followed; undefined for one that cannot be
 * listed), read on a worker thread; rejects if the worker cannot run.
 */
export async function listOffThread(dirs: readonly string[]): Promise<(Entries | undefined)[]> {
  const m = await ask('list', dirs);
  const names = m.names === '' ? [] : m.names.split('/');
  const out: (Entries | undefined)[] = new Array(dirs.length);
  let at = 0;
  for (let i = 0; i < dirs.length; i++) {
    const n = m.counts[i];
    if (n < 0) {
      out[i] = undefined;
      continue;
    }
    const entries: Entries = new Array(n);
    for (let j = 0; j < n; j++, at++) entries[j] = [names[at], TYPE_CODES[m.types[at]] ?? 'other'];
    out[i] = entries;
  }
  return out;
}
