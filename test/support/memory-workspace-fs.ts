// A WorkspaceFs kept in memory, standing in for a FileSystemProvider's folder in core tests of
// virtual workspaces: POSIX paths, folders implied by the files under them and made by mkdir.
import * as path from 'node:path';
import type { FileStat, WorkspaceFs } from '../../src/core/fs/types';

export class MemoryWorkspaceFs implements WorkspaceFs {
  readonly files = new Map<string, Uint8Array>();
  private readonly dirs = new Set<string>(['/']);
  /** Every path stat was asked about, in order (the lexical guard must never ask outside the roots). */
  readonly statted: string[] = [];

  constructor(tree: Record<string, string> = {}) {
    for (const [p, text] of Object.entries(tree)) this.put(p, text);
  }

  put(p: string, text: string): void {
    this.files.set(p, Buffer.from(text, 'utf8'));
    for (let d = path.posix.dirname(p); !this.dirs.has(d); d = path.posix.dirname(d)) this.dirs.add(d);
  }

  mkdir(p: string): void {
    for (let d = p; !this.dirs.has(d); d = path.posix.dirname(d)) this.dirs.add(d);
  }

  text(p: string): string | undefined {
    const b = this.files.get(p);
    return b && Buffer.from(b).toString('utf8');
  }

  async readFile(abs: string): Promise<Uint8Array> {
    const b = this.files.get(abs);
    if (!b) throw Object.assign(new Error(`${abs}: no such file`), { code: this.dirs.has(abs) ? 'EISDIR' : 'ENOENT' });
    return b;
  }

  async writeFile(abs: string, data: Uint8Array): Promise<void> {
    if (this.dirs.has(abs)) throw Object.assign(new Error(`${abs} is a folder`), { code: 'EISDIR' });
    this.files.set(abs, Buffer.from(data));
    this.mkdir(path.posix.dirname(abs));
  }

  async stat(abs: string): Promise<FileStat | undefined> {
    this.statted.push(abs);
    const b = this.files.get(abs);
    if (b) return { type: 'file', size: b.length, mtime: 1 };
    return this.dirs.has(abs) ? { type: 'directory', size: 0, mtime: 1 } : undefined;
  }

  async readDirectory(abs: string): Promise<[string, FileStat['type']][]> {
    if (!this.dirs.has(abs)) throw Object.assign(new Error(`${abs}: no such folder`), { code: 'ENOENT' });
    const out = new Map<string, FileStat['type']>();
    const prefix = abs === '/' ? '/' : `${abs}/`;
    for (const d of this.dirs) if (d.startsWith(prefix) && d !== abs && !d.slice(prefix.length).includes('/')) out.set(d.slice(prefix.length), 'directory');
    for (const f of this.files.keys()) if (f.startsWith(prefix) && !f.slice(prefix.length).includes('/')) out.set(f.slice(prefix.length), 'file');
    return [...out];
  }

  async delete(abs: string): Promise<void> {
    this.files.delete(abs);
  }

  async rename(from: string, to: string): Promise<void> {
    const b = this.files.get(from);
    if (!b) throw Object.assign(new Error(`${from}: no such file`), { code: 'ENOENT' });
    this.files.delete(from);
    await this.writeFile(to, b);
  }
}
