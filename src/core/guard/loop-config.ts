// Loop-detection settings, their defaults and why, and validation.
export interface Thresholds {
  warn: number;
  critical: number;
}

export interface LoopConfig {
  enabled: boolean;
  historySize: number;
  sameCall: Thresholds;
  sameResult: Thresholds;
  pingPong: Thresholds;
  pollNoProgress: Thresholds;
  readOnlyStreak: Thresholds;
}

export type Detector = 'sameCall' | 'sameResult' | 'pingPong' | 'pollNoProgress' | 'readOnlyStreak';

export const DETECTORS: readonly Detector[] = ['sameCall', 'sameResult', 'pingPong', 'pollNoProgress', 'readOnlyStreak'];

/** Detectors that count inside the history window, so their critical must fit in it. */
const WINDOWED: readonly Detector[] = ['sameCall', 'sameResult', 'pingPong'];

/** Below these a detector would fire on patterns that are not repetition at all. */
const MAX_HISTORY = 1000;

const MIN_WARN: Record<Detector, number> = { sameCall: 2, sameResult: 2, pingPong: 3, pollNoProgress: 1, readOnlyStreak: 1 };

export const DEFAULT_LOOP_CONFIG: LoopConfig = deepFreeze({
  // On by default: OpenClaw ships it off, which is how its loops run for hours.
  enabled: true,
  // The window the repeat counters look at: the last 30 calls (OpenClaw's figure). Wide enough that
  // interleaving other calls between repeats does not hide them, and it holds every critical below.
  historySize: 30,
  // The same call returning the same result: nothing can be learned from the third copy, and the fifth
  // means the model is not reading its results (GoClaw's 3/5). Errors count: retrying a failing call
  // unchanged is the commonest loop.
  sameCall: { warn: 3, critical: 5 },
  // One tool, varying arguments, one result (the evasion that beats OpenClaw): edits whose old text is
  // never found, searches that all come back empty. Warn at 4 like GoClaw; stop at 8 rather than 6,
  // because a few empty searches while hunting for a symbol in a big repository are normal. Successful
  // mutating and external calls are not counted: ten different writes all answering "ok" are progress.
  sameResult: { warn: 4, critical: 8 },
  // Two calls alternating with unchanged results (A B A B): by the fourth call both have repeated with
  // nothing changed; four round trips (8 calls) stop the run, before sameCall's critical would (9th).
  pingPong: { warn: 4, critical: 8 },
  // Polls that bring nothing new (output already seen). Waiting on a slow build is legitimate, so
  // warn early (the model should wait longer between polls or check the process) and stop only after
  // 20 stalled polls. A poll with new output resets the count.
  pollNoProgress: { warn: 5, critical: 20 },
  // Read-only calls in a row with no change made. Rereading is caught above at a finer grain, so this
  // only bounds exploration where every call is new: reading 40 different files before an edit is
  // normal for a coding agent in a big repository and must stay silent; 50 earns a nudge to act or
  // answer, 100 stops the run.
  readOnlyStreak: { warn: 50, critical: 100 },
});

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v);
  return Object.freeze(o);
}

/**
 * Merges a patch (nested thresholds may be partial) and checks the result. Invalid values throw with
 * the setting's name rather than being clamped, and the caller keeps its previous configuration.
 */
export function resolveLoopConfig(base: LoopConfig, patch: Partial<LoopConfig> = {}): LoopConfig {
  const merged: LoopConfig = {
    enabled: patch.enabled ?? base.enabled,
    historySize: patch.historySize ?? base.historySize,
    sameCall: { ...base.sameCall, ...defined(patch.sameCall) },
    sameResult: { ...base.sameResult, ...defined(patch.sameResult) },
    pingPong: { ...base.pingPong, ...defined(patch.pingPong) },
    pollNoProgress: { ...base.pollNoProgress, ...defined(patch.pollNoProgress) },
    readOnlyStreak: { ...base.readOnlyStreak, ...defined(patch.readOnlyStreak) },
  };
  if (typeof merged.enabled !== 'boolean') throw new Error(`loop detection: enabled must be true or false, got ${String(merged.enabled)}`);
  // Every record scans the window, so its size is the per-call cost: keep it modest.
  requireInteger('historySize', merged.historySize, 2, MAX_HISTORY);
  for (const d of DETECTORS) {
    const { warn, critical } = merged[d];
    requireInteger(`${d}.warn`, warn, MIN_WARN[d]);
    requireInteger(`${d}.critical`, critical, MIN_WARN[d]);
    if (critical < warn) throw new Error(`loop detection: ${d}.critical (${critical}) must be >= ${d}.warn (${warn})`);
    if (WINDOWED.includes(d) && critical > merged.historySize) {
      throw new Error(`loop detection: ${d}.critical (${critical}) exceeds historySize (${merged.historySize}) and could never be reached`);
    }
  }
  return merged;
}

function requireInteger(name: string, v: unknown, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new Error(`loop detection: ${name} must be an integer ${range}, got ${String(v)}`);
  }
}

function defined<T extends object>(o: T | undefined): Partial<T> {
  if (!o) return {};
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
