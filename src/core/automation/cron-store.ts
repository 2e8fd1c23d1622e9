// Scheduled jobs and their run history, in the workspace database. Several windows of one workspace
// share it: a due job is claimed by moving its next run forward with a compare-and-set, so exactly one
// window runs it, whichever wins.
import { randomUUID } from 'node:crypto';
import type { Database, Migration } from '../storage/database';
import type { Schedule } from './cron-schedule';

/** Version 901 and up (tool log 1, checkpoints 101, … teams 801). */
export const CRON_MIGRATIONS: Migration[] = [
  {
    version: 901,
    name: 'scheduled jobs and their runs',
    sql: `CREATE TABLE cron_jobs (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            schedule TEXT NOT NULL,
            task TEXT NOT NULL,
            catch_up INTEGER NOT NULL,
            paused INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            next_run_at INTEGER,
            last_outcome TEXT
          );
          CREATE TABLE cron_runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            job_id TEXT NOT NULL,
            started_at INTEGER NOT NULL,
            ended_at INTEGER,
            outcome TEXT NOT NULL,
            detail TEXT,
            ref TEXT,
            tokens INTEGER
          );
          CREATE INDEX cron_runs_job ON cron_runs(job_id, id);`,
  },
];

/** What a job does: a chat prompt run by an agent in a session of its own, or a command through exec. */
export type CronTask = { prompt: string; agentId?: string } | { command: string };

export interface CronJob {
  id: string;
  name: string;
  schedule: Schedule;
  task: CronTask;
  /** A run missed while no window was open runs once at the next open (else it is recorded as missed). */
  catchUp: boolean;
  paused: boolean;
  createdAt: number;
  /** Epoch ms; undefined when the job will not run again (a one-shot time that has passed). */
  nextRunAt?: number;
  lastOutcome?: string;
}

export type CronOutcome = 'ok' | 'error' | 'denied' | 'rejected-by-user' | 'cancelled' | 'timed-out' | 'missed' | 'running';

export interface CronRun {
  id: number;
  jobId: string;
  startedAt: number;
  endedAt?: number;
  outcome: CronOutcome;
  detail?: string;
  /** The session key (a prompt) or the exec job id (a command) the run can be opened by. */
  ref?: string;
  tokens?: number;
}

interface JobRow {
  id: string; name: string; schedule: string; task: string; catch_up: number; paused: number;
  created_at: number; next_run_at: number | null; last_outcome: string | null;
}

interface RunRow {
  id: number; job_id: string; started_at: number; ended_at: number | null; outcome: string;
  detail: string | null; ref: string | null; tokens: number | null;
}

function jobOf(r: JobRow): CronJob {
  return {
    id: r.id, name: r.name, schedule: JSON.parse(r.schedule) as Schedule, task: JSON.parse(r.task) as CronTask,
    catchUp: r.catch_up === 1, paused: r.paused === 1, createdAt: r.created_at,
    ...(r.next_run_at === null ? {} : { nextRunAt: r.next_run_at }), ...(r.last_outcome === null ? {} : { lastOutcome: r.last_outcome }),
  };
}

function runOf(r: RunRow): CronRun {
  return {
    id: r.id, jobId: r.job_id, startedAt: r.started_at, outcome: r.outcome as CronOutcome,
    ...(r.ended_at === null ? {} : { endedAt: r.ended_at }), ...(r.detail === null ? {} : { detail: r.detail }),
    ...(r.ref === null ? {} : { ref: r.ref }), ...(r.tokens === null ? {} : { tokens: r.tokens }),
  };
}

const JOB_COLUMNS = 'id, name, schedule, task, catch_up, paused, created_at, next_run_at, last_outcome';

export class CronStore {
  constructor(private readonly db: Database) {}

  async add(job: Omit<CronJob, 'id' | 'lastOutcome'>): Promise<CronJob> {
    const id = randomUUID().slice(0, 8);
    await this.db.run(`INSERT INTO cron_jobs (${JOB_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)`, [
      id, job.name, JSON.stringify(job.schedule), JSON.stringify(job.task), job.catchUp ? 1 : 0, job.paused ? 1 : 0, job.createdAt, job.nextRunAt ?? null,
    ]);
    return { ...job, id };
  }

  async list(): Promise<CronJob[]> {
    return (await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM cron_jobs ORDER BY name, id`)).map(jobOf);
  }

  async get(id: string): Promise<CronJob | undefined> {
    const [row] = await this.db.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM cron_jobs WHERE id = ?`, [id]);
    return row && jobOf(row);
  }

  async save(job: CronJob): Promise<void> {
    await this.db.run('UPDATE cron_jobs SET name = ?, schedule = ?, task = ?, catch_up = ?, paused = ?, next_run_at = ? WHERE id = ?', [
      job.name, JSON.stringify(job.schedule), JSON.stringify(job.task), job.catchUp ? 1 : 0, job.paused ? 1 : 0, job.nextRunAt ?? null, job.id,
    ]);
  }

  async remove(id: string): Promise<boolean> {
    const r = await this.db.run('DELETE FROM cron_jobs WHERE id = ?', [id]);
    if (r.changes) await this.db.run('DELETE FROM cron_runs WHERE job_id = ?', [id]);
    return r.changes > 0;
  }

  /** Moves a job's next run from `expected` to `next`; false when another window already did. */
  async claim(id: string, expected: number, next: number | undefined): Promise<boolean> {
    const r = await this.db.run('UPDATE cron_jobs SET next_run_at = ? WHERE id = ? AND next_run_at = ?', [next ?? null, id, expected]);
    return r.changes === 1;
  }

  async startRun(jobId: string, at: number, outcome: CronOutcome = 'running'): Promise<number> {
    return (await this.db.run('INSERT INTO cron_runs (job_id, started_at, outcome) VALUES (?, ?, ?)', [jobId, at, outcome])).lastInsertRowid;
  }

  async endRun(runId: number, jobId: string, end: { at: number; outcome: CronOutcome; detail?: string; ref?: string; tokens?: number }): Promise<void> {
    await this.db.transaction([
      { sql: 'UPDATE cron_runs SET ended_at = ?, outcome = ?, detail = ?, ref = ?, tokens = ? WHERE id = ?', params: [end.at, end.outcome, end.detail ?? null, end.ref ?? null, end.tokens ?? null, runId] },
      { sql: 'UPDATE cron_jobs SET last_outcome = ? WHERE id = ?', params: [end.outcome, jobId] },
    ]);
  }

  /** The latest runs of a job, newest first. */
  async runs(jobId: string, limit = 10): Promise<CronRun[]> {
    return (await this.db.query<RunRow>('SELECT * FROM cron_runs WHERE job_id = ? ORDER BY id DESC LIMIT ?', [jobId, limit])).map(runOf);
  }
}
