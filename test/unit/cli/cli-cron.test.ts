// `pincer cron` from outside: a real child process running the compiled entry on a temp workspace and
// state folder — add, list, get, pause, resume, run (a command through exec's judge; a prompt refused),
// remove; JSON shapes and exit codes (0 done, 1 refused or failed, 2 bad usage).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');
const made: string[] = [];
after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function temp(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A workspace, its state folder and a --config that runs commands unconfined (the judge still applies). */
function rig(settings: Record<string, unknown> = {}) {
  const ws = temp('pincer-cron-ws-');
  const state = temp('pincer-cron-state-');
  const config = path.join(temp('pincer-cron-cfg-'), 'settings.json');
  fs.writeFileSync(config, JSON.stringify({ 'pincer.exec.sandbox.mode': 'off', ...settings }));
  const pincer = (...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, 'cron', ...args, '--workspace', ws, '--state', state, '--config', config], { encoding: 'utf8', timeout: 20_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  return { ws, pincer };
}

describe('pincer cron', function () {
  // Each call is a whole CLI process that opens the database: seconds apiece on a loaded machine.
  this.timeout(240_000);
  it('add, list, get, pause, resume, run a command, remove — with JSON and exit codes', () => {
    const { ws, pincer } = rig();
    const added = pincer('add', 'touch marker', '3600', '--command', 'touch cron-ran.txt', '--json');
    assert.equal(added.code, 0, added.err);
    const job = JSON.parse(added.out).job;
    assert.equal(job.name, 'touch marker');
    assert.deepEqual(job.schedule, { everySeconds: 3600 });
    assert.deepEqual(job.task, { command: 'touch cron-ran.txt' });
    assert.equal(typeof job.nextRunAt, 'number');

    const listed = JSON.parse(pincer('list', '--json').out).jobs;
    assert.deepEqual(listed.map((j: { id: string }) => j.id), [job.id]);
    assert.match(pincer('list').out, new RegExp(`^1 scheduled job:\\n- ${job.id} "touch marker": every 3600 s; next \\d{4}-`));

    assert.match(pincer('pause', job.id).out, /is paused/);
    assert.equal(JSON.parse(pincer('get', job.id, '--json').out).job.paused, true);
    assert.deepEqual(JSON.parse(pincer('resume', job.id, '--json').out), { message: `Job ${job.id} is running again.` });

    const ran = pincer('run', job.id, '--json');
    assert.equal(ran.code, 0, ran.err + ran.out);
    assert.equal(JSON.parse(ran.out).run.outcome, 'ok');
    assert.ok(fs.existsSync(path.join(ws, 'cron-ran.txt')), 'the command ran in the workspace');
    const got = JSON.parse(pincer('get', job.id, '--json').out);
    assert.equal(got.job.lastOutcome, 'ok');
    assert.deepEqual(got.runs.map((r: { outcome: string }) => r.outcome), ['ok']);

    assert.equal(pincer('remove', job.id).code, 0);
    assert.deepEqual(JSON.parse(pincer('list', '--json').out), { jobs: [] });
  });

  it('a command the judge denies is recorded as denied and exits 1; it never runs', () => {
    const { pincer } = rig();
    const job = JSON.parse(pincer('add', 'hostile', '0 3 * * *', '--timezone', 'Europe/Berlin', '--command', 'kill -KILL 1', '--json').out).job;
    assert.deepEqual(job.schedule, { cron: '0 3 * * *', timezone: 'Europe/Berlin' });
    const r = pincer('run', job.id, '--json');
    assert.equal(r.code, 1);
    assert.equal(JSON.parse(r.out).run.outcome, 'denied');
  });

  it('a prompt is refused here without a run recorded; unknown ids and bad schedules exit 1', () => {
    const { pincer } = rig();
    const job = JSON.parse(pincer('add', 'notes', '2099-01-01T09:00', '--prompt', 'Summarise the week.', '--catch-up', '--json').out).job;
    assert.deepEqual(job.schedule, { at: '2099-01-01T09:00' });
    assert.equal(job.catchUp, true);
    const r = pincer('run', job.id, '--json');
    assert.equal(r.code, 1);
    assert.match(JSON.parse(r.out).error, /is a prompt: it runs in the editor/);
    assert.deepEqual(JSON.parse(pincer('get', job.id, '--json').out).runs, []);
    const missing = pincer('remove', 'nope');
    assert.equal(missing.code, 1);
    assert.match(missing.err, /There is no scheduled job nope/);
    const bad = pincer('add', 'x', '61 * * * *', '--command', 'true', '--json');
    assert.equal(bad.code, 1);
    assert.match(JSON.parse(bad.out).error, /schedule\.cron: /);
    const loop = pincer('add', 'x', '30', '--command', 'true');
    assert.equal(loop.code, 1, 'under a minute is a loop, not a schedule');
    assert.match(loop.err, /everySeconds/);
  });

  it('goes through the pipeline as the person: the profile (a model\'s menu) does not stop it, a deny list does', () => {
    const coding = rig({ 'pincer.tools.profile': 'coding' }).pincer('list', '--json');
    assert.equal(coding.code, 0, coding.err);
    assert.deepEqual(JSON.parse(coding.out).jobs, []);
    const denied = rig({ 'pincer.tools.deny': ['cron'] }).pincer('list', '--json');
    assert.equal(denied.code, 1);
    assert.match(JSON.parse(denied.out).error, /not allowed by policy here \(deny: listed in pincer\.tools\.deny\)/);
  });

  it('bad usage exits 2', () => {
    const { pincer } = rig();
    for (const args of [[], ['frobnicate'], ['list', 'extra'], ['run'], ['add', 'x', '3600'], ['add', 'x', '3600', '--command', 'a', '--prompt', 'b']]) {
      const r = pincer(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.err}`);
      assert.match(r.err, /^pincer: /);
    }
  });
});
