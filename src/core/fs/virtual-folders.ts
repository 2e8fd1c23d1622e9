// Virtual workspaces: folders whose URI scheme is not `file:` (GitHub repositories through
// vscode-vfs, in-memory or remote file systems served by a FileSystemProvider). They have no path on
// the local disk, so the file tools address them by a synthetic POSIX root per folder (the folder
// URI's own path, `/owner/repo` for a GitHub repository), and the host maps those paths back to URIs.
//
// Decisions:
// - Virtual mode only when the window has no local folder. In a mixed window the local folders are
//   the workspace (exec runs there, the real path guard applies) and the virtual ones stay out of
//   reach, as before: one path could otherwise name a local file and a virtual one at once.
// - Roots never overlap: a folder whose URI path is `/`, or equals, holds or lies inside an earlier
//   root, gets its name (and a number) instead, so every synthetic path belongs to exactly one folder.

import * as path from 'node:path';

/** A workspace folder as the host sees it. */
export interface FolderInfo {
  /** The folder's URI, as a string (`vscode-vfs://github/owner/repo`, `memfs:/proj`). */
  uri: string;
  scheme: string;
  /** The URI's path component (`/owner/repo`). */
  uriPath: string;
  name: string;
  /** The local path, for `file:` folders. */
  fsPath?: string;
}

/** A virtual folder and the synthetic absolute root the file tools know it by. */
export interface VirtualFolder {
  /** POSIX absolute path, unique among the folders; what the tools print and accept. */
  root: string;
  name: string;
  /** The folder's URI: `root/rel` is `uri` joined with `rel`. */
  uri: string;
  scheme: string;
}

export interface WorkspacePlan {
  /** Local folders (path and name), the primary first; empty in virtual mode. */
  local: { path: string; name: string }[];
  /** Virtual folders the tools reach; non-empty only when there is no local folder. */
  virtual: VirtualFolder[];
  /** Virtual folders left out because the window also has local ones. */
  unreachable: FolderInfo[];
}

function cleanRoot(p: string): string {
  const n = path.posix.normalize(`/${p.replace(/\\/g, '/')}`);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

export function planWorkspace(folders: readonly FolderInfo[]): WorkspacePlan {
  const local = folders.filter((f) => f.scheme === 'file' && f.fsPath).map((f) => ({ path: f.fsPath!, name: f.name }));
  const others = folders.filter((f) => f.scheme !== 'file');
  if (local.length) return { local, virtual: [], unreachable: others };
  const taken: string[] = [];
  const clashes = (r: string) => r === '/' || taken.some((t) => t === r || r.startsWith(`${t}/`) || t.startsWith(`${r}/`));
  const virtual = others.map((f) => {
    let root = cleanRoot(f.uriPath);
    const named = cleanRoot(f.name.replace(/[/\\]/g, '_'));
    const fallback = named === '/' ? `/${f.scheme}` : named;
    if (clashes(root)) root = fallback;
    for (let i = 2; clashes(root); i++) root = `${fallback}-${i}`;
    taken.push(root);
    return { root, name: f.name, uri: f.uri, scheme: f.scheme };
  });
  return { local: [], virtual, unreachable: [] };
}

/** The folder holding a synthetic path and the path relative to it; undefined when none does. */
export function locateVirtual(folders: readonly VirtualFolder[], abs: string): { folder: VirtualFolder; rel: string } | undefined {
  const p = abs.replace(/\\/g, '/');
  for (const folder of folders) {
    const r = folder.root;
    const inside = p === r || p.startsWith(`${r}/`);
    if (inside) return { folder, rel: p === r ? '' : p.slice(r.length + 1) };
  }
  return undefined;
}
