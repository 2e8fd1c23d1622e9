// Reviewers that decide without a person: AutoApplyReviewer writes every proposed change through a
// WorkspaceFs (the CLI and unit tests), RejectAllReviewer refuses everything (tests of the
// rejection path). The extension's reviewer shows a diff instead.
import type { EditReviewer, ProposedChange, ReviewDecision, WorkspaceFs } from './types';

const encoder = new TextEncoder();

export class AutoApplyReviewer implements EditReviewer {
  /** Every change this reviewer applied, in order (tests inspect it). */
  readonly applied: ProposedChange[] = [];

  constructor(private readonly fs: WorkspaceFs) {}

  /**
   * Applies the changes one by one, in order; a failure stops the batch and is thrown (the tool
   * reports it). after === undefined deletes the file; afterBytes wins over the UTF-8 of after.
   */
  async review(changes: ProposedChange[], signal: AbortSignal): Promise<ReviewDecision[]> {
    const decisions: ReviewDecision[] = [];
    for (const change of changes) {
      signal.throwIfAborted();
      const abs = change.path.abs;
      if (change.after === undefined) {
        if (await this.fs.stat(abs)) await this.fs.delete(abs);
      } else {
        await this.fs.writeFile(abs, change.afterBytes ?? encoder.encode(change.after));
      }
      this.applied.push(change);
      decisions.push({ decision: 'accepted' });
    }
    return decisions;
  }
}

export class RejectAllReviewer implements EditReviewer {
  /** Every batch this reviewer was shown, for assertions. */
  readonly seen: ProposedChange[][] = [];

  constructor(readonly reason = 'The change was rejected (RejectAllReviewer).') {}

  async review(changes: ProposedChange[], signal: AbortSignal): Promise<ReviewDecision[]> {
    signal.throwIfAborted();
    this.seen.push(changes);
    return changes.map(() => ({ decision: 'rejected', reason: this.reason }));
  }
}
