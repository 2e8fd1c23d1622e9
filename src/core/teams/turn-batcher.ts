// Work submitted in the same turn of the event loop, and while a batch is in flight, goes out as one
// batch: the board stores use it so that many members' claims cost one commit instead of one each.
// With `overlap`, a turn's batch goes out at once even while an earlier one is in flight (for a
// server, which commits concurrent transactions together; a workspace database writes one at a time).
// Each submitter gets its own answer; a failed batch fails every submitter in it.

interface Queued<I, O> {
  item: I;
  done: (err: Error | undefined, out?: O) => void;
}

export class TurnBatcher<I, O> {
  private queue: Queued<I, O>[] = [];
  private draining = false;

  /** `run` answers a batch in the order of its items. */
  constructor(private readonly run: (items: I[]) => Promise<O[]>, private readonly opts: { overlap?: boolean } = {}) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, done: (err, out) => (err ? reject(err) : resolve(out as O)) });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length) {
        // Let the submissions of the same turn of the event loop join this batch.
        await new Promise<void>((r) => setImmediate(r));
        const batch = this.queue.splice(0);
        const answered = this.run(batch.map((q) => q.item)).then(
          (outs) => batch.forEach((q, i) => q.done(undefined, outs[i])),
          (e: unknown) => { for (const q of batch) q.done(e as Error); },
        );
        if (!this.opts.overlap) await answered;
      }
    } finally {
      this.draining = false;
    }
  }
}
