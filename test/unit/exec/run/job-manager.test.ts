// The JobManager with real processes (the process executor): exit codes, complete output after exit,
// timeouts that end the whole tree, waiting and yielding, poll backoff, retention on an injected
// clock, session isolation, the running limit, input, kill, remove and dispose.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createProcessExecutor } from '../../../../src/core/exec/run/process-executor';
import { JobLimitError, JobManager, jobSummary, type Job, type JobSpec } from '../../../../src/core/exec/run/job-manager';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';
import { baseEnv, isLive, pidFrom, reap, waitFor } from './executor-support';

class ManualClock {
  constructor(public t = 1_000_000) {}
  now(): number {
    return this.t;
  }
}

describe('JobManager', function () {
  this.timeout(30_000);
  const ex = createProcessExecutor();
  const managers: JobManager[] = [];
  const leftovers: number[] = [];
  let dir: string;
  before(() => (dir = tempDir('jobs')));
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.dispose()));
    reap(leftovers);
  });
  after(removeTempDirs);

  const manager = (opts: ConstructorParameters<typeof JobManager>[0] = {}) => {
    const m = new JobManager({ spillDir: dir, ...opts });
    managers.push(m);
    return m;
  };
  const spec = (shell: string, more: Partial<JobSpec> = {}): JobSpec => ({
    tool: 'exec', display: shell, target: { shell }, cwd: dir, env: baseEnv(), executor: ex,
    timeoutMs: 30_000, sessionKey: 's1', agentId: 'default', ...more,
  });

  it('reports a failure with its exit code and both streams, and ids look like j + 6 base-36 characters', async () => {
    const jobs = manager();
    const job = jobs.start(spec('echo out; echo err >&2; exit 3'));
    assert.match(job.id, /^j[0-9a-z]{6}$/);
    assert.equal(job.status, 'running');
    assert.ok(job.pid && job.pid > 0);
    assert.equal(await job.wait(10_000), true);
    assert.equal(job.status, 'exited');
    assert.equal(job.outcome?.exitCode, 3);
    assert.ok(job.endedAt! >= job.startedAt);
    assert.equal(job.log.charsByStream.stdout, 4);
    assert.equal(job.log.charsByStream.stderr, 4);
    assert.match(job.log.head(100), /out\n|err\n/);
    assert.match(jobSummary(job), new RegExp(`^${job.id} \`echo out; echo err >&2; exit 3\` — exit code 3 after \\d+\\.\\d s$`));
  });

  it('wait() yields false while it runs, then true once it ended; an aborted signal yields false', async () => {
    const jobs = manager();
    const job = jobs.start(spec('sleep 0.6; echo done'));
    assert.equal(await job.wait(50), false);
    assert.equal(job.status, 'running');
    assert.match(jobSummary(job), /— running for 0\.\d s \(pid \d+\)$/);
    // The job ends long before 5 s: false here means the abort ended the wait, not the job.
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    assert.equal(await job.wait(5000, ac.signal), false);
    assert.equal(await job.wait(5000), true);
    assert.equal(await job.wait(0), true, 'a finished job answers at once');
    assert.equal(job.log.tail(5), 'done\n');
  });

  it('keeps the whole output of a job that prints 200k lines and exits', async () => {
    const jobs = manager({ memoryChars: 100_000 });
    const job = jobs.start(spec('i=0; while [ $i -lt 200000 ]; do i=$((i+1)); echo "line $i"; done', { timeoutMs: 60_000 }));
    assert.equal(await job.wait(60_000), true);
    assert.equal(job.outcome?.exitCode, 0);
    assert.equal(job.log.totalLines, 200_000);
    assert.equal(job.log.read(1, 1).text, 'line 1\n');
    assert.equal(job.log.read(123_457, 2).text, 'line 123457\nline 123458\n');
    assert.equal(job.log.read(200_000, 5).text, 'line 200000\n');
    let expected = '';
    for (let i = 1; i <= 200_000; i++) expected += `line ${i}\n`;
    assert.equal(job.log.since({ pos: 0, chars: 0, newlines: 0, line: 1 }), expected);
    assert.ok(job.log.spilled);
  });

  it('kills the whole tree at the timeout, grandchild included, and says so', async () => {
    const jobs = manager();
    const job = jobs.start(spec('sleep 300 & echo $!; wait', { timeoutMs: 700 }));
    const grandchild = await pidFrom(() => job.log.head(100));
    leftovers.push(grandchild);
    assert.ok(isLive(grandchild));
    assert.equal(await job.wait(10_000), true);
    assert.equal(job.status, 'timed-out');
    assert.ok(await waitFor(() => !isLive(grandchild)), `grandchild ${grandchild} is gone`);
    assert.match(jobSummary(job), /killed after timeout \(0\.7 s\) \(exit code (none|\d+)/);
  });

  it('poll: output since the last poll, backoff 5 → 10 → 30 → 60 s while quiet, 5 again on new output, 0 when finished', async () => {
    const jobs = manager();
    const job = jobs.start({ ...spec('cat', { interactive: true }), target: { argv: ['cat'] } });
    const poll = () => jobs.poll(job.id, 's1')!;
    const quiet = [poll(), poll(), poll(), poll(), poll()];
    assert.deepEqual(quiet.map((p) => p.nextPollSeconds), [5, 10, 30, 60, 60]);
    assert.ok(quiet.every((p) => p.output === ''));
    await job.write('hello\n');
    assert.ok(await waitFor(() => job.log.totalChars === 6), job.log.tail(200));
    const p1 = poll();
    assert.equal(p1.output, 'hello\n');
    assert.equal(p1.fromLine, 1);
    assert.equal(p1.nextPollSeconds, 5, 'new output resets the backoff');
    assert.equal(poll().nextPollSeconds, 10);
    await job.write('again\n');
    assert.ok(await waitFor(() => job.log.totalChars === 12), job.log.tail(200));
    const p2 = poll();
    assert.deepEqual([p2.output, p2.fromLine, p2.nextPollSeconds], ['again\n', 2, 5]);
    job.endInput();
    assert.equal(await job.wait(5000), true);
    assert.equal(job.outcome?.exitCode, 0);
    assert.equal(poll().nextPollSeconds, 0);
  });

  it('drops a finished job 30 minutes after it ended (injected clock), with its log files', async () => {
    const clock = new ManualClock();
    const jobs = manager({ clock, memoryChars: 10 });
    const events: string[] = [];
    jobs.onDidChange.on((j) => events.push(`${j.id}:${j.status}`));
    const job = jobs.start(spec('printf "%0500d" 0'));
    assert.equal(await job.wait(5000), true);
    await new Promise((r) => setImmediate(r));
    const spill = job.log.spillDirectory!;
    assert.ok(fs.existsSync(spill));
    clock.t += 29 * 60_000;
    assert.equal(jobs.get(job.id, 's1'), job);
    clock.t += 60_000;
    assert.equal(jobs.get(job.id, 's1'), undefined);
    assert.equal(fs.existsSync(spill), false, 'the spill files went with it');
    assert.deepEqual(events, [`${job.id}:running`, `${job.id}:exited`, `${job.id}:exited`], 'start, end, removal');
    assert.deepEqual(jobs.list('s1'), []);
  });

  it('shows a job only to the session that started it', async () => {
    const jobs = manager();
    const job = jobs.start(spec('echo mine'));
    await job.wait(5000);
    assert.equal(jobs.get(job.id, 's2'), undefined);
    assert.deepEqual(jobs.list('s2'), []);
    assert.equal(jobs.poll(job.id, 's2'), undefined);
    assert.equal(await jobs.remove(job.id, 's2'), 'unknown');
    assert.deepEqual(jobs.list('s1').map((j) => j.id), [job.id]);
  });

  it('refuses a start past maxRunning with a message that says how to free a slot', async () => {
    const jobs = manager({ maxRunning: 2 });
    const a = jobs.start(spec('sleep 30'));
    jobs.start(spec('sleep 30', { sessionKey: 's2' }));
    assert.throws(() => jobs.start(spec('sleep 30')), (e: unknown) => {
      assert.ok(e instanceof JobLimitError);
      assert.match(e.message, /2 jobs are running, the most allowed at once \(2\); 1 of them yours \(j\w+\): stop one with `process kill id=j\w+`/);
      return true;
    });
    assert.throws(() => jobs.start(spec('sleep 30', { sessionKey: 's3' })), /none of them yours/);
    await a.kill();
    const c = jobs.start(spec('echo ok'));
    assert.equal(await c.wait(5000), true);
  });

  it('remove refuses a running job, then removes it once killed; kill reports killed', async () => {
    const jobs = manager();
    const job = jobs.start(spec('sleep 30'));
    assert.equal(await jobs.remove(job.id, 's1'), 'running');
    await job.kill();
    assert.equal(job.status, 'killed');
    assert.equal(job.outcome?.signal, 'SIGTERM');
    assert.match(jobSummary(job), /killed after \d+\.\d s \(exit code none, signal SIGTERM\)/);
    assert.equal(await jobs.remove(job.id, 's1'), 'removed');
    assert.equal(jobs.get(job.id, 's1'), undefined);
    assert.equal(await jobs.remove(job.id, 's1'), 'unknown');
  });

  it('writes to an interactive job; refuses input to others and after the end', async () => {
    const jobs = manager();
    // sh, not bash: bash reading a socket as stdin sources ~/.bashrc (see the report).
    const script = 'read name; echo "hi $name"; read x; echo "x=$x"';
    const job = jobs.start({ ...spec(script, { interactive: true }), target: { argv: ['sh', '-c', script] } });
    await job.write('Ada\n');
    assert.ok(await waitFor(() => job.log.tail(100).includes('hi Ada\n')));
    job.endInput();
    assert.equal(await job.wait(5000), true);
    assert.equal(job.log.tail(100), 'hi Ada\nx=\n');
    await assert.rejects(job.write('late'), /has finished/);
    const closed = jobs.start(spec('sleep 5'));
    await assert.rejects(closed.write('x'), /does not take input/);
  });

  it('a program that cannot start is failed-to-start with the reason', async () => {
    const jobs = manager();
    const job = jobs.start({ ...spec('x'), target: { argv: ['/nonexistent/prog-xyz'] }, display: '/nonexistent/prog-xyz' });
    assert.equal(await job.wait(5000), true);
    assert.equal(job.status, 'failed-to-start');
    assert.match(jobSummary(job), /failed to start: .*not found|failed to start: .*prog-xyz/);
  });

  it('dispose kills every running tree and removes every log; nothing starts after', async () => {
    const jobs = new JobManager({ spillDir: dir, memoryChars: 10 });
    const running: Job[] = [];
    for (let i = 0; i < 3; i++) running.push(jobs.start(spec('printf "%0100d" 0; sleep 30 & echo "pid=$!"; wait')));
    const pids = await Promise.all(running.map((j) => pidFrom(() => /pid=(\d+)/.exec(j.log.tail(30))?.[1] ?? '')));
    leftovers.push(...pids);
    const spills = running.map((j) => j.log.spillDirectory!);
    assert.ok(spills.every((s) => fs.existsSync(s)));
    await jobs.dispose();
    assert.ok(running.every((j) => j.status === 'killed'));
    assert.ok(await waitFor(() => pids.every((p) => !isLive(p))), 'the background sleeps are gone too');
    assert.ok(spills.every((s) => !fs.existsSync(s)));
    assert.throws(() => jobs.start(spec('true')), /shut down/);
  });
});
