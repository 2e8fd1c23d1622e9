// Wires the review flow into the window: the proposal file system, the diff reviewer, per-hunk
// lenses, the Pending Changes view and the review commands. Returns the EditReviewer the file tools
// use: the policy decides per call whether the person reviews or the change lands at once.
import * as vscode from 'vscode';
import { PolicyReviewer, type ReviewPolicyConfig } from '../../core/fs/review-policy';
import type { EditReviewer, ProposedChange, ReviewDecision } from '../../core/fs/types';
import { applyChanges } from './apply-changes';
import { DiffReviewer, type PendingReview } from './diff-reviewer';
import { HunkLenses, PROPOSAL_SELECTOR, hunkAt, revertHunk } from './hunk-lenses';
import { PendingChangesView } from './pending-view';
import { PROPOSED_SCHEME, ProposedFs } from './proposed-fs';

/** Changes that need no review land at once, still through a WorkspaceEdit (undo works). */
class DirectApplier implements EditReviewer {
  async review(changes: ProposedChange[]): Promise<ReviewDecision[]> {
    try {
      await applyChanges(changes.map((change) => ({ change, content: change.after })));
      return changes.map(() => ({ decision: 'accepted' as const }));
    } catch (e) {
      return changes.map(() => ({ decision: 'rejected' as const, reason: (e as Error).message }));
    }
  }
}

export interface ReviewHost {
  reviewer: EditReviewer;
  diff: DiffReviewer;
  pendingView: PendingChangesView;
  /** The review commands, by id; the activation shell registers them. */
  commands: Record<string, (...args: never[]) => unknown>;
}

export function registerReview(context: vscode.ExtensionContext, policy: () => ReviewPolicyConfig): ReviewHost {
  const proposed = new ProposedFs();
  const diff = new DiffReviewer(proposed);
  const lenses = new HunkLenses(diff);
  const pick = (arg?: unknown): PendingReview | undefined =>
    arg && typeof arg === 'object' && 'decide' in arg ? (arg as PendingReview) : diff.find(arg instanceof vscode.Uri ? arg : undefined);
  const none = () => void vscode.window.showInformationMessage('Pincer: no pending change here. Open one from the Pending Changes view.');

  context.subscriptions.push(
    vscode.workspace.registerFileSystemProvider(PROPOSED_SCHEME, proposed, { isCaseSensitive: true }),
    vscode.languages.registerCodeLensProvider(PROPOSAL_SELECTOR, lenses),
    vscode.workspace.onDidChangeTextDocument((e) => e.document.uri.scheme === PROPOSED_SCHEME && lenses.refresh()),
  );
  const commands: Record<string, (...args: never[]) => unknown> = {
    'pincer.review.accept': (arg?: unknown) => {
      const p = pick(arg);
      return p ? diff.accept(p) : none();
    },
    'pincer.review.reject': async (arg?: unknown, reason?: string) => {
      const p = pick(arg);
      if (!p) return none();
      const why = reason ?? (await vscode.window.showInputBox({
        title: `Reject the change to ${p.change.path.rel}`, prompt: 'Why? (optional — the model is told)', ignoreFocusOut: true,
      }));
      return diff.reject(p, why);
    },
    'pincer.review.acceptAll': async () => {
      for (const p of [...diff.pending.values()]) await diff.accept(p);
    },
    'pincer.review.rejectAll': async (reason?: string) => {
      for (const p of [...diff.pending.values()]) await diff.reject(p, reason);
    },
    'pincer.review.open': (arg?: unknown) => {
      const p = pick(arg);
      return p ? diff.open(p) : none();
    },
    // From a lens (uri, index) or, in the diff editor where lenses are off by default
    // (diffEditor.codeLens), from the context menu or keyboard: the hunk under the cursor.
    'pincer.review.revertHunk': async (uri?: vscode.Uri, index?: number) => {
      const editor = vscode.window.activeTextEditor;
      const target = uri ?? editor?.document.uri;
      const p = target && diff.find(target);
      const doc = target && vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString());
      if (!p || !doc || p.change.before === undefined || p.proposedUri.toString() !== doc.uri.toString()) return none();
      const i = index ?? hunkAt(p.change.before, doc.getText(), editor?.selection.active.line ?? -1);
      if (i < 0) {
        void vscode.window.showInformationMessage('Pincer: put the cursor on a changed line of the proposal to revert that change.');
        return false;
      }
      return revertHunk(doc, p.change.before, i);
    },
  };
  return { reviewer: new PolicyReviewer(diff, new DirectApplier(), policy), diff, pendingView: new PendingChangesView(diff), commands };
}
