// Loop detection for the execute pipeline, kept per session key. After each call the pipeline records
// it and gets a verdict: a warning goes into the next result the model sees; a critical one halts the
// session, and every later call is refused with the reason until a new turn resets it. The detectors
// themselves live in loop-session.ts, the defaults and their reasons in loop-config.ts.
import type { Capability } from '../tools/types';
import { DEFAULT_LOOP_CONFIG, resolveLoopConfig, type LoopConfig } from './loop-config';
import { criticalMessage, warningMessage } from './loop-messages';
import { LoopSession, type Judgement } from './loop-session';
import { hashCall, hashText } from './stable-json';

export { DEFAULT_LOOP_CONFIG, type LoopConfig } from './loop-config';

export interface LoopCall {
  tool: string;
  args: unknown;
  capability: Capability;
  /** A poll-style tool: judged only on whether it brings anything new. */
  poll?: boolean;
}

export type LoopVerdict =
  | { level: 'ok' }
  | {
    level: 'warning' | 'critical';
    detector: 'sameCall' | 'sameResult' | 'pingPong' | 'pollNoProgress' | 'readOnlyStreak';
    count: number;
    message: string;
  };

/**
 * Sessions kept at once. Each holds at most `historySize` small entries; beyond this the least
 * recently active session is dropped (a dropped session starts clean, which is the safe direction).
 */
const MAX_SESSIONS = 512;

const OK: LoopVerdict = Object.freeze({ level: 'ok' });

export class LoopDetector {
  private config: LoopConfig;
  private readonly sessions = new Map<string, LoopSession>();
  /** The key of the most recently used session (the map's last), if it is still there. */
  private lastKey: string | undefined;

  constructor(config: Partial<LoopConfig> = {}) {
    this.config = resolveLoopConfig(DEFAULT_LOOP_CONFIG, config);
  }

  /** Whether calls are judged at all (a caller may skip building the record when they are not). */
  get enabled(): boolean {
    return this.config.enabled;
  }

  /** After a call finished: records it (args hashed as name + stable JSON, result hashed) and judges the session's recent history. */
  record(sessionKey: string, call: LoopCall, resultText: string, isError: boolean): LoopVerdict {
    if (!this.config.enabled) return OK;
    const session = this.touch(sessionKey, true) as LoopSession;
    if (session.halt) return { level: 'critical', ...session.halt };
    // The error flag is part of the outcome: "ok: <text>" and "error: <text>" are different results.
    const result = hashText(`${isError ? 'error' : 'ok'}\u0000${resultText}`);
    const judgement = call.poll
      ? session.addPoll(call.tool, result, isError, this.config)
      : session.add({ tool: call.tool, call: hashCall(call.tool, call.args), result, readOnly: call.capability === 'read-only', isError }, this.config);
    return judgement ? this.verdict(session, judgement) : OK;
  }

  /** Before a call: a session that hit critical stays halted until reset; returns the reason, else undefined. */
  haltedReason(sessionKey: string): string | undefined {
    if (!this.config.enabled) return undefined;
    return this.touch(sessionKey, false)?.halt?.message;
  }

  /** A new user turn or a new run: the model has new input, so earlier repeats no longer count. */
  reset(sessionKey: string): void {
    this.sessions.delete(sessionKey);
  }

  /** Takes effect at once; throws on invalid values and then keeps the previous configuration. */
  updateConfig(config: Partial<LoopConfig>): void {
    this.config = resolveLoopConfig(this.config, config);
    // Turning detection off also lifts halts and frees memory; turning it back on starts clean.
    if (!this.config.enabled) this.sessions.clear();
  }

  /** The session is closed. */
  forget(sessionKey: string): void {
    this.sessions.delete(sessionKey);
  }

  private verdict(session: LoopSession, j: Judgement): LoopVerdict {
    if (j.level === 'warning') return { level: 'warning', detector: j.detector, count: j.count, message: warningMessage(j) };
    session.halt = { detector: j.detector, count: j.count, message: criticalMessage(j) };
    return { level: 'critical', ...session.halt };
  }

  /**
   * Finds a session and marks it most recently used, creating it if asked. The map's order is the
   * recency order; a session that is already the last one (a run's calls, one after another) is not
   * moved: a delete and a set per call leave the map's table to be rebuilt every few calls.
   */
  private touch(key: string, create: boolean): LoopSession | undefined {
    let session = this.sessions.get(key);
    if (session && key === this.lastKey) return session;
    if (session) {
      this.sessions.delete(key);
    } else {
      if (!create) return undefined;
      session = new LoopSession();
      if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    }
    this.sessions.set(key, session);
    this.lastKey = key;
    return session;
  }
}
