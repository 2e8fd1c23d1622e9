// Work a window needs soon after its runtime loads, but not before the answer to the first tool call
// (a first report of broken definitions, watchers a person's edits reach later): it runs just after
// that call ends, or after FALLBACK_MS when the runtime was loaded for something else (a view, the
// chat). The first call is the one a person or a model waits on, and the extension host runs one thing
// at a time: work queued with a timer or setImmediate would still run between the call's own awaits.

/** Long enough for a first call to end on a busy machine, short enough that a window used otherwise soon has its watchers. */
const FALLBACK_MS = 1_000;

export interface AfterFirstCall {
  /** Runs `work` once the first call has ended (or the fallback passed); at once if that moment is past. */
  run(work: () => void): void;
  dispose(): void;
}

export function afterFirstCall(onCallEnd: { on(listener: () => void): { dispose(): void } }, fallbackMs = FALLBACK_MS): AfterFirstCall {
  let queue: (() => void)[] | undefined = [];
  const flush = () => {
    const work = queue;
    if (!work) return;
    queue = undefined;
    clearTimeout(timer);
    sub.dispose();
    for (const w of work) {
      try {
        w();
      } catch (e) {
        // Each piece of work on its own: one failing must not keep the others from starting. The error
        // still surfaces as an uncaught one, as it did when the work ran while the runtime loaded.
        setImmediate(() => {
          throw e;
        });
      }
    }
  };
  const sub = onCallEnd.on(() => {
    sub.dispose();
    setImmediate(flush);
  });
  const timer = setTimeout(flush, fallbackMs);
  timer.unref?.();
  return {
    run(work) {
      if (queue) queue.push(work);
      else work();
    },
    dispose() {
      queue = undefined;
      clearTimeout(timer);
      sub.dispose();
    },
  };
}
