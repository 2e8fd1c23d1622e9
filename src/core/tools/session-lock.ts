// Per-session readers/writer lock. Read-only tools of one session may run in parallel; a mutating or
// external call (an edit, exec, an MCP tool) runs alone, so a read never sees half of a write and two
// writes never interleave. Sessions do not block each other. FIFO: a waiting writer is not starved.
type Waiter = { exclusive: boolean; wake: () => void };

class Lock {
  readers = 0;
  writer = false;
  queue: Waiter[] = [];
}

/** Whether a call of this kind may hold the lock beside its present holders. */
function free(l: Lock, exclusive: boolean): boolean {
  return exclusive ? !l.writer && l.readers === 0 : !l.writer;
}

export class SessionLocks {
  private locks = new Map<string, Lock>();
  /**
   * The last lock dropped when its session went idle, taken by the next session that needs one: back
   * to back calls of one session would otherwise make a lock (and its queue) per call. A dropped lock
   * has no holder and no waiter, and a release called twice does nothing, so reusing it is safe.
   */
  private spare: Lock | undefined;
  /**
   * The session whose lock went idle last: its lock stays in the map (not counted by `size`), so the
   * same session's next call finds it there instead of deleting and adding a map entry per call
   * (each delete leaves the map's table to be rebuilt). Another session's idle lock replaces it.
   */
  private parked: string | undefined;

  private fresh(): Lock {
    const l = this.spare ?? new Lock();
    this.spare = undefined;
    return l;
  }

  /**
   * The lock at once, when nobody holds it against this call and nobody waits before it; undefined
   * otherwise (then `acquire`). A call that need not wait then does not wait a promise's turn either.
   */
  tryAcquire(session: string, exclusive: boolean): (() => void) | undefined {
    const held = this.locks.get(session);
    if (held && (held.queue.length > 0 || !free(held, exclusive))) return undefined;
    const l = held ?? this.fresh();
    if (!held) this.locks.set(session, l);
    return this.take(session, l, exclusive);
  }

  async acquire(session: string, exclusive: boolean): Promise<() => void> {
    let lock = this.locks.get(session);
    if (!lock) this.locks.set(session, (lock = this.fresh()));
    const l = lock;
    const canRun = () => free(l, exclusive) && (l.queue.length === 0 || l.queue[0].wake === wake);
    let wake: () => void = () => undefined;
    if (!canRun()) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        l.queue.push({ exclusive, wake });
      });
      l.queue.shift();
    }
    return this.take(session, l, exclusive);
  }

  private take(session: string, l: Lock, exclusive: boolean): () => void {
    if (session === this.parked) this.parked = undefined;
    if (exclusive) l.writer = true;
    else l.readers++;
    // Wake the next readers in line once we hold the lock as a reader (they may share with us).
    this.pump(session, l);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (exclusive) l.writer = false;
      else l.readers--;
      this.pump(session, l);
    };
  }

  private pump(session: string, l: Lock): void {
    const next = l.queue[0];
    if (next) {
      if (free(l, next.exclusive)) next.wake();
    } else if (!l.writer && l.readers === 0 && session !== this.parked) {
      const before = this.parked;
      this.parked = session;
      if (before === undefined) return;
      this.spare = this.locks.get(before);
      this.locks.delete(before);
    }
  }

  /** Sessions holding or waiting for the lock (for tests of cleanup). */
  get size(): number {
    return this.locks.size - (this.parked === undefined ? 0 : 1);
  }
}
