// When a scheduled job runs: a cron expression in a time zone, a fixed interval, or one moment. The
// parsing and the next-run arithmetic (day-of-week rules, daylight saving) are croner's; this file only
// says which of the three a job has and turns croner's refusals into messages that name the field.
import type { Cron } from 'croner';
import { z } from 'zod';

/** Shorter intervals are not "scheduled work" but a loop; they would also flood the run history. */
export const MIN_INTERVAL_SECONDS = 60;

export const scheduleSchema = z.union([
  z.object({
    cron: z.string().min(1).describe('Cron expression, 5 or 6 fields ("0 9 * * 1-5": 09:00 on weekdays).'),
    timezone: z.string().min(1).optional().describe('IANA zone the expression is read in (default: the machine\'s).'),
  }).strict(),
  z.object({
    everySeconds: z.number().int().min(MIN_INTERVAL_SECONDS).describe(`Run every this many seconds (at least ${MIN_INTERVAL_SECONDS}).`),
  }).strict(),
  z.object({
    at: z.string().min(1).describe('One run at this ISO 8601 time ("2026-12-24T18:00"; with an offset, or read in `timezone`).'),
    timezone: z.string().min(1).optional(),
  }).strict(),
]);

export type Schedule = z.infer<typeof scheduleSchema>;

function cronOf(s: Exclude<Schedule, { everySeconds: number }>): Cron {
  const pattern = 'cron' in s ? s.cron : s.at;
  // croner on the first cron or one-shot schedule: the runtime that every tool call loads stays without it
  // (the build puts it in dist/lazy-croner.js).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Cron } = require('croner') as typeof import('croner');
  return new Cron(pattern, { paused: true, ...(s.timezone ? { timezone: s.timezone } : {}) });
}

/** Why the schedule cannot be used, or undefined when it can. */
export function scheduleProblem(s: Schedule): string | undefined {
  if ('everySeconds' in s) return undefined;
  if (s.timezone) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: s.timezone });
    } catch {
      return `schedule.timezone: unknown time zone "${s.timezone}"; use an IANA name such as "Europe/Berlin"`;
    }
  }
  try {
    cronOf(s).nextRun();
  } catch (e) {
    const field = 'cron' in s ? 'cron' : 'at';
    return `schedule.${field}: ${(e as Error).message.replace(/^CronPattern: /, '')}`;
  }
  return undefined;
}

/**
 * The first run strictly after `after` (epoch ms), or undefined when there is none (a one-shot time
 * that has passed). Intervals count from `anchor` (the job's creation), so a late run does not shift
 * every later one.
 */
export function nextRunAfter(s: Schedule, after: number, anchor: number): number | undefined {
  if ('everySeconds' in s) {
    const every = s.everySeconds * 1000;
    const k = Math.floor((after - anchor) / every) + 1;
    return anchor + Math.max(1, k) * every;
  }
  const next = cronOf(s).nextRun(new Date(after));
  return next ? next.getTime() : undefined;
}
