// Main-thread API of the storage layer. The database itself lives in a worker thread (started by
// open(), not at import), so the host's event loop never waits on sql.js, exports or fsync.
import { Worker } from 'node:worker_threads';
import type { Request, SerializedError, WorkerInit, WorkerMessage } from './protocol';
import type { Migration, OpenOptions, RunResult, SqlValue, StatementSpec } from './types';

export type { Migration, OpenOptions, RunResult, SqlValue, StatementSpec } from './types';

const DEFAULT_SNAPSHOT_THRESHOLD = 8 * 1024 * 1024;
const DEFAULT_LOCK_STALE_MS = 30_000;
const DEFAULT_LOCK_TIMEOUT_MS = 45_000;
/** How long a closed database's worker may take to end by itself before it is terminated. */
const CLOSE_EXIT_WAIT_MS = 5_000;

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

function toError(e: SerializedError): Error {
  const err = new Error(e.message);
  if (e.code) (err as NodeJS.ErrnoException).code = e.code;
  return err;
}

/**
 * One workspace database. Writes are journaled as SQL text plus parameters and replayed by other
 * windows and after a crash, so a write must be deterministic: pass times and random values as
 * parameters rather than calling datetime('now') or random() in the statement.
 */
export class Database {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private dead: Error | null = null;
  private closing: Promise<void> | null = null;
  private readonly warningList: string[] = [];

  /** Settles once the worker thread has ended, however it ended. */
  private readonly exited: Promise<void>;

  private constructor(
    private readonly worker: Worker,
    private readonly onWarning?: (message: string) => void,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
  }

  get warnings(): readonly string[] {
    return this.warningList;
  }

  static open(opts: OpenOptions): Promise<Database> {
    const init: WorkerInit = {
      dir: opts.dir,
      migrations: opts.migrations.map((m: Migration) => ({ version: m.version, name: m.name, sql: m.sql })),
      snapshotThresholdBytes: opts.snapshotThresholdBytes ?? DEFAULT_SNAPSHOT_THRESHOLD,
      wasmPath: opts.wasmPath,
      lockStaleMs: opts.lockStaleMs ?? DEFAULT_LOCK_STALE_MS,
      lockTimeoutMs: opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
    };
    return new Promise<Database>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = new Worker(opts.workerPath, { workerData: init });
      } catch (err) {
        reject(err);
        return;
      }
      const db = new Database(worker, opts.onWarning);
      let opened = false;
      worker.on('message', (msg: WorkerMessage) => {
        if (msg.kind === 'ready') {
          opened = true;
          db.updateRef();
          resolve(db);
        } else if (msg.kind === 'fatal') {
          db.fail(toError(msg.error));
          void worker.terminate();
          reject(toError(msg.error));
        } else db.onMessage(msg);
      });
      worker.on('error', (err) => {
        db.fail(err);
        if (!opened) reject(err);
      });
      worker.on('exit', (code) => {
        const err = new Error(`the storage worker exited (code ${code})`);
        db.fail(err);
        if (!opened) reject(err);
      });
    });
  }

  /** One durable write transaction: resolves once its journal record is on disk. */
  run(sql: string, params?: SqlValue[]): Promise<RunResult> {
    return this.request({ op: 'run', sql, params }) as Promise<RunResult>;
  }

  /** Several statements, atomically, as one durable journal record. */
  async transaction(statements: StatementSpec[]): Promise<void> {
    await this.request({ op: 'transaction', statements });
  }

  /**
   * One durable write transaction, then one read of what it left, answered together once the write
   * is durable: a caller that needs its write's outcome saves the round trip of a query() after it.
   * Rejects when the write fails (the read is not made); the read sees the write and any written
   * with it, never less.
   */
  transactionThenQuery<T = Record<string, SqlValue>>(statements: StatementSpec[], read: StatementSpec): Promise<T[]> {
    return this.request({ op: 'transaction', statements, read }) as Promise<T[]>;
  }

  /** One read statement, after catching up with other windows' writes; it cannot change anything. */
  query<T = Record<string, SqlValue>>(sql: string, params?: SqlValue[]): Promise<T[]> {
    return this.request({ op: 'query', sql, params }) as Promise<T[]>;
  }

  async snapshot(): Promise<void> {
    await this.request({ op: 'snapshot' });
  }

  /** Snapshots if the journal is long enough to be worth it, releases everything, ends the worker. */
  close(): Promise<void> {
    if (!this.closing) {
      this.closing = (async () => {
        let answered = false;
        try {
          if (!this.dead) answered = (await this.request({ op: 'close' }, true), true);
        } finally {
          this.dead ??= new Error('the database is closed');
          // A worker that answered the close lets its own thread end. Terminating it instead could
          // cut into V8's background work for the thread (sql.js's WebAssembly is still being
          // optimised soon after opening), which has aborted the whole process on Node 20; the
          // timer only bounds a thread that does not end by itself.
          if (answered) await this.endedWithin(CLOSE_EXIT_WAIT_MS);
          await this.worker.terminate();
        }
      })();
    }
    return this.closing;
  }

  private request(body: DistributiveOmit<Request, 'id'>, closing = false): Promise<unknown> {
    if (this.dead) return Promise.reject(this.dead);
    if (this.closing && !closing) return Promise.reject(new Error('the database is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.updateRef();
      this.worker.postMessage({ ...body, id } as Request);
    });
  }

  private onMessage(msg: WorkerMessage): void {
    if (msg.kind === 'warning') {
      this.warningList.push(msg.message);
      try {
        this.onWarning?.(msg.message);
      } catch {
        // A failing warning sink must not take the database down with it.
      }
    } else if (msg.kind === 'reply') {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      this.updateRef();
      if (msg.ok) p.resolve(msg.result);
      else p.reject(toError(msg.error));
    }
  }

  private fail(err: Error): void {
    this.dead ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private endedWithin(ms: number): Promise<void> {
    // Held open until then: a process with nothing else to do (the CLI after its answer) would
    // otherwise exit in the middle of close(), before its caller's next step.
    this.worker.ref();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)).unref());
    return Promise.race([this.exited, late]).finally(() => clearTimeout(timer));
  }

  /** Keeps the process alive only while requests are in flight, so an idle database never holds it open. */
  private updateRef(): void {
    if (this.pending.size) this.worker.ref();
    else this.worker.unref();
  }
}
