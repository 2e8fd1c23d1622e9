// Public shapes of the storage layer, shared by the main-thread API and the worker.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export type SqlValue = string | number | null | Uint8Array;

export interface StatementSpec {
  sql: string;
  params?: SqlValue[];
}

export interface OpenOptions {
  /** Directory that holds the database files; created if missing. */
  dir: string;
  /** Absolute path of the compiled worker script (storage-worker.js). */
  workerPath: string;
  migrations: readonly Migration[];
  /** Recovered corruption, a stolen stale lock, …: the host shows these to the user. */
  onWarning?: (message: string) => void;
  /** The journal is folded into a new snapshot once it grows past this many bytes (default 8 MB). */
  snapshotThresholdBytes?: number;
  /** Where sql-wasm.wasm lives, when neither next to the worker nor resolvable from it. */
  wasmPath?: string;
  /** A lock whose owner has not refreshed it for this long is stolen (default 30 s). */
  lockStaleMs?: number;
  /** How long a write waits for another window's lock before failing (default 45 s). */
  lockTimeoutMs?: number;
}

export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}
