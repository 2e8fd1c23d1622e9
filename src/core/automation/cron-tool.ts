// `cron`: scheduled work for the owner — a chat prompt an agent runs in a session of its own, or a
// command through exec's judge, approvals and host — on a cron expression, an interval or one time.
// Actions: add, list, get, update, pause, resume, remove, run (now). The jobs and their run history
// are in the workspace database; the scheduler runs them while a window of the workspace is open.
import { z } from 'zod';
import type { Clock } from '../clock';
import { defineTool, fail, ok, type Tool } from '../tools/types';
import { describeSchedule, jobLine, runLine, taskText, whenText as when } from './cron-format';
import { nextRunAfter, scheduleProblem, scheduleSchema } from './cron-schedule';
import type { CronScheduler } from './cron-scheduler';
import type { CronJob, CronStore } from './cron-store';

const taskSchema = z.union([
  z.object({ prompt: z.string().min(1).describe('What the agent is asked, in a session of its own.'), agentId: z.string().min(1).optional() }).strict(),
  z.object({ command: z.string().min(1).describe('A shell command, judged and approved like any exec call.') }).strict(),
]);

const id = z.string().min(1).describe('The job\'s id (from add or list).');
const parameters = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('add'), name: z.string().min(1).max(100), schedule: scheduleSchema, task: taskSchema,
    catchUp: z.boolean().optional().describe('Run once at the next open if a run was missed while VS Code was closed (default false: recorded as missed).'),
  }).strict(),
  z.object({ action: z.literal('list') }).strict(),
  z.object({ action: z.literal('get'), id }).strict(),
  z.object({
    action: z.literal('update'), id, name: z.string().min(1).max(100).optional(), schedule: scheduleSchema.optional(),
    task: taskSchema.optional(), catchUp: z.boolean().optional(),
  }).strict(),
  z.object({ action: z.literal('pause'), id }).strict(),
  z.object({ action: z.literal('resume'), id }).strict(),
  z.object({ action: z.literal('remove'), id }).strict(),
  z.object({ action: z.literal('run'), id }).strict(),
]);

export interface CronToolPorts {
  store: () => Promise<CronStore | undefined>;
  /** The window's scheduler; absent where nothing runs jobs (then `run` refuses). */
  scheduler?: () => CronScheduler | undefined;
  clock: Clock;
  /** Told after a job was added, changed or removed (the Scheduled view refreshes). */
  changed?: () => void;
}

export function createCronTool(ports: CronToolPorts): Tool {
  return defineTool({
    name: 'cron',
    description: 'Schedules work for later or on repeat: a prompt an agent runs in its own session, or a command (judged and approved like exec). '
      + 'Schedules: a cron expression with a time zone, an interval in seconds, or one ISO time. Actions: add, list, get (with recent runs), update, pause, resume, remove, run (now). '
      + 'Jobs run while a VS Code window of this workspace is open.',
    parameters,
    group: 'automation',
    capability: 'mutating',
    ownerOnly: true,
    async execute(args) {
      const store = await ports.store();
      if (!store) return fail('The workspace database could not be opened, so there are no scheduled jobs here.');
      const now = ports.clock.now();
      const changed = () => {
        ports.scheduler?.()?.wake();
        ports.changed?.();
      };
      if (args.action === 'list') {
        const jobs = await store.list();
        return ok(jobs.length ? `${jobs.length} scheduled job${jobs.length === 1 ? '' : 's'}:\n${jobs.map(jobLine).join('\n')}` : 'No scheduled jobs.', { details: { jobs: jobs.map((j) => j.id), records: jobs } });
      }
      if (args.action === 'add') {
        const problem = scheduleProblem(args.schedule);
        if (problem) return fail(`The job was not added: ${problem}.`);
        const next = nextRunAfter(args.schedule, now, now);
        if (next === undefined) return fail('The job was not added: schedule.at is in the past, so it would never run.');
        const job = await store.add({ name: args.name, schedule: args.schedule, task: args.task, catchUp: args.catchUp ?? false, paused: false, createdAt: now, nextRunAt: next });
        changed();
        return ok(`Added job ${job.id} "${job.name}" (${describeSchedule(job.schedule)}; ${taskText(job.task)}). Next run: ${when(next)}.`, { details: { id: job.id, nextRunAt: next, job } });
      }
      const job = await store.get(args.id);
      if (!job) return fail(`There is no scheduled job ${args.id}. cron list shows the jobs.`);
      switch (args.action) {
        case 'get': {
          const runs = await store.runs(job.id);
          return ok([jobLine(job), `Task: ${taskText(job.task)}`, `Catch up missed runs: ${job.catchUp ? 'yes' : 'no'}`, runs.length ? `Recent runs:\n${runs.map(runLine).join('\n')}` : 'No runs yet.'].join('\n'), { details: { job, runs } });
        }
        case 'update': {
          const updated: CronJob = { ...job, ...(args.name ? { name: args.name } : {}), ...(args.task ? { task: args.task } : {}), ...(args.catchUp !== undefined ? { catchUp: args.catchUp } : {}) };
          if (args.schedule) {
            const problem = scheduleProblem(args.schedule);
            if (problem) return fail(`The job was not changed: ${problem}.`);
            updated.schedule = args.schedule;
            updated.createdAt = now;
            updated.nextRunAt = nextRunAfter(args.schedule, now, now);
          }
          await store.save(updated);
          changed();
          return ok(`Updated job ${job.id}: ${jobLine(updated).slice(2)}.`, { details: { id: job.id, nextRunAt: updated.nextRunAt, job: updated } });
        }
        case 'pause':
        case 'resume': {
          const paused = args.action === 'pause';
          // Resuming starts from now: the runs a paused job skipped are not made up.
          await store.save({ ...job, paused, ...(paused ? {} : { nextRunAt: nextRunAfter(job.schedule, now, job.createdAt) }) });
          changed();
          return ok(`Job ${job.id} is ${paused ? 'paused' : 'running again'}.`);
        }
        case 'remove':
          await store.remove(job.id);
          changed();
          return ok(`Removed job ${job.id} "${job.name}" and its run history.`);
        case 'run': {
          const scheduler = ports.scheduler?.();
          if (!scheduler) return fail('Jobs run only in the editor (a window of this workspace); this entry point cannot run one.');
          const run = await scheduler.runNow(job.id);
          if (!run) return fail(`Job ${job.id} could not be run.`);
          return ok(`Ran job ${job.id}: ${run.outcome}${run.detail ? `\n${run.detail}` : ''}`, { details: { run } });
        }
      }
    },
  });
}
