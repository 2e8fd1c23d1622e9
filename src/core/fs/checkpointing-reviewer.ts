// Keeps a checkpoint before any change reaches the reviewer that lands it: the inner reviewer may
// write the moment a person clicks Accept (or at once, when no review is needed), so the original
// bytes must already be in the database by then.
//
// Decisions:
// - Every proposed change is captured, accepted or not: capturing cannot wait for the decision.
//   A rejected change leaves an entry holding the bytes the file still has, so restoring it writes
//   back what is already there (restoreCheckpoint reports it as unchanged).
// - A capture that fails (storage down, unreadable file, a file over 10 MB) never blocks the edit:
//   the change goes on to the reviewer and onWarning says which file Restore Checkpoint will not
//   cover. Refusing edits whenever the database hiccups would make storage a single point of
//   failure for the agent's main job.
// - No store yet (storage not open, or not available in this window): the edit goes ahead with
//   no checkpoint, and onWarning says so once.
// - A change without `turn` (a caller that predates it) gets a checkpoint of its own per batch
//   instead of being merged with unrelated changes.
import { randomUUID } from 'node:crypto';
import { MAX_CHECKPOINT_FILE_BYTES, type CheckpointStore } from './checkpoint-store';
import type { EditReviewer, ProposedChange, ReviewDecision, WorkspaceFs } from './types';

/** Thrown by the read callback so a large file is skipped without reading it. */
class TooLarge extends Error {}

const MB = 1024 * 1024;

function describe(changes: readonly ProposedChange[]): string {
  const names = [...new Set(changes.map((c) => c.path.rel || c.path.abs))];
  const shown = names.slice(0, 3).join(', ');
  return `${changes[0]?.tool ?? 'edit'} ${shown}${names.length > 3 ? ` (+${names.length - 3} more)` : ''}`;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class CheckpointingReviewer implements EditReviewer {
  private warnedNoStore = false;

  constructor(
    private readonly inner: EditReviewer,
    /** The store, or undefined while the workspace database is not open (that call opens it or not). */
    /** May be a promise: the host opens the database on first use and the first edit waits for it. */
    private readonly store: () => CheckpointStore | undefined | Promise<CheckpointStore | undefined>,
    private readonly fs: WorkspaceFs,
    private readonly onWarning?: (message: string) => void,
  ) {}

  async review(changes: ProposedChange[], signal: AbortSignal): Promise<ReviewDecision[]> {
    await this.captureAll(changes, signal);
    return this.inner.review(changes, signal);
  }

  private async captureAll(changes: readonly ProposedChange[], signal: AbortSignal): Promise<void> {
    if (!changes.length || signal.aborted) return;
    const store = await this.openStore();
    if (!store) return;
    const label = describe(changes);
    const ownTurn = `untracked:${randomUUID()}`;
    const seen = new Set<string>();
    for (const change of changes) {
      const abs = change.path.abs;
      if (seen.has(abs)) continue;
      seen.add(abs);
      const name = change.path.rel || abs;
      try {
        const outcome = await store.capture(change.turn ?? ownTurn, label, abs, () => this.readOriginal(abs, signal));
        if (outcome === 'too-large') this.warn(`${name} is over ${MAX_CHECKPOINT_FILE_BYTES / MB} MB, so no checkpoint keeps it: Restore Checkpoint will leave it as the turn left it.`);
      } catch (e) {
        // The inner reviewer sees the aborted signal and reports the cancellation itself.
        if (signal.aborted) return;
        if (e instanceof TooLarge) {
          this.warn(`${name} is over ${MAX_CHECKPOINT_FILE_BYTES / MB} MB, so no checkpoint keeps it: Restore Checkpoint will leave it as the turn left it.`);
        } else {
          this.warn(`Could not keep a checkpoint of ${name} (${message(e)}); the change goes ahead, but Restore Checkpoint will not bring this file back.`);
        }
      }
    }
  }

  private async openStore(): Promise<CheckpointStore | undefined> {
    let store: CheckpointStore | undefined;
    let why = 'the workspace database is not open';
    try {
      store = await this.store();
    } catch (e) {
      why = `the workspace database could not be opened: ${message(e)}`;
    }
    if (store) {
      this.warnedNoStore = false;
      return store;
    }
    if (!this.warnedNoStore) {
      this.warnedNoStore = true;
      this.warn(`No checkpoints are kept (${why}); changes still land, but Restore Checkpoint cannot undo them.`);
    }
    return undefined;
  }

  private async readOriginal(abs: string, signal: AbortSignal): Promise<Uint8Array | undefined> {
    const st = await this.fs.stat(abs);
    if (!st) return undefined;
    if (st.type !== 'file') throw new Error(`it is a ${st.type}, not a file`);
    if (st.size > MAX_CHECKPOINT_FILE_BYTES) throw new TooLarge();
    return this.fs.readFile(abs, signal);
  }

  private warn(text: string): void {
    try {
      this.onWarning?.(`Pincer checkpoints: ${text}`);
    } catch {
      // A failing warning sink must not stop the edit.
    }
  }
}
