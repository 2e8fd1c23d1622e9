// The pincer-memory: file system: memory and context files open, edit and save in ordinary editors
// (and show in the explorer when the folder is added). Every operation goes through RoutedFiles,
// the same service the file tools' interceptors use, so an editor and the model can never see two
// different SOUL.md files. Files the model may not change for this user (a predefined agent's
// shared files) are read-only here; their shared level under /.agent/ is where a person edits them.
import * as vscode from 'vscode';
import type { RoutedFiles, RoutedEntry } from '../../core/memory/routed-files';
import { MemoryError, type Scope } from '../../core/memory/types';
import { AGENT_LEVEL_DIR, memoryUri, parseMemoryUri, type MemoryLocation } from './memory-uri';

export interface MemoryFsDeps {
  /** Opens the store on first use; undefined when storage could not be opened (already reported). */
  routed(): Promise<RoutedFiles | undefined>;
  userId(): string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Folders that always exist; a folder under memory/ exists while it holds documents. */
function isFixedDir(loc: MemoryLocation): boolean {
  return loc.path === '' || loc.path === 'memory' || (loc.level === 'effective' && loc.path === AGENT_LEVEL_DIR);
}

const DIR: vscode.FileStat = { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };

export class MemoryFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private subscribed?: { dispose(): void };

  constructor(private readonly deps: MemoryFsDeps) {}

  private async service(): Promise<RoutedFiles> {
    const routed = await this.deps.routed();
    if (!routed) throw vscode.FileSystemError.Unavailable('Pincer\'s memory store could not be opened; see the Pincer Tool Log.');
    // Edits made by the model (or another editor) show in open documents at once.
    this.subscribed ??= routed.onDidChange.on((e) => {
      if (e.userId && e.userId !== this.deps.userId()) return;
      const uris = [memoryUri(e.agentId, e.path)];
      if (!e.userId) uris.push(memoryUri(e.agentId, e.path, 'agent'));
      this.changed.fire(uris.map((uri) => ({ type: vscode.FileChangeType.Changed, uri })));
    });
    return routed;
  }

  private who(loc: MemoryLocation): Scope {
    return { agentId: loc.agentId, userId: this.deps.userId() };
  }

  /** The effective view writes where the model would (the person's own level); /.agent/ is the shared level. */
  private level(loc: MemoryLocation): 'user' | 'agent' {
    return loc.level === 'agent' ? 'agent' : 'user';
  }

  watch(): vscode.Disposable {
    // Changes are pushed from RoutedFiles.onDidChange; there is nothing to poll.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const loc = parseMemoryUri(uri);
    if (isFixedDir(loc)) return DIR;
    const routed = await this.service();
    const file = await routed.read(this.who(loc), loc.path, { level: loc.level });
    if (!file) {
      if (await this.isMemoryFolder(routed, loc)) return DIR;
      throw vscode.FileSystemError.FileNotFound(uri);
    }
    const writable = routed.writable(this.who(loc), loc.path, 'person', this.level(loc));
    const mtime = file.updatedAt ?? 0;
    return {
      type: vscode.FileType.File, ctime: mtime, mtime, size: encoder.encode(file.content).length,
      ...(writable.ok ? {} : { permissions: vscode.FilePermission.Readonly }),
    };
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const loc = parseMemoryUri(uri);
    const routed = await this.service();
    const entries: RoutedEntry[] = await routed.list(this.who(loc), loc.path, { level: loc.level });
    const out = new Map<string, vscode.FileType>();
    const prefix = loc.path ? `${loc.path}/` : '';
    for (const e of entries) {
      const name = e.path.startsWith(prefix) ? e.path.slice(prefix.length).split('/')[0] : e.path;
      if (name) out.set(name, e.directory || name !== e.path.slice(prefix.length) ? vscode.FileType.Directory : vscode.FileType.File);
    }
    if (loc.level === 'effective' && loc.path === '') out.set(AGENT_LEVEL_DIR, vscode.FileType.Directory);
    return [...out].sort(([a], [b]) => a.localeCompare(b));
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const loc = parseMemoryUri(uri);
    const routed = await this.service();
    const file = await routed.read(this.who(loc), loc.path, { level: loc.level });
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return encoder.encode(file.content);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): Promise<void> {
    const loc = parseMemoryUri(uri);
    if (isFixedDir(loc)) throw vscode.FileSystemError.FileIsADirectory(uri);
    const routed = await this.service();
    if (await this.isMemoryFolder(routed, loc)) throw vscode.FileSystemError.FileIsADirectory(uri);
    const exists = !!(await routed.read(this.who(loc), loc.path, { level: loc.level }));
    if (!exists && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
    if (exists && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    let text: string;
    try {
      text = decoder.decode(content);
    } catch {
      throw vscode.FileSystemError.NoPermissions('Memory and context files hold UTF-8 text; this content is not valid UTF-8.');
    }
    await this.guarded(uri, () => routed.write(this.who(loc), loc.path, text, { actor: 'person', level: this.level(loc) }));
    this.changed.fire([{ type: exists ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  async delete(uri: vscode.Uri): Promise<void> {
    const loc = parseMemoryUri(uri);
    const folderMessage = 'Delete the documents inside a memory folder one by one; a folder exists while it holds documents.';
    if (isFixedDir(loc)) throw vscode.FileSystemError.NoPermissions(folderMessage);
    const routed = await this.service();
    if (await this.isMemoryFolder(routed, loc)) throw vscode.FileSystemError.NoPermissions(folderMessage);
    const gone = await this.guarded(uri, () => routed.delete(this.who(loc), loc.path, { actor: 'person', level: this.level(loc) }));
    if (!gone) throw vscode.FileSystemError.FileNotFound(uri);
    this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  async rename(from: vscode.Uri, to: vscode.Uri, options: { overwrite: boolean }): Promise<void> {
    const content = await this.readFile(from);
    await this.writeFile(to, content, { create: true, overwrite: options.overwrite });
    await this.delete(from);
  }

  createDirectory(uri: vscode.Uri): void {
    const loc = parseMemoryUri(uri);
    // Memory folders exist while they hold documents: creating one is accepted and changes nothing.
    if (loc.path === 'memory' || loc.path.startsWith('memory/')) return;
    throw vscode.FileSystemError.NoPermissions('Only folders under memory/ can exist in Pincer\'s memory store.');
  }

  private async isMemoryFolder(routed: RoutedFiles, loc: MemoryLocation): Promise<boolean> {
    if (!loc.path.startsWith('memory/')) return false;
    return (await routed.list(this.who(loc), loc.path, { level: loc.level })).length > 0;
  }

  private async guarded<T>(uri: vscode.Uri, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof MemoryError) {
        if (e.code === 'not-found') throw vscode.FileSystemError.FileNotFound(uri);
        throw vscode.FileSystemError.NoPermissions(e.message);
      }
      throw e;
    }
  }

  dispose(): void {
    this.subscribed?.dispose();
    this.changed.dispose();
  }
}
