// How scheduled jobs and their runs read — one wording for the cron tool, the Scheduled view and
// `pincer cron`. Free of croner (types only), so the view and the CLI's listing load without it.
import type { Schedule } from './cron-schedule';
import type { CronJob, CronRun, CronTask } from './cron-store';

export function describeSchedule(s: Schedule): string {
  if ('everySeconds' in s) return `every ${s.everySeconds} s`;
  if ('cron' in s) return `cron "${s.cron}"${s.timezone ? ` (${s.timezone})` : ''}`;
  return `once at ${s.at}${s.timezone ? ` (${s.timezone})` : ''}`;
}

/**
 * A schedule typed by a person (the view's Edit, `pincer cron add`): whole seconds are an interval,
 * a date (YYYY-MM-DD…) is one time, anything else a cron expression. Only the shape is chosen here;
 * the cron tool checks it (croner's parse) like any schedule.
 */
export function scheduleFromText(text: string, timezone?: string): Schedule {
  const t = text.trim();
  const zone = timezone ? { timezone } : {};
  if (/^\d+$/.test(t)) return { everySeconds: Number(t) };
  if (/^\d{4}-\d{2}-\d{2}/.test(t)) return { at: t, ...zone };
  return { cron: t, ...zone };
}

export const whenText = (ms: number | undefined): string => (ms === undefined ? 'never again' : new Date(ms).toISOString());

export const taskText = (t: CronTask): string => ('command' in t ? `command: ${t.command}` : `prompt${t.agentId ? ` (agent ${t.agentId})` : ''}: ${t.prompt}`);

export const jobLine = (j: CronJob): string => `- ${j.id} "${j.name}": ${describeSchedule(j.schedule)}; next ${j.paused ? 'paused' : whenText(j.nextRunAt)}; last ${j.lastOutcome ?? 'never run'}`;

export const runLine = (r: CronRun): string => `- ${new Date(r.startedAt).toISOString()} ${r.outcome}${r.ref ? ` (${r.ref})` : ''}${r.detail ? `: ${r.detail.split('\n')[0]}` : ''}`;

/** A prompt's run has a chat session to open; a command's run has only its exec job's output. */
export const runSession = (r: CronRun): string | undefined => (r.ref?.startsWith('cron:') ? r.ref : undefined);

/** A job's row in the Scheduled view: its name; when it runs next (or that it is paused) and how it last ended. */
export function jobRow(j: CronJob, local: (ms: number) => string): { label: string; description: string; tooltip: string } {
  const next = j.paused ? 'paused' : j.nextRunAt === undefined ? 'done' : `next ${local(j.nextRunAt)}`;
  return {
    label: j.name,
    description: `${next} · ${j.lastOutcome ?? 'never run'}`,
    tooltip: [`${j.id}: ${describeSchedule(j.schedule)}`, taskText(j.task), `Catch up missed runs: ${j.catchUp ? 'yes' : 'no'}`].join('\n'),
  };
}

/** A run's row: when it started; how it ended, how long it took and its tokens. */
export function runRow(r: CronRun, local: (ms: number) => string): { label: string; description: string; tooltip: string } {
  const took = r.endedAt === undefined ? '' : ` · ${Math.max(0, Math.round((r.endedAt - r.startedAt) / 1000))} s`;
  const tokens = r.tokens === undefined ? '' : ` · ${r.tokens} tokens`;
  return { label: local(r.startedAt), description: `${r.outcome}${took}${tokens}`, tooltip: r.detail ?? r.outcome };
}

/** A run as a read-only markdown document: the job, how the run ended, and what it answered (fenced, so it cannot restructure the page). */
export function runDocument(j: CronJob, r: CronRun): string {
  const text = r.detail ?? '';
  const fence = '`'.repeat(Math.max(2, ...(text.match(/`+/g) ?? []).map((s) => s.length)) + 1);
  return [
    `# ${j.name} — run of ${new Date(r.startedAt).toISOString()}`, '',
    `- Job: ${j.id}, ${describeSchedule(j.schedule)}`,
    `- Task: ${taskText(j.task).replace(/\n/g, ' ')}`,
    `- Outcome: ${r.outcome}${r.endedAt === undefined ? '' : `, ended ${new Date(r.endedAt).toISOString()}`}`,
    ...(r.ref ? [`- ${runSession(r) ? 'Session' : 'Exec job'}: ${r.ref}`] : []),
    ...(r.tokens === undefined ? [] : [`- Tokens: ${r.tokens}`]),
    '', fence, text, fence, '',
  ].join('\n');
}
