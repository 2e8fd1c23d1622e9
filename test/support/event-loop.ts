// How long the main thread's event loop was blocked: the longest gap between ticks of a short
// interval, beyond its period. Used by the storage tests and (compiled, from out/) the benchmarks.
export function watchEventLoop(periodMs = 5): () => number {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - periodMs);
    last = now;
  }, periodMs);
  return () => {
    clearInterval(timer);
    return worst;
  };
}
