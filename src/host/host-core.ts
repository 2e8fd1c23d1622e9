// Everything behind the first use of Pincer in a window: the runtime (zod schemas, policy, guards),
// the tool log, the sidebar's logic, storage. Bundled separately (dist/host-core.js) and required by
// extension.ts on first use, so activation itself only registers commands and views.
import * as vscode from 'vscode';
import { PincerRuntime } from '../core/runtime';
import { runToolCommand } from './commands/run-tool';
import { showEffectiveToolsCommand, type EffectiveToolsQuery } from './commands/show-effective-tools';
import type { ResultDocuments } from './result-documents';
import type { HostServices } from './services';
import { createWarner, readSettings, watchSettings } from './settings';
import { SidebarView } from './sidebar-view';
import { StorageHost } from './storage-host';
import { ToolLog } from './tool-log';

export interface HostCore {
  services: HostServices;
  sidebar: SidebarView;
  storage: StorageHost;
  runTool: (name?: string, args?: unknown, opts?: { show?: boolean }) => ReturnType<typeof runToolCommand>;
  showEffectiveTools: (q?: EffectiveToolsQuery) => ReturnType<typeof showEffectiveToolsCommand>;
  /** Resolves once the tool log is backed by the database (or storage failed and was reported). */
  storageReady(): Promise<void>;
}

export function createHostCore(context: vscode.ExtensionContext, channel: vscode.LogOutputChannel, docs: ResultDocuments): HostCore {
  const warn = createWarner(channel);
  const rt = new PincerRuntime({ config: readSettings(warn), warn });
  const log = new ToolLog(channel, rt);
  const services: HostServices = { rt, docs, log };
  const sidebar = new SidebarView(context.extensionUri, services);
  const storage = new StorageHost(context, warn);

  let attached: Promise<void> | undefined;
  const storageReady = () => (attached ??= storage.toolLogStore().then((s) => (s ? log.attach(s) : undefined)));
  // sql.js starts on first need: the sidebar opening or the first tool call, whichever comes first.
  const firstCall = rt.registry.onCallStart.on(() => {
    firstCall.dispose();
    void storageReady();
  });
  void sidebar.resolved.then(() => storageReady());

  context.subscriptions.push(
    log, sidebar, firstCall, { dispose: () => void storage.dispose() },
    watchSettings(() => {
      rt.applyConfig(readSettings(warn));
      sidebar.refresh();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => sidebar.refresh()),
  );
  return {
    services, sidebar, storage, storageReady,
    runTool: (name, args, opts) => runToolCommand(services, name, args, opts),
    showEffectiveTools: (q) => showEffectiveToolsCommand(services, q),
  };
}
