// WorkspaceFs over vscode.workspace.fs: the tools read and list through VS Code's file service, so
// remote windows (SSH, WSL, containers) work where the files are. Writes normally land through the
// review (a WorkspaceEdit); writeFile here serves tools that write outside the review flow.
// Paths map to URIs through uriOfPath, so a virtual workspace's folders (a FileSystemProvider's
// scheme) are read and listed the same way.
import * as vscode from 'vscode';
import type { FileStat, WorkspaceFs } from '../core/fs/types';
import { uriOfPath } from './virtual-folders';

function kind(t: vscode.FileType): FileStat['type'] {
  if (t & vscode.FileType.SymbolicLink) return 'symlink';
  if (t & vscode.FileType.Directory) return 'directory';
  if (t & vscode.FileType.File) return 'file';
  return 'other';
}

export class VscodeWorkspaceFs implements WorkspaceFs {
  private uri(abs: string): vscode.Uri {
    return uriOfPath(abs);
  }

  async readFile(abs: string): Promise<Uint8Array> {
    return vscode.workspace.fs.readFile(this.uri(abs));
  }

  async writeFile(abs: string, data: Uint8Array): Promise<void> {
    await vscode.workspace.fs.writeFile(this.uri(abs), data);
  }

  async stat(abs: string): Promise<FileStat | undefined> {
    try {
      const s = await vscode.workspace.fs.stat(this.uri(abs));
      return { type: kind(s.type), size: s.size, mtime: s.mtime };
    } catch (e) {
      if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') return undefined;
      throw e;
    }
  }

  async readDirectory(abs: string): Promise<[string, FileStat['type']][]> {
    return (await vscode.workspace.fs.readDirectory(this.uri(abs))).map(([n, t]) => [n, kind(t)]);
  }

  async delete(abs: string): Promise<void> {
    await vscode.workspace.fs.delete(this.uri(abs), { useTrash: true });
  }

  async rename(from: string, to: string): Promise<void> {
    await vscode.workspace.fs.rename(this.uri(from), this.uri(to), { overwrite: false });
  }
}
