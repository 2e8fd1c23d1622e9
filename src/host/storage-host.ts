// Opens the workspace database on first use (never during activation: sql.js and its worker cost
// tens of milliseconds) in the workspace's storage folder, or the global one without a folder.
// A database that cannot be opened is reported once; Pincer keeps working without persistence.
import * as vscode from 'vscode';
import { Database } from '../core/storage/database';
import { ToolLogStore } from '../core/storage/tool-log-store';
import { WORKSPACE_MIGRATIONS } from '../core/storage/workspace-migrations';

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
      migrations: [...WORKSPACE_MIGRATIONS],
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
