// The calls' time limits and slow-call notices share one timer. A Node timer per call costs more
// than the rest of a fast call's pipeline: setTimeout files it in the list of its duration, and the
// clearTimeout at the call's end empties that list, which Node then throws away, so the next call
// builds it again. Here a call's limit is an entry in a list; the one timer is armed for the earliest
// entry and is left running when that call ends early (nearly every call), so back-to-back calls
// arm nothing. When it fires it runs what is due and re-arms for the next entry. While an entry is
// pending the timer keeps the process alive, as a call's own timer would; when none is, it does not.

export interface CallTimer {
  readonly at: number;
  readonly fire: () => void;
}

// The pending entries, a list linked through the entries themselves in the order they were made: a
// Set's add and delete on every call leave its table to be rebuilt every few calls.
interface Entry extends CallTimer {
  prev: Entry | undefined;
  next: Entry | undefined;
  pending: boolean;
}

let first: Entry | undefined;
let last: Entry | undefined;
let count = 0;
let timer: NodeJS.Timeout | undefined;
let timerAt = Number.POSITIVE_INFINITY;

function unlink(e: Entry): boolean {
  if (!e.pending) return false;
  e.pending = false;
  if (e.prev) e.prev.next = e.next;
  else first = e.next;
  if (e.next) e.next.prev = e.prev;
  else last = e.prev;
  e.prev = e.next = undefined;
  count--;
  return true;
}

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
  const due: Entry[] = [];
  let next = Number.POSITIVE_INFINITY;
  for (let e = first; e; e = e.next) {
    if (e.at <= now) due.push(e);
    else if (e.at < next) next = e.at;
  }
  for (const e of due) unlink(e);
  if (next !== Number.POSITIVE_INFINITY) arm(next);
  for (const e of due) {
    try {
      e.fire();
    } catch {
      // One call's handler failing must not keep the others' limits from firing.
    }
  }
}

/** Runs `fire` after `ms` (at most 2^31-1) unless cancelled first. */
export function callAfter(ms: number, fire: () => void): CallTimer {
  const e: Entry = { at: performance.now() + ms, fire, prev: last, next: undefined, pending: true };
  if (last) last.next = e;
  else first = e;
  last = e;
  count++;
  if (e.at < timerAt) arm(e.at);
  else if (count === 1) timer?.ref();
  return e;
}

export function cancelCallTimer(t: CallTimer | undefined): void {
  if (t && unlink(t as Entry) && count === 0) timer?.unref();
}
