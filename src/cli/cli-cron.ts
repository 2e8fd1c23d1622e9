// `pincer cron`: the scheduled jobs of a workspace database from the command line — list, get, add,
// pause, resume, remove, and run one now. Every action is a call of the cron tool through the one
// pipeline (its checks and wording, the tool log, the allow and deny lists), made as the person at the
// terminal: a person's own call is not limited by the profile, the menu a model is offered.
// There is no scheduler here: a job runs on its schedule in the editor, or now with `pincer cron run`
// (a command through exec's judge, answered by --approve; a prompt needs the editor's model).
import { CronScheduler, type CronRunResult } from '../core/automation/cron-scheduler';
import { scheduleFromText } from '../core/automation/cron-format';
import { CronStore, type CronJob, type CronRun } from '../core/automation/cron-store';
import { systemClock } from '../core/clock';
import { runtimeFor } from './cli-run';
import type { Values } from './main';
import { UsageError } from './usage-error';

const ACTIONS = ['list', 'get', 'add', 'pause', 'resume', 'remove', 'run'] as const;
type Action = (typeof ACTIONS)[number];

/** The tool's arguments for the command line, or a usage error that says what is missing. */
export function cronArgs(values: Values, positionals: string[]): Record<string, unknown> {
  const [action, first, second, ...extra] = positionals;
  if (!action || !ACTIONS.includes(action as Action)) throw new UsageError(`pincer cron needs an action: ${ACTIONS.join(', ')} (pincer --help).`);
  if (action === 'list') {
    if (first !== undefined) throw new UsageError('pincer cron list takes no arguments.');
    return { action };
  }
  if (action !== 'add') {
    if (!first || second !== undefined) throw new UsageError(`pincer cron ${action} needs one job id: pincer cron ${action} <id>.`);
    return { action, id: first };
  }
  if (!first || !second || extra.length) throw new UsageError('pincer cron add needs a name and a schedule: pincer cron add <name> \'<cron expression | seconds | ISO time>\' --command CMD | --prompt TEXT.');
  if ((values.command === undefined) === (values.prompt === undefined)) throw new UsageError('pincer cron add needs exactly one of --command CMD or --prompt TEXT.');
  const task = values.command !== undefined ? { command: values.command } : { prompt: values.prompt, ...(values.agent ? { agentId: values.agent } : {}) };
  return { action, name: first, schedule: scheduleFromText(second, values.timezone), task, ...(values['catch-up'] ? { catchUp: true } : {}) };
}

/** What --json prints for each action (the shapes may grow, never change). */
function jsonOf(action: string, details: Record<string, unknown> | undefined, message: string): unknown {
  if (action === 'list') return { jobs: (details?.records as CronJob[] | undefined) ?? [] };
  if (action === 'get') return { job: details?.job, runs: details?.runs };
  if (action === 'add') return { job: details?.job };
  if (action === 'run') return { run: details?.run };
  return { id: details?.id, message };
}

export async function cron(values: Values, positionals: string[]): Promise<number> {
  const args = cronArgs(values, positionals);
  let cronStore: () => Promise<CronStore | undefined> = async () => undefined;
  const { rt, root, jobs, store } = runtimeFor(values, {
    cron: (s) => {
      cronStore = async () => {
        const db = await s.database();
        return db && new CronStore(db);
      };
      return { store: () => cronStore(), scheduler: () => scheduler, clock: systemClock };
    },
  });
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new Error('interrupted')));
  const run = async (job: CronJob, signal: AbortSignal): Promise<CronRunResult> => {
    const task = job.task as { command: string };
    const r = await rt.registry.execute('exec', { command: task.command }, rt.context({
      channel: 'cron', sessionKey: `cron:${job.id}`, isOwner: true, workspaceRoot: root, signal,
    }));
    const ref = r.details?.jobId;
    return { outcome: r.outcome ?? (r.isError ? 'error' : 'ok'), detail: r.forLLM, ...(typeof ref === 'string' ? { ref } : {}) };
  };
  const scheduler = new CronScheduler({ store: () => cronStore(), run });
  try {
    if (args.action === 'run') {
      const job = await (await cronStore())?.get(args.id as string);
      // A prompt's agent turn needs the editor's model: refused before anything is recorded.
      if (job && 'prompt' in job.task) return done(values, args.action, true, `Job ${job.id} is a prompt: it runs in the editor, where a model is chosen (pincer.cron.runNow, or the Scheduled view).`);
    }
    const r = await rt.personCall('cron', args, {
      channel: 'cli', sessionKey: `cli:${process.pid}`, turnId: `cli:${process.pid}:cron`, workspaceRoot: root, signal: controller.signal,
    });
    const failedRun = args.action === 'run' && !r.isError && (r.details?.run as CronRun | undefined)?.outcome !== 'ok';
    return done(values, args.action as string, r.isError || failedRun, r.forLLM, r.details);
  } finally {
    scheduler.stop();
    await jobs.dispose();
    await store.close();
  }
}

/** Prints the outcome; exit 1 for a refusal, an unknown id or a run that did not end ok. */
function done(values: Values, action: string, failed: boolean, message: string, details?: Record<string, unknown>): number {
  const refused = failed && !(action === 'run' && details?.run);
  if (values.json) process.stdout.write(JSON.stringify(refused ? { error: message } : jsonOf(action, details, message), null, 2) + '\n');
  else (failed ? process.stderr : process.stdout).write(message + '\n');
  return failed ? 1 : 0;
}
