// Opens the workspace database on first use (never during activation: sql.js and its worker cost
// tens of milliseconds) in the workspace's storage folder, or the global one without a folder.
// A database that cannot be opened is reported once; Pincer keeps working without persistence.
import * as vscode from 'vscode';
import { Database } from '../core/storage/database';
import { CHECKPOINT_MIGRATIONS } from '../core/fs/checkpoint-store';
import { TOOL_LOG_MIGRATIONS, ToolLogStore } from '../core/storage/tool-log-store';
import { MEMORY_MIGRATIONS } from '../core/memory/memory-schema';
import { CONTEXT_MIGRATIONS } from '../core/memory/context-schema';
import { REVISION_MIGRATIONS } from '../core/memory/revision-store';
import { EXEC_APPROVAL_MIGRATIONS } from '../core/exec/approval-store';
import { SESSION_MIGRATIONS } from '../core/sessions/session-store';

export class StorageHost implements vscode.Disposable {
  private opening?: Promise<Database | undefined>;

  constructor(private readonly context: vscode.ExtensionContext, private readonly warn: (m: string) => void) {}

  get dir(): string {
    return (this.context.storageUri ?? this.context.globalStorageUri).fsPath;
  }

  database(): Promise<Database | undefined> {
    this.opening ??= Database.open({
      dir: this.dir,
      workerPath: this.context.asAbsolutePath('dist/storage-worker.js'),
      migrations: [...TOOL_LOG_MIGRATIONS, ...CHECKPOINT_MIGRATIONS, ...MEMORY_MIGRATIONS, ...CONTEXT_MIGRATIONS, ...REVISION_MIGRATIONS, ...EXEC_APPROVAL_MIGRATIONS, ...SESSION_MIGRATIONS],
      onWarning: (m) => this.warn(`storage: ${m}`),
    }).catch((e: unknown) => {
      this.warn(`the workspace database in ${this.dir} could not be opened (${(e as Error).message}); tool history is not saved in this window.`);
      return undefined;
    });
    return this.opening;
  }

  async toolLogStore(): Promise<ToolLogStore | undefined> {
    const db = await this.database();
    return db && new ToolLogStore(db);
  }

  async dispose(): Promise<void> {
    const db = await this.opening;
    await db?.close();
  }
}
