// Cancellation helpers for the loop. A turn must stop promptly when the user presses Stop, even when
// what it waits on (a provider stream, a backoff, a tool) does not honour the signal itself: the loop
// races each wait against the signal and moves on.

/** Thrown inside the loop when the turn's signal aborts; never leaves runAgentTurn. */
export class TurnCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'TurnCancelled';
  }
}

/** `p`, or a TurnCancelled rejection as soon as `signal` aborts (whichever comes first). */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(new TurnCancelled());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new TurnCancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** The default backoff wait: a timer that is cleared (and resolves) when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
