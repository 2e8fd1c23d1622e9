// Per-session readers/writer lock. Read-only tools of one session may run in parallel; a mutating or
// external call (an edit, exec, an MCP tool) runs alone, so a read never sees half of a write and two
// writes never interleave. Sessions do not block each other. FIFO: a waiting writer is not starved.
type Waiter = { exclusive: boolean; wake: () => void };

class Lock {
  readers = 0;
  writer = false;
  queue: Waiter[] = [];
}

export class SessionLocks {
  private locks = new Map<string, Lock>();

  async acquire(session: string, exclusive: boolean): Promise<() => void> {
    let lock = this.locks.get(session);
    if (!lock) this.locks.set(session, (lock = new Lock()));
    const l = lock;
    const canRun = () => (exclusive ? !l.writer && l.readers === 0 : !l.writer) && (l.queue.length === 0 || l.queue[0].wake === wake);
    let wake: () => void = () => undefined;
    if (!canRun()) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        l.queue.push({ exclusive, wake });
      });
      l.queue.shift();
    }
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
      if (next.exclusive ? !l.writer && l.readers === 0 : !l.writer) next.wake();
    } else if (!l.writer && l.readers === 0) {
      this.locks.delete(session);
    }
  }

  /** Sessions holding or waiting for the lock (for tests of cleanup). */
  get size(): number {
    return this.locks.size;
  }
}
