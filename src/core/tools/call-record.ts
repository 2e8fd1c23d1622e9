// What the registry tells observers (the tool log, the sidebar, storage) about each call.
// Everything in here has been through the scrubber: it is safe to show and to store.

/**
 * How a call ended. `refused`: policy/offer/trust, before the tool ran; `denied`: the tool's own
 * guard refused (the command judge); `rejected-by-user`: a person said no (a diff, an approval);
 * `invalid`: bad arguments; `loop`: halted run.
 */
export type Outcome = 'ok' | 'error' | 'refused' | 'denied' | 'rejected-by-user' | 'rate-limited' | 'invalid' | 'cancelled' | 'timeout' | 'loop' | 'unknown-tool';

export interface CallStart {
  id: string;
  tool: string;
  sessionKey: string;
  channel: string;
  startedAt: number;
}

export interface CallEnd {
  id: string;
  /** The tool that ran (the alias target when called by an alias). */
  tool: string;
  /** The name the caller used. */
  calledAs: string;
  sessionKey: string;
  agentId: string;
  channel: string;
  startedAt: number;
  durationMs: number;
  outcome: Outcome;
  /** Scrubbed, shortened arguments. */
  args: string;
  /** Scrubbed first line of the result when the call failed or was refused. */
  message?: string;
  /** Loop detector warning added to this result, if any. */
  loopWarning?: string;
  truncated?: boolean;
}

export interface SlowNotice {
  id: string;
  tool: string;
  sessionKey: string;
  elapsedMs: number;
  thresholdMs: number;
}
