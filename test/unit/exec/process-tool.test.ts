// The process tool through the real Registry with real processes: list, poll (backoff hints, exit
// codes, capped output whose hint leads to the right log page, wait), log pages, input to `cat` and
// `read` (write, submit, send-keys, EOF), kill, remove, and the errors that name the next step.
import assert from 'node:assert/strict';
import { JobManager, type JobSpec } from '../../../src/core/exec/run/job-manager';
import { createProcessExecutor } from '../../../src/core/exec/run/process-executor';
import { createProcessTool } from '../../../src/core/exec/tools/process';
import { planKeys } from '../../../src/core/exec/tools/process-keys';
import type { Tool, ToolResult } from '../../../src/core/tools/types';
import { removeTempDirs, tempDir } from '../../support/fs-fixtures';
import { runtimeWith } from '../../support/test-tools';
import { baseEnv, waitFor } from './run/executor-support';

describe('process tool', function () {
  this.timeout(30_000);
  const ex = createProcessExecutor();
  let dir: string;
  let jobs: JobManager;
  let rt: ReturnType<typeof runtimeWith>;
  before(() => (dir = tempDir('process-tool')));
  beforeEach(() => {
    jobs = new JobManager({ spillDir: dir });
    rt = runtimeWith({}, [createProcessTool(jobs, { maxResultChars: 6000, settleMs: 300 }) as Tool]);
  });
  afterEach(() => jobs.dispose());
  after(removeTempDirs);

  const call = (args: Record<string, unknown>, sessionKey = 's1'): Promise<ToolResult> =>
    rt.registry.execute('process', args, rt.context({ channel: 'test', sessionKey }));
  /** A job of session s1; `argv` runs without a shell. */
  const start = (shell: string, more: Partial<JobSpec> & { argv?: string[] } = {}) => {
    const { argv, ...rest } = more;
    return jobs.start({
      tool: 'exec', display: shell, target: argv ? { argv } : { shell }, cwd: dir, env: baseEnv(), executor: ex,
      timeoutMs: 30_000, sessionKey: 's1', agentId: 'default', ...rest,
    });
  };

  it('is a runtime, mutating, poll-style tool', () => {
    const t = createProcessTool(jobs);
    assert.deepEqual([t.name, t.group, t.capability, t.poll], ['process', 'runtime', 'mutating', true]);
    for (const a of ['list', 'poll', 'log', 'write', 'send-keys', 'submit', 'kill', 'remove']) assert.ok(t.description.includes(`\`${a}\``), a);
  });

  it('list: none, then the session\'s jobs with their state', async () => {
    assert.match((await call({ action: 'list' })).forLLM, /^No jobs in this session/);
    const a = start('exit 4');
    const b = start('sleep 30');
    start('true', { sessionKey: 'other' });
    await a.wait(5000);
    const r = await call({ action: 'list' });
    assert.equal(r.isError, false);
    assert.match(r.forLLM, /^2 jobs \(1 running\):/);
    assert.ok(r.forLLM.includes(`- ${a.id} \`exit 4\` — exit code 4 after`), r.forLLM);
    assert.ok(r.forLLM.includes(`- ${b.id} \`sleep 30\` — running for`), r.forLLM);
  });

  it('poll: a finished job reports its exit code and all its output, and how to read the log', async () => {
    const job = start('echo first; echo boom >&2; exit 2');
    await job.wait(5000);
    const r = await call({ action: 'poll', id: job.id });
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, new RegExp(`^${job.id} \`.*\` — exit code 2 after`));
    assert.match(r.forLLM, /first\n/);
    assert.match(r.forLLM, /boom\n/);
    assert.match(r.forLLM, new RegExp(`process log id=${job.id} offset=N`));
    assert.equal(r.details?.exitCode, 2);
    assert.equal(r.details?.nextPollSeconds, 0);
    const again = await call({ action: 'poll', id: job.id });
    assert.match(again.forLLM, /\(no output since the last poll\)/);
  });

  it('poll: a running job says when to poll again, backing off while quiet; wait answers when it ends', async () => {
    const job = start('sleep 1.2; echo finished');
    const r1 = await call({ action: 'poll', id: job.id });
    assert.match(r1.forLLM, /running for .*\n\(no new output since the last poll\)\nStill running\. Poll again in 5 s: process poll id=\w+ wait=5/);
    assert.match((await call({ action: 'poll', id: job.id })).forLLM, /Poll again in 10 s/);
    // A wait of 20 s that ran out would still say "running" (and outlast the test's timeout).
    const r3 = await call({ action: 'poll', id: job.id, wait: 20 });
    assert.match(r3.forLLM, /exit code 0 after/);
    assert.match(r3.forLLM, /finished\n/);
  });

  it('poll caps long output to head and tail, and its hint names the log page that holds the middle', async () => {
    const job = start('i=0; while [ $i -lt 20000 ]; do i=$((i+1)); echo "row $i"; done; echo "error: the end"');
    await job.wait(20_000);
    const r = await call({ action: 'poll', id: job.id });
    assert.ok(r.forLLM.length <= 6000, `${r.forLLM.length}`);
    assert.match(r.forLLM, /row 1\n/);
    assert.match(r.forLLM, /error: the end\n/);
    const m = /omitted here; read them with process log id=(\w+) offset=(\d+) limit=(\d+) …\]\n(row (\d+))/.exec(r.forLLM);
    assert.ok(m, r.forLLM.slice(0, 3000));
    assert.equal(m[1], job.id);
    const [offset, limit, tailFirst] = [Number(m[2]), Number(m[3]), Number(m[5])];
    assert.equal(offset + limit, tailFirst, 'the omitted lines end where the tail starts');
    const page = await call({ action: 'log', id: job.id, offset, limit: 3 });
    assert.match(page.forLLM, new RegExp(`Lines ${offset.toLocaleString('en-US')}–${(offset + 2).toLocaleString('en-US')} of 20,001:\\nrow ${offset}\\nrow ${offset + 1}\\nrow ${offset + 2}\\n\\[Use offset=${offset + 3} to continue\\.`));
  });

  it('log: the last page by default, any range by offset/limit, and past the end says how long it is', async () => {
    const job = start('seq 1 1000');
    await job.wait(5000);
    const last = await call({ action: 'log', id: job.id });
    assert.match(last.forLLM, /Lines 801–1,000 of 1,000:\n801\n/);
    assert.match(last.forLLM, /1000\n\[End of the log\. Earlier lines: offset=601\.\]$/);
    const mid = await call({ action: 'log', id: job.id, offset: 10, limit: 5 });
    assert.match(mid.forLLM, /Lines 10–14 of 1,000:\n10\n11\n12\n13\n14\n\[Use offset=15 to continue\./);
    const past = await call({ action: 'log', id: job.id, offset: 5000 });
    assert.match(past.forLLM, /offset=5000 is past the end: the log has 1,000 lines/);
    const empty = start('true');
    await empty.wait(5000);
    assert.match((await call({ action: 'log', id: empty.id })).forLLM, /It has printed nothing\./);
  });

  it('write, submit and send-keys reach `cat`; C-d ends its input and it exits 0', async () => {
    const job = start('cat', { argv: ['cat'], interactive: true });
    const w = await call({ action: 'write', id: job.id, data: 'abc' });
    assert.equal(w.isError, false, w.forLLM);
    assert.match(w.forLLM, /Sent 3 characters to its stdin\.\nOutput:\nabc\n/);
    const s = await call({ action: 'submit', id: job.id, data: 'a line' });
    assert.match(s.forLLM, /New output \(from line 1\):\na line\n/);
    const k = await call({ action: 'send-keys', id: job.id, keys: ['hi', 'Tab', 'x', 'Space', 'Enter'] });
    assert.match(k.forLLM, /New output \(from line 2\):\nhi\tx \n/);
    const c = await call({ action: 'send-keys', id: job.id, keys: ['C-c'] });
    assert.match(c.forLLM, /C-c was sent as a byte: the job reads a pipe, not a terminal/);
    const d = await call({ action: 'send-keys', id: job.id, keys: ['C-d'] });
    assert.match(d.forLLM, /closed it \(EOF\)/);
    assert.ok(await job.wait(5000));
    assert.equal(job.outcome?.exitCode, 0);
    assert.equal(job.log.head(100), 'abca line\nhi\tx \n\x03');
  });

  it('submit answers a `read` prompt; write with eof closes input', async () => {
    const script = 'printf "name? "; read n; echo "hello $n"';
    const job = start(script, { argv: ['sh', '-c', script], interactive: true });
    assert.ok(await waitFor(() => job.log.totalChars > 0));
    const r = await call({ action: 'submit', id: job.id, data: 'Ada' });
    await job.wait(5000);
    const p = await call({ action: 'poll', id: job.id });
    assert.match(r.forLLM + p.forLLM, /hello Ada\n/);
    assert.match(p.forLLM, /exit code 0/);

    const wc = start('wc -l', { argv: ['sh', '-c', 'wc -l'], interactive: true });
    const w = await call({ action: 'write', id: wc.id, data: 'a\nb\nc\n', eof: true });
    await wc.wait(5000);
    const out = w.forLLM + (await call({ action: 'poll', id: wc.id })).forLLM;
    assert.match(out, /\b3\n/);
    assert.equal(wc.outcome?.exitCode, 0);
  });

  it('input errors name the next step', async () => {
    const closed = start('sleep 30');
    const r = await call({ action: 'write', id: closed.id, data: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, new RegExp(`${closed.id} does not take input: .*exec and interactive: true`));
    const cat = start('cat', { argv: ['cat'], interactive: true });
    const after = await call({ action: 'send-keys', id: cat.id, keys: ['C-d', 'x'] });
    assert.match(after.forLLM, /nothing can follow it/);
    assert.match((await call({ action: 'write', id: cat.id })).forLLM, /write needs data/);
    assert.match((await call({ action: 'send-keys', id: cat.id })).forLLM, /send-keys needs keys/);
    const done = start('true', { interactive: true });
    await done.wait(5000);
    assert.match((await call({ action: 'submit', id: done.id, data: 'x' })).forLLM, /It has finished, so it takes no input/);
  });

  it('kill stops a running job (then says it already finished); remove refuses it while it runs', async () => {
    const job = start('echo started; sleep 30');
    assert.ok(await waitFor(() => job.log.totalChars > 0));
    const refused = await call({ action: 'remove', id: job.id });
    assert.equal(refused.isError, true);
    assert.match(refused.forLLM, new RegExp(`${job.id} is still running; kill it first \\(process kill id=${job.id}\\)`));
    const k = await call({ action: 'kill', id: job.id });
    assert.equal(k.isError, false);
    assert.match(k.forLLM, /killed after .* \(exit code none, signal SIGTERM\)\nKilled it and every process it started\./);
    assert.match(k.forLLM, /started\n/);
    assert.equal(k.details?.status, 'killed');
    assert.match((await call({ action: 'kill', id: job.id })).forLLM, /It had already finished; nothing to kill/);
    const rm = await call({ action: 'remove', id: job.id });
    assert.match(rm.forLLM, new RegExp(`^Removed ${job.id} .*Its log is deleted\\.$`));
    assert.match((await call({ action: 'poll', id: job.id })).forLLM, /No job \w+ in this session; `process list` shows yours/);
  });

  it('another session sees no job; a missing id and a bad action are refused', async () => {
    const job = start('sleep 30');
    for (const action of ['poll', 'log', 'kill', 'remove', 'write']) {
      const r = await call({ action, id: job.id, data: 'x' }, 's2');
      assert.equal(r.isError, true);
      assert.match(r.forLLM, new RegExp(`No job ${job.id} in this session; \`process list\` shows yours`));
    }
    assert.equal(job.status, 'running', 'the other session could not kill it');
    for (const id of ['../../etc/passwd', 'j', `${job.id}x`, ' '.repeat(3), 'J'.repeat(64)]) {
      assert.equal((await call({ action: 'poll', id })).isError, true, id);
    }
    assert.match((await call({ action: 'poll' })).forLLM, /poll needs the job's id/);
    const bad = await call({ action: 'explode', id: job.id });
    assert.equal(bad.isError, true);
    assert.match(bad.forLLM, /action/);
  });

  it('send-keys: named keys, control keys in their spellings, and literal text, per host kind', () => {
    const keys = ['Enter', 'C-c', 'Up', '^A', 'ctrl+z', 'Ctrl-D', 'Escape', 'PageDown', 'Hello', 'enter'];
    assert.deepEqual(planKeys(keys, true), { steps: [{ write: '\r\x03\x1b[A\x01\x1a\x04\x1b\x1b[6~Hello\r' }], notes: [] });
    const pipe = planKeys(['y', 'Enter', 'C-c', 'C-d'], false);
    assert.deepEqual(pipe.steps, [{ write: 'y\n\x03' }, { eof: true }], 'on a pipe Enter is a line feed and C-d closes stdin');
    assert.equal(pipe.notes.length, 1);
    assert.deepEqual(planKeys(['C-?', 'C-[', 'Backspace', 'Delete'], true).steps, [{ write: '\x7f\x1b\x7f\x1b[3~' }]);
  });
});
