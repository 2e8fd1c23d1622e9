// This window's workspace folders as the toolset sees them (core/fs/virtual-folders.ts), and the
// way back from a path the file tools use to the URI VS Code reads and writes: the file itself for a
// local path, the folder's URI joined with the relative path for a virtual folder's synthetic one.
// The review, the checkpoints and the WorkspaceFs port all map through uriOfPath, so a diff, a
// restore and a read name the same document.
import * as vscode from 'vscode';
import { locateVirtual, planWorkspace, type WorkspacePlan } from '../core/fs/virtual-folders';

let cached: { folders: readonly vscode.WorkspaceFolder[] | undefined; plan: WorkspacePlan } | undefined;

/** The plan for the current folders (recomputed when VS Code hands out a new folder list). */
export function workspacePlan(): WorkspacePlan {
  const folders = vscode.workspace.workspaceFolders;
  if (!cached || cached.folders !== folders) {
    cached = {
      folders,
      plan: planWorkspace((folders ?? []).map((f) => ({
        uri: f.uri.toString(), scheme: f.uri.scheme, uriPath: f.uri.path, name: f.name, fsPath: f.uri.scheme === 'file' ? f.uri.fsPath : undefined,
      }))),
    };
  }
  return cached.plan;
}

export function uriOfPath(abs: string): vscode.Uri {
  const virtual = workspacePlan().virtual;
  const hit = virtual.length ? locateVirtual(virtual, abs) : undefined;
  if (!hit) return vscode.Uri.file(abs);
  const base = vscode.Uri.parse(hit.folder.uri);
  return hit.rel ? vscode.Uri.joinPath(base, ...hit.rel.split('/')) : base;
}
