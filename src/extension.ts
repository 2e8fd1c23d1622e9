// Composition root. Activation only registers what VS Code must know about (commands, the sidebar
// view, the result documents, the log channel); the runtime and everything that needs zod, policy
// or storage loads from dist/host-core.js on first use, so activation stays in single milliseconds.
import * as vscode from 'vscode';
import type { HostCore } from './host/host-core';
import { SIDEBAR_VIEW_ID } from './host/ids';
import { RESULT_SCHEME, ResultDocuments } from './host/result-documents';

// Set by the bundle's first line (esbuild banner); falls back to this module's own start when unbundled.
const moduleLoadedAt = (globalThis as { __pincerBundleStart?: number }).__pincerBundleStart ?? performance.now();

export interface PincerApi {
  /** Loads the runtime if it is not loaded yet (what any command does first). */
  core(): HostCore;
  /**
   * Milliseconds: evaluating this bundle (its first line to its last), activate() itself, the time
   * from the bundle's first line to the end of activate() (VS Code's own work between the two
   * included), and the runtime's load on first use.
   */
  activation: { moduleEvalMs: number; activateMs: number; sinceModuleLoadMs: number; coreLoadMs?: number };
}

export function activate(context: vscode.ExtensionContext): PincerApi {
  const t0 = performance.now();
  const channel = vscode.window.createOutputChannel('Pincer Tool Log', { log: true });
  const docs = new ResultDocuments();
  let loaded: HostCore | undefined;
  const api: PincerApi = {
    activation: { moduleEvalMs: moduleEvaluatedAt - moduleLoadedAt, activateMs: 0, sinceModuleLoadMs: 0 },
    core: () => {
      if (!loaded) {
        const c0 = performance.now();
        // A runtime path, not an import: esbuild keeps host-core out of this bundle.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const mod = require(context.asAbsolutePath('dist/host-core.js')) as typeof import('./host/host-core');
        loaded = mod.createHostCore(context, channel, docs);
        api.activation.coreLoadMs = performance.now() - c0;
        channel.info(`Pincer runtime loaded in ${api.activation.coreLoadMs.toFixed(1)} ms`);
      }
      return loaded;
    },
  };

  context.subscriptions.push(
    channel, docs,
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, docs),
    vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW_ID, {
      resolveWebviewView: (view) => api.core().sidebar.resolveWebviewView(view),
    }),
    vscode.commands.registerCommand('pincer.runTool', (name?: string, args?: unknown, opts?: { show?: boolean }) => api.core().runTool(name, args, opts)),
    vscode.commands.registerCommand('pincer.showEffectiveTools', (q?: Parameters<HostCore['showEffectiveTools']>[0]) => api.core().showEffectiveTools(q)),
    vscode.commands.registerCommand('pincer.showToolLog', () => channel.show(true)),
  );

  api.activation.activateMs = performance.now() - t0;
  api.activation.sinceModuleLoadMs = performance.now() - moduleLoadedAt;
  channel.info(`Pincer activated in ${api.activation.activateMs.toFixed(1)} ms (${api.activation.sinceModuleLoadMs.toFixed(1)} ms from the bundle's first line)`);
  return api;
}

// Last statement of the bundle's evaluation (the entry module's body runs after its imports).
const moduleEvaluatedAt = performance.now();

export function deactivate(): void {
  // Disposables registered on the context close the database (with a final snapshot) and the views.
}
