// The CLI's store: the same workspace database the editor keeps (memory, context files, sessions,
// checkpoints, "always" approvals), in --state DIR or else in a folder per workspace under the
// person's state directory — never inside the repository, where it would be committed, or read and
// rewritten by the very tools it records. The database starts its worker on first use only.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentRegistry } from '../core/agents/agent-registry';
import { DbApprovalStore, LazyApprovalStore } from '../core/exec/approval-store';
import { CheckpointStore } from '../core/fs/checkpoint-store';
import { memoryUserId, openMemoryServices, type MemoryServices } from '../core/memory/memory-services';
import type { PincerRuntime } from '../core/runtime';
import { SessionStore } from '../core/sessions/session-store';
import { Database } from '../core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../core/storage/workspace-migrations';

/**
 * Linux and the BSDs: $XDG_STATE_HOME (else ~/.local/state)/pincer/<id>; macOS: ~/Library/Application
 * Support/pincer/<id>; Windows: %LOCALAPPDATA%\pincer\<id>. The id is a hash of the workspace's real
 * path, so every way of naming one folder finds one store.
 */
export function defaultStateDir(workspace: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  const id = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  const base = platform === 'win32' ? env.LOCALAPPDATA || path.join(home, 'AppData', 'Local')
    : platform === 'darwin' ? path.join(home, 'Library', 'Application Support')
      : env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state');
  return path.join(base, 'pincer', id);
}

/** The bundle has the worker beside it (dist/); the compiled sources keep it under core/storage. */
function workerPath(): string {
  const beside = path.join(__dirname, 'storage-worker.js');
  return fs.existsSync(beside) ? beside : path.join(__dirname, '..', 'core', 'storage', 'storage-worker.js');
}

export class CliStore {
  private opening?: Promise<Database | undefined>;
  private memoryServices?: MemoryServices;
  private sessionStore?: SessionStore;
  private checkpointStore?: CheckpointStore;
  /** The default agent only: agent definitions are the editor's (its settings and agent files). */
  readonly agents = new AgentRegistry();
  readonly approvals = new LazyApprovalStore(async () => new DbApprovalStore(await this.required()));

  constructor(readonly dir: string, private readonly rt: PincerRuntime, private readonly warn: (m: string) => void) {}

  database(): Promise<Database | undefined> {
    this.opening ??= Database.open({
      dir: this.dir, workerPath: workerPath(), migrations: WORKSPACE_MIGRATIONS, onWarning: (m) => this.warn(`storage: ${m}`),
    }).catch((e: unknown) => {
      this.warn(`the database in ${this.dir} could not be opened (${(e as Error).message}); memory, sessions and checkpoints are unavailable.`);
      return undefined;
    });
    return this.opening;
  }

  async memory(): Promise<MemoryServices | undefined> {
    const db = await this.database();
    return db && (this.memoryServices ??= openMemoryServices(db, {
      agents: this.agents, embeddings: () => undefined, routedNames: () => this.rt.currentConfig.memory.routedContextFiles,
    }));
  }

  async sessions(): Promise<SessionStore | undefined> {
    const db = await this.database();
    return db && (this.sessionStore ??= new SessionStore(db, undefined, (t) => this.rt.scrubber.scrub(t)));
  }

  async checkpoints(): Promise<CheckpointStore | undefined> {
    const db = await this.database();
    return db && (this.checkpointStore ??= new CheckpointStore(db));
  }

  userId(): string {
    return memoryUserId(this.rt.currentConfig.memory.user);
  }

  /** Writes what is pending and stops the worker, if it was started. */
  async close(): Promise<void> {
    const db = await this.opening;
    await db?.close();
  }

  private async required(): Promise<Database> {
    const db = await this.database();
    if (!db) throw new Error(`the database in ${this.dir} could not be opened`);
    return db;
  }
}
