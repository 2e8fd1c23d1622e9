// One line about a job for the model and for views: what it ran, and how it ended or how long it
// has been running. A finished job always states its exit code (GoClaw omits it on failure, which
// leaves the model guessing), and the signal and the timeout when they ended it.
import type { Job } from './job-manager';

const DISPLAY_MAX = 80;

/** "0.4 s", "3.2 s", "12 s", "2 min 5 s", "1 h 3 min". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const total = Math.round(s);
  if (total < 3600) return `${Math.floor(total / 60)} min${total % 60 ? ` ${total % 60} s` : ''}`;
  const min = Math.floor((total % 3600) / 60);
  return `${Math.floor(total / 3600)} h${min ? ` ${min} min` : ''}`;
}

/** The command as shown: one line, at most 80 characters. */
export function shortDisplay(display: string): string {
  const one = display.replace(/\s*\n\s*/g, ' ⏎ ').trim();
  return one.length > DISPLAY_MAX ? `${one.slice(0, DISPLAY_MAX - 1)}…` : one;
}

function exitPart(job: Job): string {
  const o = job.outcome;
  const code = o?.exitCode ?? null;
  const signal = o?.signal ? `, signal ${o.signal}` : '';
  return `exit code ${code === null ? 'none' : code}${signal}`;
}

/** How the job stands now, without its id and command: "exit code 1 after 3.2 s", "running for 12 s (pid 1234)" … */
export function jobState(job: Job, now: number): string {
  const ran = formatDuration((job.endedAt ?? now) - job.startedAt);
  switch (job.status) {
    case 'running':
      return `running for ${ran}${job.pid !== undefined ? ` (pid ${job.pid})` : ''}`;
    case 'exited':
      return `${exitPart(job)} after ${ran}`;
    case 'killed':
      return `killed after ${ran} (${exitPart(job)})`;
    case 'timed-out':
      return `killed after timeout (${formatDuration(job.spec.timeoutMs)}) (${exitPart(job)})`;
    case 'failed-to-start':
      return `failed to start: ${job.outcome?.startError ?? 'unknown reason'}`;
  }
}

/** "j3 `npm test` — exit code 1 after 3.2 s", plus the executor's note when it left one. */
export function jobSummaryAt(job: Job, now: number): string {
  const note = job.outcome?.note ? ` (${job.outcome.note})` : '';
  return `${job.id} \`${shortDisplay(job.spec.display)}\` — ${jobState(job, now)}${note}`;
}
