// Time as a port, so rate limits, loop windows and timing can be tested with an injected clock.
export interface Clock {
  /** Milliseconds, monotonic enough for intervals (Date.now in production). */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
