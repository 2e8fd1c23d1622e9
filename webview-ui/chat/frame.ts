// One render per animation frame, whatever arrives in between: text deltas are appended to buffers
// and drawn once per frame. A hidden page gets no animation frames, so a timer stands in after 50 ms
// (whichever comes first runs the batch; the other finds nothing to do).
const jobs = new Set<() => void>();
let scheduled = false;

function run(): void {
  if (!scheduled) return;
  scheduled = false;
  const batch = [...jobs];
  jobs.clear();
  for (const job of batch) {
    try {
      job();
    } catch (e) {
      console.error('chat: render failed', e);
    }
  }
}

export function onNextFrame(job: () => void): void {
  jobs.add(job);
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(run);
  setTimeout(run, 50);
}
