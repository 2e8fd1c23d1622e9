// The file tools in a window: the path guard over the workspace folders and the pincer.fs settings
// (Pincer's own storage always denied), reads through vscode.workspace.fs, writes through the review,
// grep through the ripgrep that ships inside VS Code. Rebuilt when settings or folders change.
import * as os from 'os';
import * as vscode from 'vscode';
import { createFsTools } from '../core/fs/fs-tools';
import { PathGuard } from '../core/fs/path-guard';
import { locateRipgrep } from '../core/fs/ripgrep-locate';
import type { EditReviewer, FsToolDeps } from '../core/fs/types';
import type { PincerRuntime } from '../core/runtime';
import type { Tool } from '../core/tools/types';
import { VscodeWorkspaceFs } from './vscode-fs';

/** `rebuild` must run after the runtime took new settings (the host's settings watcher calls it). */
export function registerFsTools(
  context: vscode.ExtensionContext, rt: PincerRuntime, reviewer: EditReviewer,
  /** Puts the memory and context-file interceptors in front of the tools. */
  intercept: (tools: Tool[], roots: () => readonly string[]) => Tool[] = (t) => t,
): { rebuild(): void; dispose(): void; guard(): PathGuard } {
  const rgPath = locateRipgrep([vscode.env.appRoot]);
  const alwaysDeny = [context.storageUri?.fsPath, context.globalStorageUri.fsPath].filter((p): p is string => !!p);
  const deps: FsToolDeps = { guard: guardFor(rt, alwaysDeny), fs: new VscodeWorkspaceFs(), reviewer };
  const build = () => {
    deps.guard = guardFor(rt, alwaysDeny);
    const c = rt.currentConfig;
    const guard = deps.guard;
    rt.replaceTools(intercept(
      createFsTools(deps, { rgPath, denyPaths: [...c.fs.denyPaths, ...alwaysDeny], home: os.homedir(), maxResultChars: c.limits.maxResultChars }),
      () => guard.roots,
    ));
  };
  build();
  const folders = vscode.workspace.onDidChangeWorkspaceFolders(build);
  return { rebuild: build, dispose: () => folders.dispose(), guard: () => deps.guard as PathGuard };
}

function guardFor(rt: PincerRuntime, alwaysDeny: string[]): PathGuard {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const c = rt.currentConfig.fs;
  return new PathGuard({
    roots: folders.map((f) => f.uri.fsPath), rootNames: folders.map((f) => f.name),
    workspaceOnly: c.workspaceOnly, allowPaths: c.allowPaths, denyPaths: c.denyPaths, alwaysDeny, home: os.homedir(),
  });
}
