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
//
// Those direct reads are synchronous for a regular file up to SYNC_READ_MAX_BYTES: an async read is
// four trips through libuv's thread pool (open, fstat, read, close), each a wait for a core on a busy
// machine, for a file the disk answers in microseconds. A bigger file, or anything not a regular file
// (a FIFO would block the read), is read asynchronously as before.
import fs, { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import type { FileStat, WorkspaceFs } from '../core/fs/types';
import { uriOfPath } from './virtual-folders';

/** Small enough to read without yielding the extension host: well under a millisecond from the page cache. */
const SYNC_READ_MAX_BYTES = 256 * 1024;

/** A regular file of at most SYNC_READ_MAX_BYTES, read at once; undefined: anything else, or it failed. */
function readSmallFileSync(file: string): Uint8Array | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > SYNC_READ_MAX_BYTES) return undefined;
    // One byte more than the size: a file that grew since the fstat is read the slow way, whole.
    const buf = Buffer.allocUnsafe(st.size + 1);
    let n = 0;
    for (;;) {
      const got = fs.readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) return buf.subarray(0, n);
      n += got;
      if (n === buf.length) return undefined;
    }
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

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
      const data = readSmallFileSync(uri.fsPath) ?? await fsp.readFile(uri.fsPath).catch(() => undefined);
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
      // One syscall: synchronous, as the path guard's checks before it are.
      let st: fs.Stats | undefined;
      try {
        st = fs.lstatSync(uri.fsPath);
      } catch {
        st = undefined;
      }
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
