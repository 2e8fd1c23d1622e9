// The CLI's store: the same workspace database the editor keeps (memory, context files, sessions,
// checkpoints, "always" approvals), in --state DIR or else in a folder per workspace under the
// person's state directory — never inside the repository, where it would be committed, or read and
// rewritten by the very tools it records. The database starts its worker on first use only.
import { AgentRegistry } from '../core/agents/agent-registry';
import { DbApprovalStore, LazyApprovalStore } from '../core/exec/approval-store';
import { CheckpointStore } from '../core/fs/checkpoint-store';
import { memoryUserId, openMemoryServices, type MemoryServices } from '../core/memory/memory-services';
import type { PincerRuntime } from '../core/runtime';
import { SessionStore } from '../core/sessions/session-store';
import { Database } from '../core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../core/storage/workspace-migrations';
import { storageWorkerPath } from './cli-state-paths';

export { defaultStateDir } from './cli-state-paths';

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
      dir: this.dir, workerPath: storageWorkerPath(), migrations: WORKSPACE_MIGRATIONS, onWarning: (m) => this.warn(`storage: ${m}`),
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
