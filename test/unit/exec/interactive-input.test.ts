// Interactive jobs that read commands, through the real pipeline with real processes: starting a
// shell or a REPL asks; every line typed into a shell is judged like exec's own command before it is
// sent (in pieces or whole, in the folder the shell moved to); a line for a REPL asks; a program that
// only reads data is untouched. The shells run with HOME in a temp folder: a line that got through
// by mistake could only reach that folder, and its marker file shows whether it did.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { ApprovalAnswer } from '../../../src/core/exec/exec-types';
import type { Job } from '../../../src/core/exec/run/job-manager';
import { createProcessExecutor } from '../../../src/core/exec/run/process-executor';
import type { ToolResult } from '../../../src/core/tools/types';
import { execFixture, type ExecFixture } from '../../support/exec-fixture';
import { removeTempDirs, tempDir } from '../../support/fs-fixtures';
import { waitFor } from './run/executor-support';

after(removeTempDirs);

describe('interactive jobs that read commands', function () {
  this.timeout(30_000);
  let f: ExecFixture;
  let home: string;
  let marker: string;
  beforeEach(() => {
    home = tempDir('interactive-home');
    marker = path.join(home, 'keep.txt');
    fs.writeFileSync(marker, 'still here');
    f = execFixture({}, { ...process.env, HOME: home });
    fs.writeFileSync(path.join(f.root, 'listed-file.txt'), '');
  });
  afterEach(() => f.dispose());

  /** Starts `command` interactively in the background, the start approved by the person with `answer`. */
  async function start(command: string, answer: ApprovalAnswer = 'once'): Promise<{ r: ToolResult; job?: Job }> {
    f.approver.answers.push(answer);
    const r = await f.run('exec', { command, interactive: true, background: true });
    const id = r.details?.jobId as string | undefined;
    return { r, job: id ? f.jobs.get(id, 'test:exec') : undefined };
  }
  const proc = (args: Record<string, unknown>) => f.run('process', args);
  const output = (job: Job) => job.log.tail(100_000);
  const saw = (job: Job, text: string) => waitFor(() => output(job).includes(text));

  it('starting a shell asks, with a reason that says it is an interactive shell; a refusal starts nothing', async () => {
    const { r, job } = await start('bash', 'deny');
    assert.equal(r.isError, true, r.forLLM);
    assert.equal(job, undefined);
    assert.equal(f.jobs.list('test:exec').length, 0, 'nothing started');
    assert.equal(f.approver.requests.length, 1);
    assert.match(f.approver.requests[0].reason, /interactive shell \(bash\)/);
    assert.ok(f.approver.requests[0].alwaysUnavailable, '"Always allow" is not offered for a shell start');
  });

  it('starting a REPL or a database shell asks too; a non-shell interactive program keeps its verdict', async () => {
    const py = await start('python3 -i', 'deny');
    assert.equal(py.r.isError, true);
    assert.match(f.approver.requests[0].reason, /REPL \(python3\)/);
    const db = await start('sqlite3', 'deny');
    assert.equal(db.r.isError, true);
    assert.match(f.approver.requests[1].reason, /database shell \(sqlite3\)/);
    const plain = await f.run('exec', { command: 'read -r answer; echo "got: $answer"', interactive: true, background: true });
    assert.equal(plain.isError, false, plain.forLLM);
    assert.equal(f.approver.requests.length, 2, 'no question for a program that reads data');
    // Its input is data, not a command: sent as given.
    const job = f.jobs.get(plain.details?.jobId as string, 'test:exec') as Job;
    const sent = await proc({ action: 'submit', id: job.id, data: 'rm -rf ~' });
    assert.equal(sent.isError, false, sent.forLLM);
    assert.ok(await saw(job, 'got: rm -rf ~'), output(job));
  });

  it('a hostile line to a running shell is denied and nothing is sent', async () => {
    const { job } = await start('bash');
    assert.ok(job);
    const r = await proc({ action: 'submit', id: job.id, data: 'rm -rf ~' });
    assert.equal(r.isError, true, r.forLLM);
    assert.match(r.forLLM, /Nothing was sent/);
    assert.match(r.forLLM, /denied/i);
    assert.equal(r.outcome, 'denied');
    const next = await proc({ action: 'submit', id: job.id, data: 'echo alive-$((40+2))' });
    assert.equal(next.isError, false, next.forLLM);
    assert.ok(await saw(job, 'alive-42'), output(job));
    assert.ok(fs.existsSync(marker), 'the home folder was not touched');
    assert.equal(f.approver.requests.length, 1, 'only the start asked');
  });

  it('a command split over two writes is judged whole: `rm -rf ` then `~` is denied', async () => {
    const { job } = await start('bash');
    assert.ok(job);
    const first = await proc({ action: 'write', id: job.id, data: 'rm -rf ' });
    assert.equal(first.isError, false, first.forLLM);
    assert.match(first.forLLM, /held until the line ends/);
    const second = await proc({ action: 'write', id: job.id, data: '~\n' });
    assert.equal(second.isError, true, second.forLLM);
    assert.match(second.forLLM, /Nothing was sent/);
    // Nothing of the refused line waits in the shell to prefix the next one.
    await proc({ action: 'submit', id: job.id, data: 'echo clean-line' });
    assert.ok(await saw(job, 'clean-line'), output(job));
    assert.doesNotMatch(output(job), /rm:|command not found/);
    assert.ok(fs.existsSync(marker));
  });

  it('an open quote is held and judged with the line that closes it', async () => {
    const { job } = await start('bash');
    assert.ok(job);
    const open = await proc({ action: 'write', id: job.id, data: "echo '\n" });
    assert.equal(open.isError, false, open.forLLM);
    assert.match(open.forLLM, /Holding 1 line/);
    const close = await proc({ action: 'write', id: job.id, data: "'; rm -rf ~\n" });
    assert.equal(close.isError, true, close.forLLM);
    assert.match(close.forLLM, /Nothing was sent/);
    assert.ok(fs.existsSync(marker));
  });

  it('judges a line in the folder the shell moved to: after `cd ~`, `rm -rf *` acts outside the workspace', async () => {
    const { job } = await start('bash');
    assert.ok(job);
    const cd = await proc({ action: 'submit', id: job.id, data: 'cd ~' });
    assert.equal(cd.isError, false, cd.forLLM);
    const rm = await proc({ action: 'submit', id: job.id, data: 'rm -rf ./*' });
    assert.equal(rm.isError, true, rm.forLLM);
    assert.match(rm.forLLM, /Nothing was sent/);
    assert.ok(fs.existsSync(marker));
  });

  it('an ordinary line runs: `ls` is sent and its output seen; Enter alone and C-c need no judging', async () => {
    const { job } = await start('bash');
    assert.ok(job);
    const r = await proc({ action: 'submit', id: job.id, data: 'ls' });
    assert.equal(r.isError, false, r.forLLM);
    assert.ok(await saw(job, 'listed-file.txt'), output(job));
    assert.equal((await proc({ action: 'send-keys', id: job.id, keys: ['Enter'] })).isError, false);
    const block = await proc({ action: 'write', id: job.id, data: 'for i in 1 2; do\necho n$i\ndone\n' });
    assert.equal(block.isError, false, block.forLLM);
    assert.ok(await saw(job, 'n2'), output(job));
    // C-c drops a half-typed line that was never sent.
    await proc({ action: 'write', id: job.id, data: 'rm -rf ' });
    const dropped = await proc({ action: 'send-keys', id: job.id, keys: ['C-c'] });
    assert.match(dropped.forLLM, /dropped the unsent input/);
    assert.match(dropped.forLLM, /C-c was not sent: the job reads a pipe/);
    assert.doesNotMatch(dropped.forLLM, /sent as a byte/);
    const after = await proc({ action: 'submit', id: job.id, data: 'echo after-drop' });
    assert.equal(after.isError, false, after.forLLM);
    assert.ok(await saw(job, 'after-drop'), output(job));
    assert.equal(f.approver.requests.length, 1, 'only the start asked');
  });

  it('a line with editing keys asks: Up + Enter would run a remembered command nobody judged', async () => {
    const { job } = await start('bash');
    assert.ok(job);
    const r = await proc({ action: 'send-keys', id: job.id, keys: ['Up', 'Enter'] });
    assert.equal(r.isError, true, r.forLLM);
    assert.equal(f.approver.requests.length, 2);
    assert.match(f.approver.requests[1].reason, /escape sequence/);
  });

  it('a line for a REPL asks; approved it runs, refused nothing is sent', async () => {
    const { job } = await start('python3 -i');
    assert.ok(job);
    f.approver.answers.push('once');
    const yes = await proc({ action: 'submit', id: job.id, data: 'print(6*7)' });
    assert.equal(yes.isError, false, yes.forLLM);
    assert.ok(await saw(job, '42'), output(job));
    assert.match(f.approver.requests[1].reason, /REPL \(python3\)/);
    assert.equal(f.approver.requests[1].command, 'print(6*7)');
    f.approver.answers.push('deny');
    const no = await proc({ action: 'submit', id: job.id, data: 'print("sent-anyway")' });
    assert.equal(no.isError, true, no.forLLM);
    assert.equal(no.outcome, 'rejected-by-user');
    assert.match(no.forLLM, /Nothing was sent/);
    await proc({ action: 'write', id: job.id, eof: true });
    await job.wait(10_000);
    assert.doesNotMatch(output(job), /sent-anyway/);
  });

  it('a shell line that starts a REPL makes the next lines ask', async () => {
    const { job } = await start('bash');
    assert.ok(job);
    assert.equal((await proc({ action: 'submit', id: job.id, data: 'python3 -i' })).isError, false);
    f.approver.answers.push('deny');
    const r = await proc({ action: 'submit', id: job.id, data: 'import os' });
    assert.equal(r.isError, true, r.forLLM);
    assert.match(f.approver.requests[1].reason, /started inside the shell/);
  });

  it('a line for a REPL in the sandbox is sent without asking: the sandbox confines it', async () => {
    const confined = { ...createProcessExecutor(), sandboxed: true };
    const job = f.jobs.start({
      tool: 'exec', display: 'python3 -i', target: { shell: 'python3 -i' }, cwd: f.root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      executor: confined, timeoutMs: 30_000, interactive: true, inputTo: { kind: 'repl', program: 'python3' }, sessionKey: 'test:exec', agentId: 'default',
    });
    const r = await proc({ action: 'submit', id: job.id, data: 'print(6*7)' });
    assert.equal(r.isError, false, r.forLLM);
    assert.ok(await saw(job, '42'), output(job));
    assert.equal(f.approver.requests.length, 0);
  });
});
