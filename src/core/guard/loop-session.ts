// One session's recent calls and the detectors that judge them. Everything here is bounded: the
// history by the configured window, poll state by a small per-tool cap.
import type { Detector, LoopConfig } from './loop-config';
import type { Finding } from './loop-messages';

/** A finished non-poll call, reduced to fingerprints. */
interface Entry {
  seq: number;
  tool: string;
  /** Fingerprint of tool name + canonical arguments (stable-json.ts hashCall). */
  call: string;
  /** Fingerprint of the outcome (error flag + text). */
  result: string;
  /** call + result: the same call that came back the same way. */
  sig: string;
  readOnly: boolean;
  isError: boolean;
  /** Which state of the world the call saw; see `epoch` below. */
  epoch: number;
}

export type CallInput = Pick<Entry, 'tool' | 'call' | 'result' | 'readOnly' | 'isError'>;

export interface Judgement extends Finding {
  level: 'warning' | 'critical';
}

interface Candidate {
  finding: Finding;
  /** Sequence number of the first call that is evidence for this pattern. */
  since: number;
}

interface PollState {
  /** Outcomes this poll tool has already returned; one of them again is no progress. */
  seen: string[];
  stalled: number;
  stalledSince: number;
}

/** Outcomes remembered per poll tool: enough to see a spinner or two processes cycling. */
const POLL_MEMORY = 16;
/** Poll tools tracked per session; the least recently polled is dropped beyond this. */
const MAX_POLL_TOOLS = 16;
// When several detectors fire at once, the most specific description of the loop is reported; the
// candidates are made, and read, in that order: sameCall, pingPong, pollNoProgress, sameResult,
// readOnlyStreak.

/** Detectors that describe the same stuck episode share one warning. */
type Family = 'repeat' | 'poll' | 'streak';
const FAMILY: Record<Detector, Family> = {
  sameCall: 'repeat', sameResult: 'repeat', pingPong: 'repeat', pollNoProgress: 'poll', readOnlyStreak: 'streak',
};

export class LoopSession {
  private readonly history: Entry[] = [];
  private seq = 0;
  /**
   * Bumped by every successful mutating or external call not already in the window: a new change to
   * the world. Repeats are only counted within one epoch, so "edit, type-check, edit, type-check" with
   * the same empty type-check output is work, not a loop, while the same write repeated is still one.
   */
  private epoch = 0;
  private streak = 0;
  private streakSince = 0;
  private readonly polls = new Map<string, PollState>();
  /** Sequence number of the last warning given per family (0: none yet). */
  private readonly lastWarning: Record<Family, number> = { repeat: 0, poll: 0, streak: 0 };
  /** Set by a critical verdict; the session refuses calls until it is reset. */
  halt: { detector: Detector; count: number; message: string } | undefined;

  addPoll(tool: string, result: string, isError: boolean, config: LoopConfig): Judgement | undefined {
    const seq = ++this.seq;
    const state = this.polls.get(tool) ?? { seen: [], stalled: 0, stalledSince: seq };
    this.polls.delete(tool);
    this.polls.set(tool, state);
    if (this.polls.size > MAX_POLL_TOOLS) this.polls.delete(this.polls.keys().next().value as string);
    if (state.seen.includes(result)) {
      if (state.stalled++ === 0) state.stalledSince = seq;
    } else {
      state.stalled = 0;
      state.seen.push(result);
      if (state.seen.length > POLL_MEMORY) state.seen.shift();
    }
    const finding: Finding = { detector: 'pollNoProgress', count: state.stalled, tool, isError };
    return this.choose([{ finding, since: state.stalledSince }], config);
  }

  add(input: CallInput, config: LoopConfig): Judgement | undefined {
    const seq = ++this.seq;
    // The call's length first: fingerprints may be texts (stable-json.ts hashText), and with a plain
    // separator the pair ("a:b", "c") would read the same as ("a", "b:c").
    const sig = `${input.call.length}:${input.call}${input.result}`;
    while (this.history.length >= config.historySize) this.history.shift();
    const isChange = !input.readOnly && !input.isError && !this.history.some((e) => e.sig === sig);
    if (isChange) this.epoch++;
    // Written out rather than spread from input: this runs after every call of the pipeline.
    const entry: Entry = { seq, tool: input.tool, call: input.call, result: input.result, sig, readOnly: input.readOnly, isError: input.isError, epoch: this.epoch };
    this.history.push(entry);
    if (!input.readOnly) this.streak = 0;
    else if (this.streak++ === 0) this.streakSince = seq;
    // Most specific first (see above): choose reads them in the order given.
    const candidates: Candidate[] = [this.sameCall(entry)];
    const pingPong = this.pingPong(entry);
    if (pingPong) candidates.push(pingPong);
    const sameResult = this.sameResult(entry);
    if (sameResult) candidates.push(sameResult);
    const streak = this.readOnlyStreak(entry);
    if (streak) candidates.push(streak);
    return this.choose(candidates, config);
  }

  private sameCall(e: Entry): Candidate {
    let count = 0;
    let since = e.seq;
    for (const h of this.history) {
      if (h.sig !== e.sig || h.epoch !== e.epoch) continue;
      if (count++ === 0) since = h.seq;
    }
    return { finding: { detector: 'sameCall', count, tool: e.tool, isError: e.isError }, since };
  }

  /** Varying arguments, one outcome. Successful changes are excluded: many writes answering "ok" are progress. */
  private sameResult(e: Entry): Candidate | undefined {
    if (!countsForSameResult(e)) return undefined;
    let first: Entry | undefined;
    let count = 0;
    // Two different calls among the matches: one whose call differs from the first match's.
    let varied = false;
    for (const h of this.history) {
      if (!countsForSameResult(h) || h.tool !== e.tool || h.result !== e.result || h.epoch !== e.epoch) continue;
      count++;
      if (first === undefined) first = h;
      else if (h.call !== first.call) varied = true;
    }
    if (!varied || first === undefined) return undefined;
    return { finding: { detector: 'sameResult', count, tool: e.tool, isError: e.isError }, since: first.seq };
  }

  /** Length of the run at the end of the history that alternates between two different outcomes. */
  private pingPong(e: Entry): Candidate | undefined {
    const h = this.history;
    const n = h.length;
    if (n < 3 || h[n - 2].sig === e.sig) return undefined;
    let count = 2;
    while (n - 1 - count >= 0 && h[n - 1 - count].sig === h[n + 1 - count].sig) count++;
    if (count < 3) return undefined;
    const other = h[n - 2];
    const finding: Finding = { detector: 'pingPong', count, tool: e.tool, otherTool: other.tool, isError: e.isError && other.isError };
    return { finding, since: h[n - count].seq };
  }

  private readOnlyStreak(e: Entry): Candidate | undefined {
    if (!e.readOnly) return undefined;
    return { finding: { detector: 'readOnlyStreak', count: this.streak, tool: e.tool, isError: e.isError }, since: this.streakSince };
  }

  /**
   * The verdict for this call: any critical wins (most specific first), else the first warning not
   * already given. Escalate, don't spam: a warning is given only for a pattern whose evidence began
   * after the last warning of its family, so a loop that goes on, or a second view of the same loop
   * (A B A B is both ping-pong and two repeated calls), stays quiet until it reaches critical. A new
   * episode (new output from a poll, a new streak, repeats that began after the warning) warns again.
   * `ordered`: most specific first (see the order above FAMILY).
   */
  private choose(ordered: readonly Candidate[], config: LoopConfig): Judgement | undefined {
    for (const c of ordered) {
      if (c.finding.count >= config[c.finding.detector].critical) return { ...c.finding, level: 'critical' };
    }
    for (const c of ordered) {
      const family = FAMILY[c.finding.detector];
      if (c.finding.count < config[c.finding.detector].warn || c.since <= this.lastWarning[family]) continue;
      this.lastWarning[family] = this.seq;
      return { ...c.finding, level: 'warning' };
    }
    return undefined;
  }
}

function countsForSameResult(e: Entry): boolean {
  return e.readOnly || e.isError;
}
