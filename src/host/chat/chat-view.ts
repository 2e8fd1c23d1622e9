// The chat in the sidebar (activity bar → Pincer → Chat): the page from chat-html.ts under its strict
// CSP, every message it sends validated before the controller sees it (the page renders model output,
// so it is untrusted input), approvals and edit reviews of the running turn shown inline with buttons
// that answer the same pending request as the native prompt, and the editor's chips kept current.
import { randomBytes } from 'crypto';
import { diffLines } from 'diff';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../core/exec/exec-types';
import { originLabel } from '../../core/subagents/subagent-format';
import { chatHtml } from '../../core/chat/chat-html';
import { parseToHost, type LiveEvent, type ToWebview } from '../../core/chat/chat-protocol';
import type { PathResolver, ReviewDecision } from '../../core/fs/types';
import type { ApprovalPrompt } from '../exec/approval-prompt';
import type { DiffReviewer, PendingReview } from '../review/diff-reviewer';
import { ChatController, type ChatControllerDeps } from './chat-controller';
import { editorChips } from './chat-context';
import { dropUris } from './chat-drop';

export const CHAT_VIEW_ID = 'pincer.chat';

export class ChatView implements vscode.WebviewViewProvider, vscode.Disposable {
  private view?: vscode.WebviewView;
  private readonly subs: vscode.Disposable[] = [];
  readonly controller: ChatController;
  /** Every message posted to the page (tests read the stream from here). */
  readonly posted: ToWebview[] = [];
  private readonly shownReviews = new Set<string>();
  private readonly fromChild: (sessionKey: string) => { label: string; root: string } | undefined;
  private resolvedResolve!: () => void;
  readonly resolved = new Promise<void>((r) => (this.resolvedResolve = r));

  constructor(
    private readonly extensionUri: vscode.Uri, deps: Omit<ChatControllerDeps, 'post'>, approvals: ApprovalPrompt, diff: DiffReviewer,
    /** The toolset's path guard: a file dropped from the Explorer is attached only if it clears it. */
    private readonly guard: () => Pick<PathResolver, 'resolve'>,
  ) {
    this.controller = new ChatController({ ...deps, post: (m) => this.post(m) });
    // A prompt of the turn on screen is answered in the chat, not in a dialog over it; so is one of a
    // child that turn started (its card is in the turn), labelled with the child.
    this.fromChild = (key) => {
      const child = deps.subagents?.childOfSession(key);
      return child && { label: originLabel(child), root: deps.subagents!.rootOf(child.parentSessionKey) };
    };
    approvals.inline = (req) => this.visible && this.onScreen(req.sessionKey);
    const approvalSub = approvals.onDidChange.on((e) => {
      if (e.state === 'waiting' && e.request && approvals.inline?.(e.request)) this.controller.live(approvalCard(e.request, this.fromChild(e.request.sessionKey)?.label));
      else if (e.state === 'settled' && e.answer) this.controller.live({ type: 'approval-settled', id: e.id, answer: e.answer, ...(e.note ? { note: e.note } : {}) });
    });
    const reviewSub = diff.onDidChange.on(() => this.showReviews(diff));
    const decideSub = diff.onDidDecide.on((e) => {
      if (this.shownReviews.delete(e.id)) this.controller.live({ type: 'review-settled', id: e.id, outcome: outcome(e.decision) });
    });
    let chipTimer: NodeJS.Timeout | undefined;
    const chips = () => {
      clearTimeout(chipTimer);
      chipTimer = setTimeout(() => this.post({ type: 'context', chips: editorChips() }), 150);
    };
    this.subs.push(
      { dispose: () => { approvalSub.dispose(); reviewSub.dispose(); decideSub.dispose(); clearTimeout(chipTimer); } },
      vscode.window.onDidChangeActiveTextEditor(chips), vscode.window.onDidChangeTextEditorSelection(chips),
    );
  }

  get visible(): boolean {
    return !!this.view?.visible;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    const uri = (f: string) => view.webview.asWebviewUri(vscode.Uri.joinPath(dist, f)).toString();
    view.webview.html = chatHtml({
      cspSource: view.webview.cspSource, nonce: randomBytes(18).toString('base64url'),
      script: uri('chat.js'), style: uri('chat.css'), codicons: uri('codicon.css'),
    });
    this.subs.push(view.webview.onDidReceiveMessage((raw: unknown) => {
      const parsed = parseToHost(raw);
      if (!parsed.ok) return; // The page never sends malformed messages; whatever does is ignored.
      const m = parsed.message;
      const done = m.type === 'drop-uris' ? dropUris(m.uris, this.guard, (out) => this.post(out), (chips) => this.controller.attach(chips)) : this.controller.handle(m);
      done.catch((e: unknown) => this.post({ type: 'error', message: String((e as Error).message ?? e).slice(0, 1000) }));
    }));
    view.onDidDispose(() => (this.view = undefined));
    this.resolvedResolve();
  }

  /**
   * Shows the view (Pincer: New Chat, Ask About Selection …). With `preserveFocus`, a view that was
   * already created is shown without taking the focus: a command that finishes after its quick pick
   * closed would otherwise pull the focus into the chat from whatever the person opened next (the
   * command palette included, which closes on losing it).
   */
  async reveal(opts: { preserveFocus?: boolean } = {}): Promise<void> {
    if (opts.preserveFocus && this.view) return this.view.show(true);
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    await this.resolved;
  }

  /** Whether a request of this session belongs on screen: the running turn's own, or a child's of it. */
  private onScreen(sessionKey: string): boolean {
    const running = this.controller.runningSession;
    return running !== undefined && (sessionKey === running || this.fromChild(sessionKey)?.root === running);
  }

  private showReviews(diff: DiffReviewer): void {
    for (const p of diff.pending.values()) {
      const key = p.change.turn?.split('#')[0];
      if (this.shownReviews.has(p.id) || key === undefined || !this.onScreen(key)) continue;
      this.shownReviews.add(p.id);
      this.controller.live(reviewCard(p, this.fromChild(key)?.label));
    }
  }

  post(m: ToWebview): void {
    this.posted.push(m);
    if (this.posted.length > 5000) this.posted.splice(0, 1000);
    void this.view?.webview.postMessage(m);
  }

  dispose(): void {
    this.subs.forEach((d) => d.dispose());
  }
}

function approvalCard(req: ApprovalRequest, from: string | undefined): LiveEvent {
  return {
    type: 'approval', id: req.id, command: req.command.slice(0, 20_000), cwd: req.cwd, host: req.host, reason: req.reason.slice(0, 1000),
    ...(from ? { from: from.slice(0, 1000) } : {}),
    alwaysOffered: !!req.always, ...(req.alwaysUnavailable ? { alwaysUnavailable: req.alwaysUnavailable.slice(0, 1000) } : {}),
    parts: req.segments.slice(0, 50).map((s) => ({
      text: (s.segment.text || s.segment.argv.map((w) => w.text).join(' ')).slice(0, 20_000), decision: s.decision,
      reason: s.reason.slice(0, 1000), ...(s.group ? { group: s.group } : {}),
    })),
  };
}

function reviewCard(p: PendingReview, from: string | undefined): LiveEvent {
  let added = 0;
  let removed = 0;
  for (const part of diffLines(p.change.before ?? '', p.change.after ?? '')) {
    if (part.added) added += part.count ?? 0;
    if (part.removed) removed += part.count ?? 0;
  }
  const what = p.change.before === undefined ? 'new file' : p.change.after === undefined ? 'delete' : 'change';
  // The summary is what a reloaded transcript keeps: the child that proposed it stays named there.
  return { type: 'review', id: p.id, path: p.change.path.rel, summary: `${what} by ${p.change.tool}${from ? ` in ${from}` : ''}`.slice(0, 1000), added, removed };
}

function outcome(d: ReviewDecision): 'accepted' | 'accepted-with-changes' | 'rejected' {
  return d.decision === 'accepted' ? 'accepted' : d.decision === 'modified' ? 'accepted-with-changes' : 'rejected';
}
