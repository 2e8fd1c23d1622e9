// How jobs and runs read in the Scheduled view and `pincer cron`, a schedule typed by a person, a
// person's own action through the tool's checks, and the scheduler telling the view about runs.
import assert from 'node:assert/strict';
import { jobRow, runDocument, runRow, runSession, scheduleFromText } from '../../../src/core/automation/cron-format';
import { CronScheduler } from '../../../src/core/automation/cron-scheduler';
import { CRON_MIGRATIONS, CronStore, type CronJob, type CronRun } from '../../../src/core/automation/cron-store';
import { createCronTool } from '../../../src/core/automation/cron-tool';
import { Database } from '../../../src/core/storage/database';
import { runtimeWith } from '../../support/test-tools';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';

const T0 = Date.parse('2026-11-26T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const job: CronJob = {
  id: 'j1', name: 'nightly', schedule: { cron: '0 3 * * *', timezone: 'Europe/Berlin' }, task: { command: 'npm test' },
  catchUp: false, paused: false, createdAt: T0, nextRunAt: T0 + 3600_000, lastOutcome: 'ok',
};

let db: Database | undefined;
after(async () => {
  await db?.close();
  removeTempDirs();
});

describe('cron wording', () => {
  it('a typed schedule: seconds are an interval, a date one time, the rest a cron expression', () => {
    assert.deepEqual(scheduleFromText(' 3600 '), { everySeconds: 3600 });
    assert.deepEqual(scheduleFromText('2026-12-24T18:00', 'Europe/Berlin'), { at: '2026-12-24T18:00', timezone: 'Europe/Berlin' });
    assert.deepEqual(scheduleFromText('0 9 * * 1-5', 'UTC'), { cron: '0 9 * * 1-5', timezone: 'UTC' });
    assert.deepEqual(scheduleFromText('@daily'), { cron: '@daily' });
  });

  it('rows: next run or paused or done, last outcome; a run\'s outcome, duration and tokens', () => {
    assert.deepEqual(jobRow(job, iso), {
      label: 'nightly', description: `next ${iso(T0 + 3600_000)} · ok`,
      tooltip: 'j1: cron "0 3 * * *" (Europe/Berlin)\ncommand: npm test\nCatch up missed runs: no',
    });
    assert.equal(jobRow({ ...job, paused: true }, iso).description, 'paused · ok');
    assert.equal(jobRow({ ...job, nextRunAt: undefined, lastOutcome: undefined }, iso).description, 'done · never run');
    const run: CronRun = { id: 3, jobId: 'j1', startedAt: T0, endedAt: T0 + 4200, outcome: 'ok', detail: 'passed', tokens: 1200 };
    assert.deepEqual(runRow(run, iso), { label: iso(T0), description: 'ok · 4 s · 1200 tokens', tooltip: 'passed' });
    assert.equal(runRow({ id: 4, jobId: 'j1', startedAt: T0, outcome: 'running' }, iso).description, 'running');
  });

  it('a run\'s document fences what the run answered, whatever backticks it holds', () => {
    const hostile = 'done\n```\n# Injected heading\n````';
    const doc = runDocument(job, { id: 1, jobId: 'j1', startedAt: T0, endedAt: T0 + 1000, outcome: 'error', detail: hostile, ref: 'job-7' });
    assert.match(doc, /^# nightly — run of 2026-11-26T12:00:00.000Z\n/);
    assert.match(doc, /- Outcome: error, ended 2026-11-26T12:00:01.000Z\n- Exec job: job-7\n/);
    assert.ok(doc.includes(`\`\`\`\`\`\n${hostile}\n\`\`\`\`\`\n`), doc);
    assert.equal(runSession({ id: 1, jobId: 'j1', startedAt: T0, outcome: 'ok', ref: 'cron:j1:1764158400000' }), 'cron:j1:1764158400000');
    assert.equal(runSession({ id: 1, jobId: 'j1', startedAt: T0, outcome: 'ok', ref: 'job-7' }), undefined);
  });
});

describe('a person\'s action on the jobs, and the view told about runs', () => {
  it('a person\'s call goes through the pipeline under the lists, not the profile; the scheduler reports each run\'s start and end', async () => {
    db = await Database.open({ dir: tempDir('cron-format'), workerPath: STORAGE_WORKER, migrations: CRON_MIGRATIONS });
    const store = new CronStore(db);
    let told = 0;
    let changed = 0;
    const clock = { now: () => T0 };
    const scheduler = new CronScheduler({ store: async () => store, clock, run: async () => ({ outcome: 'ok', detail: 'fine' }), onRun: () => { told++; } });
    const tool = createCronTool({ store: async () => store, scheduler: () => scheduler, clock, changed: () => { changed++; } });
    // cron is outside the coding profile: the model is not offered it, the person still calls it.
    const rt = runtimeWith({ 'tools.profile': 'coding' }, [tool]);
    let turn = 0;
    const person = (args: Record<string, unknown>) => rt.personCall('cron', args, { channel: 'test', sessionKey: 'view', turnId: `view:${++turn}` });
    const asModel = await rt.registry.execute('cron', { action: 'list' }, rt.context({ channel: 'test', sessionKey: 'chat' }));
    assert.equal(asModel.outcome, 'denied', asModel.forLLM);
    assert.match(asModel.forLLM, /profile/);
    const loop = await person({ action: 'add', name: 'x', schedule: { everySeconds: 5 }, task: { command: 'true' } });
    assert.equal(loop.isError, true);
    assert.match(loop.forLLM, /everySeconds/);
    assert.equal(changed, 0, 'nothing was added');
    const added = await person({ action: 'add', name: 'x', schedule: { everySeconds: 60 }, task: { command: 'true' } });
    assert.equal(added.isError, false, added.forLLM);
    assert.equal(changed, 1);
    const ran = await person({ action: 'run', id: added.details!.id as string });
    assert.match(ran.forLLM, /^Ran job .*: ok\nfine$/);
    assert.equal(told, 2, 'told when the run started and when it was recorded');
    await person({ action: 'pause', id: added.details!.id as string });
    await person({ action: 'remove', id: added.details!.id as string });
    assert.equal(changed, 3);
    // Five identical calls are a person clicking, not a loop: each is a run of its own.
    for (let i = 0; i < 6; i++) assert.equal((await person({ action: 'list' })).isError, false);
  });

  it('a deny list the person wrote refuses their own call too', async () => {
    const tool = createCronTool({ store: async () => undefined, clock: { now: () => T0 } });
    const rt = runtimeWith({ 'tools.deny': ['cron'] }, [tool]);
    const r = await rt.personCall('cron', { action: 'list' }, { channel: 'test', sessionKey: 'view', turnId: 'view:1' });
    assert.equal(r.outcome, 'denied', r.forLLM);
    assert.match(r.forLLM, /deny/);
  });
});
