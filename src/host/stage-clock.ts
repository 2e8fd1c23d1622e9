// Milliseconds per named step of building the window's runtime (createHostCore): the first tool
// call's bench records them (test/host/suite/first-tool-call.test.ts), so a step that grows shows by name.

export interface StageClock {
  /** Each step's milliseconds, in the order the steps ran. */
  readonly stages: Record<string, number>;
  /** Ends the step `name`: the time since the previous mark (or the clock's start) is its own. */
  mark(name: string): void;
}

export function stageClock(): StageClock {
  const stages: Record<string, number> = {};
  let last = performance.now();
  return {
    stages,
    mark(name) {
      const now = performance.now();
      stages[name] = (stages[name] ?? 0) + now - last;
      last = now;
    },
  };
}
