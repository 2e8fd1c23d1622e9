// Messages between Database (main thread) and storage-worker. Everything here is structured-cloneable.
import type { Migration, RunResult, SqlValue, StatementSpec } from './types';

export interface WorkerInit {
  dir: string;
  migrations: Migration[];
  snapshotThresholdBytes: number;
  wasmPath?: string;
  lockStaleMs: number;
  lockTimeoutMs: number;
}

export type Request =
  | { id: number; op: 'run'; sql: string; params?: SqlValue[] }
  // With `read`: that query's rows are the reply, read once the write is durable (the write failing fails it).
  | { id: number; op: 'transaction'; statements: StatementSpec[]; read?: StatementSpec }
  | { id: number; op: 'query'; sql: string; params?: SqlValue[] }
  | { id: number; op: 'snapshot' }
  | { id: number; op: 'close' };

export interface SerializedError {
  message: string;
  code?: string;
}

export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'fatal'; error: SerializedError }
  | { kind: 'warning'; message: string }
  | { kind: 'reply'; id: number; ok: true; result: RunResult | Record<string, SqlValue>[] | null }
  | { kind: 'reply'; id: number; ok: false; error: SerializedError };

export function serializeError(err: unknown): SerializedError {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return typeof code === 'string' ? { message: err.message, code } : { message: err.message };
  }
  return { message: String(err) };
}
