// Per-key rate limit by GCRA (the generic cell rate algorithm): each key keeps one number, its
// theoretical arrival time (TAT), the moment its bucket would be full again. A call of cost c moves
// the TAT forward by c emission intervals; it is refused when that would put the TAT further ahead of
// now than the burst allows. Constant time per call, one number per key, no timers.
//
// Unlike a sliding-window log (GoClaw: 150 calls per hour, every tool the same), reads cost less than
// mutations and external effects, a key whose bucket is full again holds no state and is collected,
// and there is no key that goes unlimited.
import type { Capability } from '../tools/types';
import { type Clock, systemClock } from '../clock';

export interface RateLimitConfig {
  enabled: boolean;
  /** Sustained cost units per minute per key. */
  perMinute: number;
  /** Units that may be spent at once from a full bucket. */
  burst: number;
  /** Cost of one call by capability; 0 makes that class free. */
  weights: Record<Capability, number>;
}

// Defaults sized for a coding agent: 120 units a minute is two reads a second sustained, more than a
// model that waits seconds for each completion can issue, while a runaway caller is held to that pace.
// A burst of 60 covers a model that fans out 20 parallel reads several turns in a row, and 20 exec or
// web calls at once. Writes (2) and external effects (3) cost more because they are the expensive and
// the dangerous ones.
export const DEFAULT_RATE_LIMIT: RateLimitConfig = Object.freeze({
  enabled: true,
  perMinute: 120,
  burst: 60,
  weights: Object.freeze({ 'read-only': 1, mutating: 2, external: 3 }),
});

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

const CAPABILITIES: readonly Capability[] = ['read-only', 'mutating', 'external'];
/** Tolerance for floating-point drift when rates do not divide a minute evenly. */
const EPSILON_MS = 1e-6;
/** Takes between sweeps at least; the gap grows with the map so a sweep costs O(1) per take. */
const SWEEP_MIN_TAKES = 1024;

const ALLOWED: RateDecision = Object.freeze({ allowed: true });

/**
 * Merges and checks a configuration. Invalid values throw instead of being clamped: a limit that
 * silently became something else is worse than a settings error the user can see and fix.
 */
export function resolveRateLimitConfig(base: RateLimitConfig, patch: Partial<RateLimitConfig> = {}): RateLimitConfig {
  const merged: RateLimitConfig = { ...base, ...stripUndefined(patch), weights: { ...base.weights, ...stripUndefined(patch.weights ?? {}) } };
  if (typeof merged.enabled !== 'boolean') throw new Error(`rate limit: enabled must be true or false, got ${String(merged.enabled)}`);
  requirePositive('perMinute', merged.perMinute);
  requirePositive('burst', merged.burst);
  for (const cap of CAPABILITIES) {
    const w = merged.weights[cap];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) {
      throw new Error(`rate limit: weights.${cap} must be a finite number >= 0, got ${String(w)}`);
    }
    if (w > merged.burst) {
      throw new Error(`rate limit: weights.${cap} (${w}) exceeds burst (${merged.burst}); such a call could never run`);
    }
  }
  return merged;
}

function requirePositive(name: string, v: unknown): void {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    throw new Error(`rate limit: ${name} must be a finite number > 0, got ${String(v)}`);
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export class RateLimiter {
  private config: RateLimitConfig;
  /** Milliseconds one cost unit occupies: 60 000 / perMinute. */
  private intervalMs: number;
  private readonly tats = new Map<string, number>();
  private takesSinceSweep = 0;
  private sweepAfter = SWEEP_MIN_TAKES;

  constructor(config: Partial<RateLimitConfig> = {}, private readonly clock: Clock = systemClock) {
    this.config = resolveRateLimitConfig(DEFAULT_RATE_LIMIT, config);
    this.intervalMs = 60_000 / this.config.perMinute;
  }

  /** Keys currently holding state (their bucket is not yet full again). */
  get size(): number {
    return this.tats.size;
  }

  take(key: string, capability: Capability): RateDecision {
    if (!this.config.enabled) return ALLOWED;
    const now = this.clock.now();
    if (++this.takesSinceSweep >= this.sweepAfter) this.sweep(now);
    const weight = this.config.weights[capability];
    // An unknown capability is charged as the most expensive class rather than let through free.
    const cost = weight ?? Math.max(...CAPABILITIES.map((c) => this.config.weights[c]));
    if (cost === 0) return ALLOWED;
    const tolerance = this.config.burst * this.intervalMs;
    const tat = Math.max(this.tats.get(key) ?? now, now);
    const next = tat + cost * this.intervalMs;
    if (next - now > tolerance + EPSILON_MS) {
      return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(next - tolerance - now - EPSILON_MS)) };
    }
    this.tats.set(key, next);
    return ALLOWED;
  }

  /**
   * Applies new settings at once. Each key keeps the units it owes, converted to the new rate and
   * capped at the new burst (a bucket is never emptier than empty). Throws on invalid values and then
   * keeps the old configuration.
   */
  updateConfig(config: Partial<RateLimitConfig>): void {
    const next = resolveRateLimitConfig(this.config, config);
    const nextInterval = 60_000 / next.perMinute;
    const now = this.clock.now();
    const maxDebtMs = next.burst * nextInterval;
    for (const [key, tat] of this.tats) {
      const owedUnits = (tat - now) / this.intervalMs;
      if (owedUnits <= 0) this.tats.delete(key);
      else this.tats.set(key, now + Math.min(owedUnits * nextInterval, maxDebtMs));
    }
    this.config = next;
    this.intervalMs = nextInterval;
  }

  /** Drops keys whose bucket is full again; they are indistinguishable from keys never seen. */
  private sweep(now: number): void {
    for (const [key, tat] of this.tats) {
      if (tat <= now) this.tats.delete(key);
    }
    this.takesSinceSweep = 0;
    this.sweepAfter = Math.max(SWEEP_MIN_TAKES, this.tats.size);
  }
}
