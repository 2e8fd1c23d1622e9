// The calls' time limits and slow-call notices share one timer. A Node timer per call costs more
// than the rest of a fast call's pipeline: setTimeout files it in the list of its duration, and the
// clearTimeout at the call's end empties that list, which Node then throws away, so the next call
// builds it again. Here a call's limit is an entry in a set; the one timer is armed for the earliest
// entry and is left running when that call ends early (nearly every call), so back-to-back calls
// arm nothing. When it fires it runs what is due and re-arms for the next entry. While an entry is
// pending the timer keeps the process alive, as a call's own timer would; when none is, it does not.

export interface CallTimer {
  readonly at: number;
  readonly fire: () => void;
}

const pending = new Set<CallTimer>();
let timer: NodeJS.Timeout | undefined;
let timerAt = Number.POSITIVE_INFINITY;

function arm(at: number): void {
  if (timer) clearTimeout(timer);
  timerAt = at;
  // Never early: a timer fires on the event loop's clock, which may be behind performance.now().
  timer = setTimeout(runDue, Math.max(1, Math.ceil(at - performance.now())));
}

function runDue(): void {
  timer = undefined;
  timerAt = Number.POSITIVE_INFINITY;
  const now = performance.now();
  const due: CallTimer[] = [];
  let next = Number.POSITIVE_INFINITY;
  for (const t of pending) {
    if (t.at <= now) due.push(t);
    else if (t.at < next) next = t.at;
  }
  for (const t of due) pending.delete(t);
  if (next !== Number.POSITIVE_INFINITY) arm(next);
  for (const t of due) {
    try {
      t.fire();
    } catch {
      // One call's handler failing must not keep the others' limits from firing.
    }
  }
}

/** Runs `fire` after `ms` (at most 2^31-1) unless cancelled first. */
export function callAfter(ms: number, fire: () => void): CallTimer {
  const t: CallTimer = { at: performance.now() + ms, fire };
  pending.add(t);
  if (t.at < timerAt) arm(t.at);
  else if (pending.size === 1) timer?.ref();
  return t;
}

export function cancelCallTimer(t: CallTimer | undefined): void {
  if (t && pending.delete(t) && pending.size === 0) timer?.unref();
}
