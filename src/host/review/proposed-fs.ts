// The right-hand side of a review: proposed contents in memory, under `pincer-proposed:/<id>/<name>`,
// writable so the person can change the proposal before accepting it. Nothing here touches the disk.
import * as vscode from 'vscode';

export const PROPOSED_SCHEME = 'pincer-proposed';

export class ProposedFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, { data: Uint8Array; mtime: number; readonly: boolean }>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  /** Creates (or replaces) a proposal and returns its URI. */
  put(id: string, name: string, text: string, readonly = false): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${id}/${name}` });
    this.files.set(uri.path, { data: Buffer.from(text, 'utf8'), mtime: Date.now(), readonly });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    return uri;
  }

  text(uri: vscode.Uri): string | undefined {
    const f = this.files.get(uri.path);
    return f && Buffer.from(f.data).toString('utf8');
  }

  drop(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return {
      type: vscode.FileType.File, ctime: f.mtime, mtime: f.mtime, size: f.data.byteLength,
      permissions: f.readonly ? vscode.FilePermission.Readonly : undefined,
    };
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    // Proposals are flat: nothing to create.
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    if (f.readonly) throw vscode.FileSystemError.NoPermissions(uri);
    this.files.set(uri.path, { data: content, mtime: Date.now(), readonly: false });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('proposals cannot be renamed');
  }
}
