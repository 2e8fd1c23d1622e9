// Worker-thread entry: owns the sql.js database so that exports, snapshot writes and fsyncs never
// block the extension host's event loop. Bundled alone: imports only sql.js, node builtins and
// this folder's small modules.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import initSqlJs from 'sql.js';
import { StorageEngine } from './engine';
import { serializeError, type Request, type WorkerInit, type WorkerMessage } from './protocol';
import type { RunResult, StatementSpec } from './types';

const init = workerData as WorkerInit;
const port = parentPort!;

function post(msg: WorkerMessage): void {
  port.postMessage(msg);
}

/** The wasm next to this file (the bundle), an explicit path, or the installed sql.js package. */
function wasmBinary(): ArrayBuffer {
  const candidates = [init.wasmPath, path.join(__dirname, 'sql-wasm.wasm')];
  const found = candidates.find((c): c is string => !!c && fs.existsSync(c));
  let file = found;
  if (!file) {
    try {
      // Built from parts so a bundler leaves the lookup to run time instead of warning about it.
      file = require.resolve(path.posix.join('sql.js', 'dist', 'sql-wasm.wasm'));
    } catch {
      throw new Error(`sql-wasm.wasm was found neither at ${candidates.filter(Boolean).join(' nor ')} nor in an installed sql.js`);
    }
  }
  const b = fs.readFileSync(file);
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
}

let engine: StorageEngine | null = null;
let snapshotQueued = false;
let snapshotFailing = false;
const queue: Request[] = [];
let draining = false;

/** Most writes committed together: a bound on how long the first of them waits for the others' statements to run. */
const MAX_GROUP = 64;

type WriteRequest = Extract<Request, { op: 'run' | 'transaction' }>;
const isWrite = (r: Request | undefined): r is WriteRequest => r?.op === 'run' || r?.op === 'transaction';

function handle(req: Request): unknown {
  const e = engine!;
  switch (req.op) {
    case 'query':
      return e.query(req.sql, req.params);
    case 'snapshot':
      e.snapshot();
      return null;
    case 'close':
      engine = null;
      e.close();
      return null;
    default:
      throw new Error(`unexpected request ${req.op}`);
  }
}

/**
 * The writes waiting at the head of the queue, committed together (group commit): writes that
 * arrived while the last fsync ran share the next one, instead of each waiting for its own.
 */
function handleWrites(first: WriteRequest): void {
  const batch = [first];
  while (batch.length < MAX_GROUP && isWrite(queue[0])) batch.push(queue.shift() as WriteRequest);
  let results: (RunResult | Error)[];
  try {
    results = engine!.writeGroup(batch.map((r) => (r.op === 'transaction' ? r.statements : [r.params ? { sql: r.sql, params: r.params } : { sql: r.sql }])));
  } catch (err) {
    // The lock or the catch-up failed: no write of the group landed.
    results = batch.map(() => (err instanceof Error ? err : new Error(String(err))));
  }
  batch.forEach((r, i) => {
    const res = results[i];
    if (res instanceof Error) post({ kind: 'reply', id: r.id, ok: false, error: serializeError(res) });
    else if (r.op === 'transaction' && r.read) replyRead(r.id, r.read);
    else post({ kind: 'reply', id: r.id, ok: true, result: r.op === 'run' ? res : null });
  });
}

/** The read asked for after a write that is now durable. */
function replyRead(id: number, read: StatementSpec): void {
  try {
    post({ kind: 'reply', id, ok: true, result: engine!.query(read.sql, read.params) });
  } catch (err) {
    const message = `the write is durable, but the read after it failed: ${serializeError(err).message}`;
    post({ kind: 'reply', id, ok: false, error: { message } });
  }
}

function drain(): void {
  draining = false;
  const req = queue.shift();
  if (!req) return;
  try {
    if (!engine) throw new Error('the database is closed');
    if (isWrite(req)) handleWrites(req);
    else post({ kind: 'reply', id: req.id, ok: true, result: handle(req) as never });
  } catch (err) {
    post({ kind: 'reply', id: req.id, ok: false, error: serializeError(err) });
  }
  // After close nothing more is asked: closing the port lets this thread end by itself.
  if (req.op === 'close') {
    port.close();
    return;
  }
  // A snapshot waits until the reply is out, so the write that crossed the threshold is not delayed.
  if (engine?.wantsSnapshot() && !snapshotQueued) {
    snapshotQueued = true;
    setImmediate(backgroundSnapshot);
  }
  schedule();
}

function backgroundSnapshot(): void {
  snapshotQueued = false;
  try {
    engine?.snapshotIfDue();
    snapshotFailing = false;
  } catch (err) {
    // Said once per failing streak: it is retried after every write until it works.
    if (!snapshotFailing) {
      post({ kind: 'warning', message: `Pincer storage: a snapshot failed and will be retried; writes stay durable in the journal: ${serializeError(err).message}` });
    }
    snapshotFailing = true;
  }
}

function schedule(): void {
  if (!draining && queue.length) {
    draining = true;
    setImmediate(drain);
  }
}

async function start(): Promise<void> {
  try {
    // A failure surfaces as open()'s rejection; emscripten's own stderr lines would only be noise.
    const SQL = await initSqlJs({ wasmBinary: wasmBinary(), printErr: () => undefined } as Parameters<typeof initSqlJs>[0]);
    const e = new StorageEngine(SQL, {
      dir: init.dir,
      migrations: init.migrations,
      snapshotThresholdBytes: init.snapshotThresholdBytes,
      lockStaleMs: init.lockStaleMs,
      lockTimeoutMs: init.lockTimeoutMs,
      warn: (message) => post({ kind: 'warning', message }),
    });
    e.open();
    engine = e;
    post({ kind: 'ready' });
    schedule();
  } catch (err) {
    post({ kind: 'fatal', error: serializeError(err) });
    port.close();
  }
}

port.on('message', (req: Request) => {
  queue.push(req);
  if (engine) schedule();
});
void start();
