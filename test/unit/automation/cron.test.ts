// Scheduled jobs on a real workspace database: croner's next runs (time zones, intervals anchored to
// the job, one-shot times), the cron tool's actions and refusals, the scheduler running due jobs once,
// recording missed runs or catching up once at a window's opening, and two windows on one database
// running a due job exactly once.
import assert from 'node:assert/strict';
import { nextRunAfter, scheduleProblem } from '../../../src/core/automation/cron-schedule';
import { CronScheduler, type CronRunResult } from '../../../src/core/automation/cron-scheduler';
import { CRON_MIGRATIONS, CronStore, type CronJob } from '../../../src/core/automation/cron-store';
import { createCronTool } from '../../../src/core/automation/cron-tool';
import { Database } from '../../../src/core/storage/database';
import { runtimeWith } from '../../support/test-tools';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';

const T0 = Date.parse('2026-11-26T12:00:00Z');
const open: Database[] = [];
after(async () => {
  await Promise.all(open.map((db) => db.close()));
  removeTempDirs();
});

async function database(dir = tempDir('cron')): Promise<{ db: Database; dir: string }> {
  const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: CRON_MIGRATIONS });
  open.push(db);
  return { db, dir };
}

function rig(store: CronStore, result: CronRunResult = { outcome: 'ok', detail: 'done' }) {
  let now = T0;
  const clock = { now: () => now };
  const ran: CronJob[] = [];
  const scheduler = new CronScheduler({ store: async () => store, clock, run: async (job) => { ran.push(job); return result; } });
  const rt = runtimeWith({ 'rateLimit.enabled': false, 'loopDetection.enabled': false }, [createCronTool({ store: async () => store, scheduler: () => scheduler, clock })]);
  const cron = (args: Record<string, unknown>, over: Record<string, unknown> = {}) => rt.registry.execute('cron', args, rt.context({ channel: 'test', sessionKey: 'cron', ...over }));
  return { scheduler, ran, cron, at: (t: number) => { now = t; } };
}

describe('cron schedules (croner)', () => {
  it('a cron expression in a time zone, an interval from the job\'s start, one time', () => {
    assert.equal(new Date(nextRunAfter({ cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' }, T0, T0)!).toISOString(), '2026-11-27T08:00:00.000Z');
    assert.equal(new Date(nextRunAfter({ cron: '0 9 * * 1-5', timezone: 'America/New_York' }, Date.parse('2026-11-27T15:00:00Z'), T0)!).toISOString(), '2026-11-30T14:00:00.000Z');
    assert.equal(nextRunAfter({ everySeconds: 3600 }, T0 + 90 * 60_000, T0), T0 + 2 * 3600_000, 'anchored to the start, not to the late run');
    assert.equal(nextRunAfter({ at: '2026-12-24T18:00', timezone: 'Europe/Berlin' }, T0, T0), Date.parse('2026-12-24T17:00:00Z'));
    assert.equal(nextRunAfter({ at: '2026-01-01T00:00:00Z' }, T0, T0), undefined, 'a time that has passed never runs');
  });

  it('refusals name the field', () => {
    assert.match(scheduleProblem({ cron: '61 * * * *' })!, /^schedule\.cron: .*minute/);
    assert.match(scheduleProblem({ cron: '0 9 * * *', timezone: 'Mars/Olympus' })!, /^schedule\.timezone: unknown time zone "Mars\/Olympus"/);
    assert.match(scheduleProblem({ at: 'next tuesday' })!, /^schedule\.at: /);
    assert.equal(scheduleProblem({ everySeconds: 600 }), undefined);
  });
});

describe('the cron tool', () => {
  it('add, list, get, update, pause, resume, remove', async () => {
    const { cron } = rig(new CronStore((await database()).db));
    const added = await cron({ action: 'add', name: 'standup notes', schedule: { cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' }, task: { prompt: 'Summarise yesterday\'s commits.' } });
    assert.equal(added.outcome, 'ok', added.forLLM);
    const id = added.details!.id as string;
    assert.match(added.forLLM, /Next run: 2026-11-27T08:00:00\.000Z/);
    assert.match((await cron({ action: 'list' })).forLLM, new RegExp(`- ${id} "standup notes": cron "0 9 \\* \\* 1-5" \\(Europe/Berlin\\); next 2026-11-27T08:00:00.000Z; last never run`));
    assert.match((await cron({ action: 'get', id })).forLLM, /Task: prompt: Summarise yesterday's commits\.\nCatch up missed runs: no\nNo runs yet\./);
    const updated = await cron({ action: 'update', id, schedule: { everySeconds: 3600 }, task: { command: 'npm test' } });
    assert.equal(updated.details!.nextRunAt, T0 + 3600_000);
    assert.match((await cron({ action: 'get', id })).forLLM, /Task: command: npm test/);
    assert.match((await cron({ action: 'pause', id })).forLLM, /is paused/);
    assert.match((await cron({ action: 'list' })).forLLM, /next paused/);
    assert.match((await cron({ action: 'resume', id })).forLLM, /running again/);
    assert.match((await cron({ action: 'remove', id })).forLLM, /Removed job/);
    assert.equal((await cron({ action: 'list' })).forLLM, 'No scheduled jobs.');
  });

  it('refuses a broken schedule, a time in the past, an unknown id; owner only', async () => {
    const { cron } = rig(new CronStore((await database()).db));
    assert.match((await cron({ action: 'add', name: 'x', schedule: { cron: '* * 32 * *' }, task: { command: 'true' } })).forLLM, /not added: schedule\.cron: /);
    assert.match((await cron({ action: 'add', name: 'x', schedule: { at: '2020-01-01T00:00:00Z' }, task: { command: 'true' } })).forLLM, /in the past/);
    assert.equal((await cron({ action: 'add', name: 'x', schedule: { everySeconds: 5 }, task: { command: 'true' } })).isError, true, 'under a minute is a loop');
    assert.match((await cron({ action: 'get', id: 'nope' })).forLLM, /There is no scheduled job nope/);
    const other = await cron({ action: 'list' }, { isOwner: false });
    assert.equal(other.outcome, 'denied');
  });
});

describe('the cron scheduler', () => {
  it('runs a due job once, records the run and moves to the next time; a paused job waits', async () => {
    const store = new CronStore((await database()).db);
    const { cron, scheduler, ran, at } = rig(store);
    const id = (await cron({ action: 'add', name: 'hourly', schedule: { everySeconds: 3600 }, task: { command: 'true' } })).details!.id as string;
    assert.deepEqual(await scheduler.tick(T0 + 1000), [], 'nothing is due yet');
    at(T0 + 3600_000);
    const [run] = await scheduler.tick(T0 + 3600_000);
    assert.equal(run.outcome, 'ok');
    assert.deepEqual(ran.map((j) => j.id), [id]);
    assert.deepEqual(await scheduler.tick(T0 + 3600_000), [], 'claimed: not run twice');
    assert.equal((await store.get(id))!.nextRunAt, T0 + 2 * 3600_000);
    await cron({ action: 'pause', id });
    assert.deepEqual(await scheduler.tick(T0 + 3 * 3600_000), []);
    const now = await cron({ action: 'run', id });
    assert.match(now.forLLM, /Ran job .*: ok\ndone/);
    assert.match((await cron({ action: 'get', id })).forLLM, /Recent runs:\n- .* ok: done\n- .* ok: done/);
  });

  it('at a window\'s opening: a missed run is recorded as missed, or with catchUp runs once', async () => {
    const store = new CronStore((await database()).db);
    const { cron, scheduler, ran } = rig(store);
    const plain = (await cron({ action: 'add', name: 'plain', schedule: { everySeconds: 3600 }, task: { command: 'true' } })).details!.id as string;
    const catchUp = (await cron({ action: 'add', name: 'catch', schedule: { everySeconds: 3600 }, task: { command: 'true' }, catchUp: true })).details!.id as string;
    const later = T0 + 24 * 3600_000 + 60_000;
    const runs = await scheduler.tick(later);
    assert.deepEqual(runs.map((r) => [r.jobId, r.outcome]).sort(), [[catchUp, 'ok'], [plain, 'missed']].sort());
    assert.deepEqual(ran.map((j) => j.id), [catchUp], 'a day away runs the catch-up job once, not 24 times');
    assert.match((await store.runs(plain))[0].detail!, /no window of the workspace was open/);
    assert.equal((await store.get(plain))!.nextRunAt, T0 + 25 * 3600_000);
  });

  it('a failing run is recorded with its outcome and detail', async () => {
    const store = new CronStore((await database()).db);
    const { cron, scheduler } = rig(store, { outcome: 'denied', detail: 'the command judge denied it', ref: 'job-7' });
    const id = (await cron({ action: 'add', name: 'risky', schedule: { everySeconds: 60 }, task: { command: 'true' } })).details!.id as string;
    const [run] = await scheduler.tick(T0 + 60_000);
    assert.deepEqual([run.outcome, run.detail, run.ref], ['denied', 'the command judge denied it', 'job-7']);
    assert.match((await cron({ action: 'list' })).forLLM, new RegExp(`${id} .*last denied`));
  });

  it('two windows on one database: a due job runs exactly once', async () => {
    const { db, dir } = await database();
    const other = (await database(dir)).db;
    const a = rig(new CronStore(db));
    const b = rig(new CronStore(other));
    await a.cron({ action: 'add', name: 'once', schedule: { everySeconds: 600 }, task: { command: 'true' } });
    const due = T0 + 600_000;
    const [ra, rb] = await Promise.all([a.scheduler.tick(due), b.scheduler.tick(due)]);
    assert.equal(ra.length + rb.length, 1, `runs: ${JSON.stringify([ra, rb])}`);
    assert.equal(a.ran.length + b.ran.length, 1);
  });
});
