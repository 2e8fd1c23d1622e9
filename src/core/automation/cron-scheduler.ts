// Runs scheduled jobs while a window of the workspace is open. Each due job is claimed in the database
// (cron-store.ts) before it runs, so with several windows open exactly one runs it. At a window's
// opening, a run missed while no window was open runs once now if the job has `catchUp`, and is
// recorded as missed otherwise; either way the job moves on to its next time, so a week away does not
// bring a week of runs. What a run does is the runner's (an agent turn, or a command through exec's
// judge, approvals and host): a run that waits for an approval waits like any command.
import { systemClock, type Clock } from '../clock';
import type { CronJob, CronOutcome, CronRun, CronStore } from './cron-store';

/**
 * The schedules' schemas and arithmetic, required when a job is first due: the scheduler starts with
 * every window, most of which have no job. A literal path, so that esbuild bundles it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const nextRunAfter: typeof import('./cron-schedule').nextRunAfter = (s, after, anchor) => (require('./cron-schedule') as typeof import('./cron-schedule')).nextRunAfter(s, after, anchor);

export interface CronRunResult {
  outcome: CronOutcome;
  detail: string;
  ref?: string;
  tokens?: number;
}

export type CronRunner = (job: CronJob, signal: AbortSignal) => Promise<CronRunResult>;

/** A run due more than this long ago when the window opened was missed, not merely late. */
export const MISSED_AFTER_MS = 60_000;
/** The timer never sleeps longer than this, so a changed clock or another window's new job is seen. */
const MAX_SLEEP_MS = 60_000;
const DETAIL_CHARS = 2000;

export class CronScheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private running: Promise<unknown> = Promise.resolve();
  private opened = false;

  constructor(private readonly d: {
    store: () => Promise<CronStore | undefined>;
    run: CronRunner;
    clock?: Clock;
    /** Told when a run starts or is recorded (the Scheduled view refreshes). */
    onRun?: () => void;
  }) {}

  private now(): number {
    return (this.d.clock ?? systemClock).now();
  }

  /** Starts the timer, first looking after `delayMs`; that look handles the runs missed while no window was open. */
  start(delayMs = 0): void {
    this.schedule(delayMs);
  }

  /** Looks again soon (a job was added or changed). */
  wake(): void {
    if (this.timer) this.schedule(0);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.abort.abort(new Error('the window closed'));
  }

  /** Runs every job due at `now`; answers the runs it recorded (runs of other windows are theirs). */
  async tick(now = this.now()): Promise<CronRun[]> {
    const store = await this.d.store();
    if (!store) return [];
    const opening = !this.opened;
    this.opened = true;
    const done: CronRun[] = [];
    for (const job of await store.list()) {
      if (job.paused || job.nextRunAt === undefined || job.nextRunAt > now) continue;
      const next = nextRunAfter(job.schedule, now, job.createdAt);
      if (!(await store.claim(job.id, job.nextRunAt, next))) continue;
      if (opening && !job.catchUp && job.nextRunAt < now - MISSED_AFTER_MS) {
        const id = await store.startRun(job.id, job.nextRunAt, 'missed');
        await store.endRun(id, job.id, { at: now, outcome: 'missed', detail: 'no window of the workspace was open at that time (catchUp is off)' });
        done.push((await store.runs(job.id, 1))[0]);
        this.d.onRun?.();
        continue;
      }
      done.push(await this.execute(store, job));
    }
    return done;
  }

  /** `cron run`: runs the job now, whatever its schedule; its next time stays as it was. */
  async runNow(id: string): Promise<CronRun | undefined> {
    const store = await this.d.store();
    const job = await store?.get(id);
    if (!store || !job) return undefined;
    return this.execute(store, job);
  }

  private async execute(store: CronStore, job: CronJob): Promise<CronRun> {
    const runId = await store.startRun(job.id, this.now());
    this.d.onRun?.();
    let r: CronRunResult;
    try {
      r = await this.d.run(job, this.abort.signal);
    } catch (e) {
      r = { outcome: this.abort.signal.aborted ? 'cancelled' : 'error', detail: (e as Error).message };
    }
    const detail = r.detail.length > DETAIL_CHARS ? `${r.detail.slice(0, DETAIL_CHARS - 1)}…` : r.detail;
    await store.endRun(runId, job.id, { at: this.now(), outcome: r.outcome, detail, ...(r.ref ? { ref: r.ref } : {}), ...(r.tokens !== undefined ? { tokens: r.tokens } : {}) });
    this.d.onRun?.();
    return (await store.runs(job.id, 1))[0];
  }

  private schedule(ms: number): void {
    if (this.abort.signal.aborted) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.running.then(() => this.tick()).then(() => this.sleepUntilNext(), () => this.schedule(MAX_SLEEP_MS));
    }, ms);
    this.timer.unref?.();
  }

  private async sleepUntilNext(): Promise<void> {
    const jobs = (await (await this.d.store())?.list()) ?? [];
    const next = Math.min(...jobs.filter((j) => !j.paused && j.nextRunAt !== undefined).map((j) => j.nextRunAt!));
    this.schedule(Math.max(0, Math.min(MAX_SLEEP_MS, (Number.isFinite(next) ? next : Infinity) - this.now())));
  }
}
