// The interactive review: each proposed change opens in VS Code's diff editor (the file as it is on
// the left, the proposal on the right, editable). Accept / Reject from the editor title, the
// keyboard, the Pending Changes view or the notification; per-hunk revert from CodeLenses. The tool
// call waits for the decision and is cancellable; nothing is written until the person accepts.
import * as vscode from 'vscode';
import type { EditReviewer, ProposedChange, ReviewDecision } from '../../core/fs/types';
import { Emitter } from '../../core/events';
import { applyChanges } from './apply-changes';
import { PROPOSED_SCHEME, type ProposedFs } from './proposed-fs';
import { uriOfPath } from '../virtual-folders';

export interface PendingReview {
  id: string;
  change: ProposedChange;
  proposedUri: vscode.Uri;
  decide(d: ReviewDecision): Promise<void>;
}

let seq = 0;

export class DiffReviewer implements EditReviewer {
  readonly pending = new Map<string, PendingReview>();
  readonly onDidChange = new Emitter<void>();
  /** Each decided (or cancelled) review, for the chat's inline review cards. */
  readonly onDidDecide = new Emitter<{ id: string; decision: ReviewDecision }>();
  /** Names the subagent whose session proposed a change (undefined for a person's own chat). */
  origin?: (sessionKey: string) => string | undefined;

  constructor(private readonly proposed: ProposedFs) {}

  /**
   * Decisions are per file, but a deletion in a batch that also creates files (apply_patch's Move
   * to) waits for the others and is only carried out if none of them was rejected: accepting the
   * old path's removal while rejecting its new copy would lose the file.
   */
  async review(changes: ProposedChange[], signal: AbortSignal): Promise<ReviewDecision[]> {
    const moveLike = changes.some((c) => c.before === undefined) && changes.some((c) => c.after === undefined);
    if (!moveLike) return Promise.all(changes.map((c) => this.reviewOne(c, signal)));
    let open!: (ok: boolean) => void;
    const gate = new Promise<boolean>((r) => (open = r));
    const others = changes.map((c) => (c.after === undefined ? undefined : this.reviewOne(c, signal)));
    const deletes = changes.map((c) => (c.after === undefined ? this.reviewOne(c, signal, gate) : undefined));
    const decided = await Promise.all(others.map((p) => p ?? Promise.resolve(undefined)));
    open(decided.every((d) => d?.decision !== 'rejected'));
    return Promise.all(changes.map((_, i) => (deletes[i] ?? others[i])!));
  }

  private reviewOne(change: ProposedChange, signal: AbortSignal, gate?: Promise<boolean>): Promise<ReviewDecision> {
    const id = `r${++seq}`;
    const name = change.path.rel.split('/').pop() || 'file';
    const proposedUri = this.proposed.put(id, name, change.after ?? '', change.after === undefined);
    return new Promise<ReviewDecision>((resolve) => {
      const finish = async (d: ReviewDecision) => {
        if (!this.pending.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        this.onDidChange.fire();
        this.onDidDecide.fire({ id, decision: d });
        await this.refreshContext();
        // A proposal edited but not saved would make closing ask "Save changes?": saving it only
        // writes to the in-memory proposal, never to the workspace.
        const doc = vscode.workspace.textDocuments.find((x) => x.uri.toString() === proposedUri.toString());
        if (doc?.isDirty) await doc.save();
        await closeTabs(proposedUri);
        this.proposed.drop(proposedUri);
        resolve(d);
      };
      const onAbort = () => void finish({ decision: 'rejected', reason: 'the tool call was cancelled' });
      // Lands (or not) what the person decided; runs once per review.
      const carryOut = async (d: ReviewDecision) => {
        if (d.decision !== 'rejected') {
          const content = d.decision === 'modified' ? d.content : change.after;
          try {
            await applyChanges([{ change, content }]);
          } catch (e) {
            void vscode.window.showErrorMessage(`Pincer: ${(e as Error).message}`);
            return finish({ decision: 'rejected', reason: (e as Error).message });
          }
        }
        return finish(d);
      };
      let decided = false;
      const entry: PendingReview = {
        id, change, proposedUri,
        decide: async (d) => {
          if (decided) return;
          decided = true;
          if (d.decision === 'rejected' || !gate) return carryOut(d);
          // A move's deletion: carried out once its other half is decided; the person is not kept waiting.
          void gate.then((ok) => (ok ? carryOut(d)
            : finish({ decision: 'rejected', reason: 'kept: the new file this move creates was rejected, so the old one stays' })));
        },
      };
      if (signal.aborted) return resolve({ decision: 'rejected', reason: 'the tool call was cancelled' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, entry);
      this.onDidChange.fire();
      void this.refreshContext().then(() => this.open(entry));
    });
  }

  /** The subagent that proposed this change, as the review's title and lists name it. */
  originOf(entry: PendingReview): string | undefined {
    const turn = entry.change.turn;
    return turn === undefined ? undefined : this.origin?.(turn.split('#')[0]!);
  }

  /** The diff editor for one pending change. */
  async open(entry: PendingReview): Promise<void> {
    const { change } = entry;
    const verb = change.before === undefined ? 'new file' : change.after === undefined ? 'delete' : 'proposed';
    const left = change.before === undefined
      ? this.proposed.put(`${entry.id}-empty`, entry.proposedUri.path.split('/').pop()!, '', true)
      : uriOfPath(change.path.abs);
    const from = this.originOf(entry);
    await vscode.commands.executeCommand('vscode.diff', left, entry.proposedUri, `${change.path.rel} (${verb} by ${change.tool}${from ? `, ${from}` : ''}) — review`, { preview: false });
  }

  /** Finds the pending review behind a URI (the proposal, or the real file it would change). */
  find(uri?: vscode.Uri): PendingReview | undefined {
    const u = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!u) return this.pending.size === 1 ? [...this.pending.values()][0] : undefined;
    for (const p of this.pending.values()) {
      if (p.proposedUri.toString() === u.toString() || uriOfPath(p.change.path.abs).toString() === u.toString()) return p;
    }
    return undefined;
  }

  /** Accept: what the right side holds now; if the person changed it, the model is told how. */
  async accept(entry: PendingReview): Promise<void> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === entry.proposedUri.toString());
    if (doc?.isDirty) await doc.save();
    const now = this.proposed.text(entry.proposedUri);
    const after = entry.change.after;
    if (after !== undefined && now !== undefined && now.replace(/\r\n/g, '\n') !== after.replace(/\r\n/g, '\n')) {
      await entry.decide({ decision: 'modified', content: now });
    } else {
      await entry.decide({ decision: 'accepted' });
    }
  }

  async reject(entry: PendingReview, reason?: string): Promise<void> {
    await entry.decide({ decision: 'rejected', reason: reason || undefined });
  }

  private async refreshContext(): Promise<void> {
    await vscode.commands.executeCommand('setContext', 'pincer.reviewPending', this.pending.size > 0);
  }
}

async function closeTabs(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => {
    const input = t.input;
    return (input instanceof vscode.TabInputTextDiff && input.modified.toString() === uri.toString())
      || (input instanceof vscode.TabInputText && input.uri.toString() === uri.toString());
  });
  if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
}

export function isProposal(uri: vscode.Uri | undefined): boolean {
  return uri?.scheme === PROPOSED_SCHEME;
}
