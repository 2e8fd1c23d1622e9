// Adaptive tool timing: a call that runs past twice the slowest time this tool has taken before (once
// there are 3+ samples), or past a default (120 s) for tools without that history, produces a
// slow-tool notice while it is still running, so the user can see it and cancel.
export interface TimingStats {
  samples: number;
  maxMs: number;
}

export interface TimingConfig {
  /** Threshold for tools with fewer than `minSamples` samples. */
  defaultSlowMs: number;
  minSamples: number;
  factor: number;
}

export const DEFAULT_TIMING: TimingConfig = { defaultSlowMs: 120_000, minSamples: 3, factor: 2 };

export class ToolTiming {
  private stats = new Map<string, TimingStats>();

  constructor(private config: TimingConfig = DEFAULT_TIMING) {}

  updateConfig(config: Partial<TimingConfig>): void {
    this.config = { ...this.config, ...config };
  }

  /** Milliseconds after which a call to `tool` counts as slow. */
  slowThresholdMs(tool: string): number {
    const s = this.stats.get(tool);
    if (!s || s.samples < this.config.minSamples) return this.config.defaultSlowMs;
    return Math.max(1, s.maxMs * this.config.factor);
  }

  /** Adds a finished call; returns the updated stats (the host persists them). */
  record(tool: string, durationMs: number): TimingStats {
    const prev = this.stats.get(tool) ?? { samples: 0, maxMs: 0 };
    const next = { samples: prev.samples + 1, maxMs: Math.max(prev.maxMs, durationMs) };
    this.stats.set(tool, next);
    return next;
  }

  /** Restores persisted history (storage loads it after activation). */
  load(entries: Iterable<[string, TimingStats]>): void {
    for (const [tool, s] of entries) {
      const cur = this.stats.get(tool);
      this.stats.set(tool, cur ? { samples: cur.samples + s.samples, maxMs: Math.max(cur.maxMs, s.maxMs) } : { ...s });
    }
  }

  get(tool: string): TimingStats | undefined {
    return this.stats.get(tool);
  }
}
