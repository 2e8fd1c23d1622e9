// WorkspaceFs over vscode.workspace.fs: the tools read and list through VS Code's file service, so
// remote windows (SSH, WSL, containers) work where the files are. Writes normally land through the
// review (a WorkspaceEdit); writeFile here serves tools that write outside the review flow.
// Paths map to URIs through uriOfPath, so a virtual workspace's folders (a FileSystemProvider's
// scheme) are read and listed the same way.
//
// A `file:` URI is served in this process by VS Code's own disk provider (node's fs, on the disk of
// the extension host: the remote's in a remote window), but every vscode.workspace.fs call on it
// first waits for a round trip to the window's main thread ($ensureActivation of the scheme's
// extensions) — measured ~55 ms for the first tool call of a window whose workbench is still busy
// starting. So readFile and stat of a local path read the disk directly, as that provider would; a
// path that fails that way (missing, unreadable) or is a symbolic link goes through
// vscode.workspace.fs as before, so errors and the link's stat are VS Code's own.
import { promises as fsp } from 'node:fs';
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
    const uri = this.uri(abs);
    if (uri.scheme === 'file') {
      const data = await fsp.readFile(uri.fsPath).catch(() => undefined);
      if (data) return data;
    }
    return vscode.workspace.fs.readFile(uri);
  }

  async writeFile(abs: string, data: Uint8Array): Promise<void> {
    await vscode.workspace.fs.writeFile(this.uri(abs), data);
  }

  async stat(abs: string): Promise<FileStat | undefined> {
    const uri = this.uri(abs);
    if (uri.scheme === 'file') {
      // The disk provider's answer for anything but a link: lstat equals stat there, mtime in ms.
      const st = await fsp.lstat(uri.fsPath).catch(() => undefined);
      if (st && !st.isSymbolicLink()) return { type: st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other', size: st.size, mtime: st.mtime.getTime() };
    }
    try {
      const s = await vscode.workspace.fs.stat(uri);
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
