// The jobs a session started: exec and credentialed_exec hand every run to the JobManager, which
// keeps its output (OutputLog), enforces its timeout by killing the whole process tree, and keeps a
// finished job for `retentionMs` so the model can still read its log. A job is visible only to the
// session that started it. Nothing a job prints is lost: its log takes every chunk until `done`.
import { randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../../clock';
import { Emitter } from '../../events';
import type { Executor, RunningProcess, RunOutcome, RunTarget } from '../exec-types';
import type { InputTarget } from '../tools/interactive-programs';
import { jobSummaryAt } from './job-summary';
import { OutputLog, type LogMark } from './output-log';
import { failedProcess } from './pending-process';

export { formatDuration, shortDisplay } from './job-summary';

export interface JobSpec {
  tool: string;
  /** The command as shown to people and the model. */
  display: string;
  target: RunTarget;
  cwd: string;
  env: Readonly<Record<string, string>>;
  executor: Executor;
  timeoutMs: number;
  interactive?: boolean;
  /** An interactive job that reads commands (a shell, a REPL, a database shell): its input is judged line by line. */
  inputTo?: InputTarget;
  sessionKey: string;
  agentId: string;
}

export type JobStatus = 'running' | 'exited' | 'killed' | 'timed-out' | 'failed-to-start';

export interface Job {
  readonly id: string;
  readonly spec: JobSpec;
  readonly status: JobStatus;
  readonly startedAt: number;
  readonly endedAt?: number;
  readonly outcome?: RunOutcome;
  readonly log: OutputLog;
  readonly pid?: number;
  /** true when the job finished within ms (or already had); false when it is still running (yield). Abort of signal resolves false. */
  wait(ms: number, signal?: AbortSignal): Promise<boolean>;
  kill(): Promise<void>;
  write(data: string): Promise<void>;
  endInput(): void;
}

/** Thrown by start() when `maxRunning` jobs are running; the message says how to free a slot. */
export class JobLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobLimitError';
  }
}

export interface JobManagerOptions {
  clock?: Clock;
  /** How long a finished job (and its log) is kept. Default 30 minutes. */
  retentionMs?: number;
  /** Jobs running at once, across sessions. Default 8. */
  maxRunning?: number;
  memoryChars?: number;
  spillDir?: string;
  /** Disk cap of one job's log (OutputLog's diskCapBytes). */
  diskCapBytes?: number;
}

export const DEFAULT_RETENTION_MS = 30 * 60_000;
export const DEFAULT_MAX_RUNNING = 8;

/** Poll intervals suggested while a job prints nothing new: 5 → 10 → 30 → 60 s. */
const POLL_STEPS = [5, 10, 30, 60];

/** setTimeout's longest delay; a longer timeout is no timeout in practice. */
const MAX_TIMER_MS = 2_147_483_647;

function newId(taken: (id: string) => boolean): string {
  for (;;) {
    // 6 base-36 characters from 32 random bits: 2 billion ids, never reused while the job is kept.
    const id = `j${(randomBytes(4).readUInt32BE(0) % 36 ** 6).toString(36).padStart(6, '0')}`;
    if (!taken(id)) return id;
  }
}

class JobImpl implements Job {
  status: JobStatus = 'running';
  endedAt?: number;
  outcome?: RunOutcome;
  pid?: number;
  /** Where the next poll's output starts, and how many polls in a row found nothing new. */
  pollMark: LogMark;
  /** -1 so that the first quiet poll already suggests the first step (5 s). */
  quietPolls = -1;
  private proc: RunningProcess;
  private killReason: 'kill' | 'timeout' | undefined;
  private timer: NodeJS.Timeout | undefined;
  readonly finished: Promise<void>;

  constructor(readonly id: string, readonly spec: JobSpec, readonly log: OutputLog, readonly clock: Clock, readonly startedAt: number, onEnd: (job: JobImpl) => void) {
    this.pollMark = log.mark();
    this.proc = startSafely(spec, log);
    this.pid = this.proc.pid;
    if (Number.isFinite(spec.timeoutMs) && spec.timeoutMs > 0) {
      this.timer = setTimeout(() => {
        this.killReason ??= 'timeout';
        this.proc.kill().catch(() => undefined);
      }, Math.min(spec.timeoutMs, MAX_TIMER_MS));
    }
    this.finished = this.proc.done.then((outcome) => this.end(outcome), (e: unknown) => this.end({ exitCode: null, startError: `The run failed: ${String(e)}` }))
      .then(() => onEnd(this));
  }

  private end(outcome: RunOutcome): void {
    if (this.timer) clearTimeout(this.timer);
    this.outcome = outcome;
    this.endedAt = this.clock.now();
    if (outcome.startError) this.status = 'failed-to-start';
    else if (this.killReason === 'timeout') this.status = 'timed-out';
    else if (this.killReason === 'kill') this.status = 'killed';
    else this.status = 'exited';
  }

  async wait(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (this.status !== 'running') return true;
    if (signal?.aborted) return false;
    return new Promise<boolean>((resolve) => {
      const finish = (v: boolean): void => {
        if (t) clearTimeout(t);
        signal?.removeEventListener('abort', onAbort);
        resolve(v);
      };
      const onAbort = (): void => finish(false);
      // Infinity (exec without yieldMs) waits for the end or the signal, with no timer at all.
      const t = Number.isFinite(ms) ? setTimeout(() => finish(false), Math.max(0, Math.min(ms, MAX_TIMER_MS))) : undefined;
      signal?.addEventListener('abort', onAbort, { once: true });
      void this.finished.then(() => finish(true));
    });
  }

  async kill(): Promise<void> {
    if (this.status !== 'running') return;
    this.killReason ??= 'kill';
    await this.proc.kill();
    await this.finished;
  }

  async write(data: string): Promise<void> {
    if (this.status !== 'running') throw new Error(`${this.id} has finished; it takes no more input.`);
    if (!this.spec.interactive) throw new Error(`${this.id} does not take input: it was started without interactive, so its stdin is closed.`);
    await this.proc.write(data);
  }

  endInput(): void {
    if (this.status === 'running') this.proc.endInput();
  }
}

/** Executors never throw for a program that cannot start, but a broken one must not take the manager down. */
function startSafely(spec: JobSpec, log: OutputLog): RunningProcess {
  try {
    return spec.executor.start(
      { target: spec.target, cwd: spec.cwd, env: spec.env, interactive: spec.interactive },
      (chunk, stream) => log.append(chunk, stream),
    );
  } catch (e) {
    return failedProcess(`The ${spec.executor.kind} host could not start it: ${(e as Error).message}`);
  }
}

export class JobManager {
  readonly onDidChange = new Emitter<Job>();
  private readonly jobs = new Map<string, JobImpl>();
  private readonly clock: Clock;
  /** How long a finished job is kept. */
  readonly retentionMs: number;
  private readonly maxRunning: number;
  private readonly sweepTimers = new Set<NodeJS.Timeout>();
  private disposed = false;

  constructor(private readonly opts: JobManagerOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.retentionMs = opts.retentionMs ?? DEFAULT_RETENTION_MS;
    this.maxRunning = opts.maxRunning ?? DEFAULT_MAX_RUNNING;
  }

  start(spec: JobSpec): Job {
    if (this.disposed) throw new Error('The job manager is shut down (the extension is deactivating); nothing new can start.');
    this.sweep();
    const running = [...this.jobs.values()].filter((j) => j.status === 'running');
    if (running.length >= this.maxRunning) {
      const mine = running.filter((j) => j.spec.sessionKey === spec.sessionKey).map((j) => j.id);
      const yours = mine.length
        ? `${mine.length} of them yours (${mine.join(', ')}): stop one with \`process kill id=${mine[0]}\`, or wait for one to finish (\`process poll\`).`
        : 'none of them yours: wait for one to finish, or run the command without background so it ends within this call.';
      throw new JobLimitError(`${running.length} jobs are running, the most allowed at once (${this.maxRunning}); ${yours}`);
    }
    const id = newId((x) => this.jobs.has(x));
    const log = new OutputLog({ memoryChars: this.opts.memoryChars, spillDir: this.opts.spillDir, diskCapBytes: this.opts.diskCapBytes });
    const job = new JobImpl(id, spec, log, this.clock, this.clock.now(), (j) => this.ended(j));
    this.jobs.set(id, job);
    this.onDidChange.fire(job);
    return job;
  }

  private ended(job: JobImpl): void {
    if (this.jobs.get(job.id) !== job) return;
    this.onDidChange.fire(job);
    // Real time drives the timer; the age check itself reads the injected clock.
    const t = setTimeout(() => {
      this.sweepTimers.delete(t);
      this.sweep();
    }, Math.min(this.retentionMs + 1000, MAX_TIMER_MS));
    t.unref();
    this.sweepTimers.add(t);
  }

  /** Drops finished jobs older than the retention, with their logs. */
  private sweep(): void {
    const now = this.clock.now();
    for (const job of [...this.jobs.values()]) {
      if (job.status !== 'running' && job.endedAt !== undefined && now - job.endedAt >= this.retentionMs) this.drop(job);
    }
  }

  private drop(job: JobImpl): void {
    this.jobs.delete(job.id);
    job.log.dispose();
    this.onDidChange.fire(job);
  }

  get(id: string, sessionKey: string): Job | undefined {
    this.sweep();
    const job = this.jobs.get(id.trim());
    return job && job.spec.sessionKey === sessionKey ? job : undefined;
  }

  /** The session's jobs, oldest first. */
  list(sessionKey: string): Job[] {
    this.sweep();
    return [...this.jobs.values()].filter((j) => j.spec.sessionKey === sessionKey).sort((a, b) => a.startedAt - b.startedAt);
  }

  /** Every kept job of every session (for views). */
  all(): Job[] {
    this.sweep();
    return [...this.jobs.values()];
  }

  async remove(id: string, sessionKey: string): Promise<'removed' | 'running' | 'unknown'> {
    const job = this.get(id, sessionKey) as JobImpl | undefined;
    if (!job) return 'unknown';
    if (job.status === 'running') return 'running';
    // A job that ended this very moment may still be settling: let it, so no change event comes after removal.
    await job.finished;
    if (this.jobs.get(job.id) === job) this.drop(job);
    return 'removed';
  }

  /**
   * Output since the last poll and when to poll next: 5 s after new output, then 10, 30, 60 s while
   * nothing new comes; 0 once the job has finished. `fromLine` is the log line `output` starts on.
   */
  poll(id: string, sessionKey: string): { job: Job; output: string; nextPollSeconds: number; fromLine: number } | undefined {
    const job = this.get(id, sessionKey) as JobImpl | undefined;
    if (!job) return undefined;
    const fromLine = job.pollMark.line;
    const output = job.log.since(job.pollMark);
    job.pollMark = job.log.mark();
    job.quietPolls = output.length > 0 ? 0 : job.quietPolls + 1;
    // New output: 5 s; quiet polls in a row: 5, 10, 30, 60 s.
    const nextPollSeconds = job.status === 'running' ? POLL_STEPS[Math.min(job.quietPolls, POLL_STEPS.length - 1)] : 0;
    return { job, output, nextPollSeconds, fromLine };
  }

  /** Kills every running job's process tree and removes every log. */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const t of this.sweepTimers) clearTimeout(t);
    this.sweepTimers.clear();
    const jobs = [...this.jobs.values()];
    await Promise.all(jobs.map((j) => j.kill().catch(() => undefined)));
    for (const j of jobs) j.log.dispose();
    this.jobs.clear();
  }

  /** jobSummary with this manager's clock. */
  summary(job: Job): string {
    return jobSummaryAt(job, this.clock.now());
  }
}

/** "j3 `npm test` — exit code 1 after 3.2 s" / "… — running for 12 s (pid 1234)" / "… — killed after timeout (60 s) …". */
export function jobSummary(job: Job): string {
  return jobSummaryAt(job, job instanceof JobImpl ? job.clock.now() : Date.now());
}
