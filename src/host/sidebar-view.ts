// The Pincer sidebar (activity bar → Pincer → Tools): the tools the chat may use right now and the
// last tool calls, updated live. The chat itself joins this view in a later issue.
import * as vscode from 'vscode';
import type { HiddenTool } from '../core/fs/virtual-hidden-tools';
import type { CallEnd } from '../core/tools/call-record';
import { hostContext, type HostServices } from './services';

export interface SidebarState {
  profile: string;
  trusted: boolean;
  allowed: { name: string; group: string; capability: string }[];
  removed: { tool: string; step: string; detail: string }[];
  calls: CallEnd[];
}

export class SidebarView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view?: vscode.WebviewView;
  private readonly subs: vscode.Disposable[] = [];
  /** Messages the webview sent (tests read these to know the script ran). */
  readonly received: string[] = [];
  private resolvedResolve!: () => void;
  readonly resolved = new Promise<void>((r) => (this.resolvedResolve = r));

  /** `hidden` names the tools this window leaves out (a virtual workspace has no local disk), with why. */
  constructor(private readonly extensionUri: vscode.Uri, private readonly s: HostServices, private readonly hidden: () => readonly HiddenTool[] = () => []) {
    const sub = s.log.onDidChange.on((c) => this.post(c ? { type: 'call', call: c } : this.stateMessage()));
    this.subs.push({ dispose: () => sub.dispose() });
  }

  state(): SidebarState {
    const { rt } = this.s;
    const d = rt.effectiveTools(rt.registry.policyRequest(hostContext(rt, 'chat', new AbortController().signal)));
    return {
      profile: `${d.profile.id} (${d.profile.source})`,
      trusted: vscode.workspace.isTrusted,
      allowed: d.allowed.map((n) => rt.registry.get(n)!).map((t) => ({ name: t.name, group: t.group, capability: t.capability })),
      removed: [...d.removed, ...this.hidden().map((h) => ({ tool: h.tool, step: 'virtual workspace', detail: h.reason }))],
      calls: this.s.log.recent.slice(-50),
    };
  }

  /** Settings or trust changed: send the whole state again. */
  refresh(): void {
    this.post(this.stateMessage());
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    const nonce = Array.from({ length: 24 }, () => Math.floor(Math.random() * 36).toString(36)).join('');
    const src = (f: string) => view.webview.asWebviewUri(vscode.Uri.joinPath(dist, f)).toString();
    view.webview.html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${view.webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${src('sidebar.css')}">
<title>Pincer</title></head>
<body><main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${src('sidebar.js')}"></script></body></html>`;
    this.subs.push(view.webview.onDidReceiveMessage((m: { type?: string; name?: string }) => {
      if (typeof m?.type !== 'string') return;
      this.received.push(m.type);
      if (m.type === 'ready') this.refresh();
      else if (m.type === 'runTool' && typeof m.name === 'string') void vscode.commands.executeCommand('pincer.runTool', m.name);
      else if (m.type === 'showLog') void vscode.commands.executeCommand('pincer.showToolLog');
      else if (m.type === 'showEffectiveTools') void vscode.commands.executeCommand('pincer.showEffectiveTools');
    }));
    view.onDidDispose(() => (this.view = undefined));
    this.resolvedResolve();
  }

  private stateMessage() {
    return { type: 'state', state: this.state() };
  }

  private post(message: unknown): void {
    void this.view?.webview.postMessage(message);
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
  }
}
