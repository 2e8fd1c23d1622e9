// The process executor on real programs: exit codes and signals, output complete and in order,
// UTF-8 kept whole across reads, exactly the given environment, stdin, start errors, killing the
// tree, and a background process that keeps the output pipe open.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createProcessExecutor } from '../../../../src/core/exec/run/process-executor';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';
import { baseEnv, isLive, pidFrom, reap, run, startCollecting, waitFor } from './executor-support';

describe('process executor', function () {
  const ex = createProcessExecutor();
  const leftovers: number[] = [];
  let dir: string;
  before(() => (dir = tempDir('exec-run')));
  afterEach(() => reap(leftovers));
  after(removeTempDirs);
  const req = (target: { shell: string } | { argv: string[] }, more: { interactive?: boolean; env?: Record<string, string> } = {}) =>
    ({ target, cwd: dir, env: more.env ?? baseEnv(), interactive: more.interactive });

  it('is the process kind', () => assert.equal(ex.kind, 'process'));

  it('reports exit codes 0 and 3, with stdout and stderr apart', async () => {
    const ok = await run(ex, req({ shell: 'echo out; echo err >&2' }));
    assert.deepEqual(ok.outcome, { exitCode: 0 });
    assert.equal(ok.stdout(), 'out\n');
    assert.equal(ok.stderr(), 'err\n');
    assert.ok(ok.proc.pid && ok.proc.pid > 0);
    const three = await run(ex, req({ argv: ['sh', '-c', 'exit 3'] }));
    assert.deepEqual(three.outcome, { exitCode: 3 });
  });

  it('reports a death by signal with exitCode null', async () => {
    const r = await run(ex, req({ shell: 'kill -KILL $$' }));
    assert.equal(r.outcome.exitCode, null);
    assert.equal(r.outcome.signal, 'SIGKILL');
    assert.equal(r.outcome.startError, undefined);
  });

  it('delivers 5 MB of output complete and in order', async function () {
    this.timeout(60_000);
    const n = 750_000;
    const r = await run(ex, req({ argv: ['seq', '1', String(n)] }));
    assert.deepEqual(r.outcome, { exitCode: 0 });
    const expected = Array.from({ length: n }, (_, i) => `${i + 1}\n`).join('');
    assert.ok(expected.length > 5_000_000);
    assert.ok(r.chunks.length > 1, 'arrived in several chunks');
    assert.equal(r.stdout().length, expected.length);
    assert.ok(r.stdout() === expected, 'same text, same order');
  });

  it('keeps a UTF-8 character whole when its bytes arrive in two reads', async () => {
    const r = await run(ex, req({ shell: "printf '\\xe2\\x82'; sleep 0.2; printf '\\xac \\xf0\\x9f'; sleep 0.2; printf '\\x98\\x80\\n'" }));
    assert.equal(r.stdout(), '€ 😀\n');
    assert.ok(r.chunks.length >= 2, 'came in separate reads');
    assert.ok(r.chunks.every((c) => !c.text.includes('\ufffd')), JSON.stringify(r.chunks));
  });

  it('passes exactly req.env: nothing of the host environment is inherited', async () => {
    process.env.PINCER_TEST_HOST_SECRET = 'host-only';
    try {
      const r = await run(ex, req({ shell: 'echo "[${PINCER_TEST_HOST_SECRET:-absent}] [$GIVEN]"; env' }, { env: { ...baseEnv(), GIVEN: 'yes' } }));
      assert.equal(r.stdout().split('\n')[0], '[absent] [yes]');
      const names = r.stdout().split('\n').slice(1).filter(Boolean).map((l) => l.split('=')[0]);
      // Only what we gave, plus what bash sets for itself.
      assert.deepEqual(names.filter((k) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(k)).sort(), ['GIVEN', 'PATH']);
    } finally {
      delete process.env.PINCER_TEST_HOST_SECRET;
    }
  });

  it('runs argv without a shell: metacharacters stay literal', async () => {
    const r = await run(ex, req({ argv: ['echo', '$HOME; echo pwned', '`id`', '*'] }));
    assert.equal(r.stdout(), '$HOME; echo pwned `id` *\n');
  });

  it('runs shell text without rc files (-c only, no login or interactive shell)', async () => {
    const r = await run(ex, req({ shell: 'echo "$0 $-"; shopt -q login_shell && echo login || echo not-login' }));
    const [first, second] = r.stdout().split('\n');
    assert.match(first, /bash /);
    assert.ok(!first.split(' ')[1].includes('i'), `not interactive: ${first}`);
    assert.equal(second, 'not-login');
  });

  it('writes to stdin of an interactive run, then EOF ends it (cat)', async () => {
    const c = startCollecting(ex, req({ argv: ['cat'] }, { interactive: true }));
    await c.proc.write('hello\n');
    await c.proc.write('wörld');
    c.proc.endInput();
    assert.deepEqual(await c.proc.done, { exitCode: 0 });
    assert.equal(c.stdout(), 'hello\nwörld');
    await assert.rejects(c.proc.write('late'), /input is closed/);
  });

  it('refuses writes to a run that is not interactive, and its stdin is closed (cat ends at once)', async () => {
    const c = startCollecting(ex, req({ argv: ['cat'] }));
    await assert.rejects(c.proc.write('x'), /not started with interactive input/);
    assert.deepEqual(await c.proc.done, { exitCode: 0 });
    assert.equal(c.stdout(), '');
  });

  it('finds argv[0] through req.env.PATH, not the host PATH', async () => {
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'pincer-only-here'), '#!/bin/sh\necho found "$@"\n', { mode: 0o755 });
    const found = await run(ex, req({ argv: ['pincer-only-here', 'a b'] }, { env: { PATH: `${bin}:/usr/bin:/bin` } }));
    assert.equal(found.stdout(), 'found a b\n');
    const hostOnly = await run(ex, req({ argv: ['sh', '-c', 'echo x'] }, { env: { PATH: bin } }));
    assert.match(hostOnly.outcome.startError ?? '', /sh was not found on PATH/);
  });

  it('a bad cwd is a start error, not a throw', async () => {
    const missing = await run(ex, { ...req({ shell: 'echo hi' }), cwd: path.join(dir, 'no', 'such') });
    assert.equal(missing.outcome.exitCode, null);
    assert.match(missing.outcome.startError ?? '', /does not exist.*cwd/);
    assert.equal(missing.proc.pid, undefined);
    fs.writeFileSync(path.join(dir, 'a-file'), 'x');
    const file = await run(ex, { ...req({ shell: 'echo hi' }), cwd: path.join(dir, 'a-file') });
    assert.match(file.outcome.startError ?? '', /is a file, not a folder/);
    assert.equal(file.stdout(), '');
  });

  it('a missing program (argv) is a start error naming PATH', async () => {
    const r = await run(ex, req({ argv: ['pincer-no-such-program-xyz', '--help'] }));
    assert.equal(r.outcome.exitCode, null);
    assert.match(r.outcome.startError ?? '', /pincer-no-such-program-xyz was not found on PATH/);
    await assert.rejects(r.proc.write('x'), /did not start/);
    await r.proc.kill(); // harmless
    const empty = await run(ex, req({ argv: [] }));
    assert.match(empty.outcome.startError ?? '', /argv is empty/);
    const notExec = path.join(dir, 'not-exec.sh');
    fs.writeFileSync(notExec, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    const denied = await run(ex, req({ argv: [notExec] }));
    assert.match(denied.outcome.startError ?? '', /not executable/);
  });

  it('kill() ends the program and the grandchild in its group, then done has settled', async () => {
    const c = startCollecting(ex, req({ shell: 'sleep 30 & echo $!; wait' }));
    const grandchild = await pidFrom(c.stdout);
    leftovers.push(grandchild);
    await c.proc.kill(2000);
    const outcome = await c.proc.done;
    assert.equal(outcome.signal, 'SIGTERM');
    assert.equal(isLive(grandchild), false);
  });

  it('kill() catches a setsid grandchild too', async () => {
    const c = startCollecting(ex, req({ shell: "setsid bash -c 'echo $$; exec sleep 30' & wait" }));
    const escaped = await pidFrom(c.stdout);
    leftovers.push(escaped);
    await c.proc.kill(2000);
    assert.equal(isLive(escaped), false);
  });

  it('kill() SIGKILLs a program that survives SIGTERM, after the grace period', async () => {
    // Ticks after "term": it was left to live through the grace period before the SIGKILL.
    const c = startCollecting(ex, req({ shell: 'trap "echo term" TERM; echo ready; while :; do echo tick; sleep 0.05; done' }));
    await waitFor(() => c.stdout().includes('ready'));
    await c.proc.kill(1000);
    assert.equal((await c.proc.done).signal, 'SIGKILL');
    assert.match(c.stdout(), /term\n(tick\n)+$/);
  });

  it('a background process holding the pipe: done settles after drainMs with a note, later output dropped', async () => {
    // The background part writes "late" only when the test says so (through a fifo), after done.
    const quick = createProcessExecutor({ drainMs: 300 });
    const fifo = path.join(dir, 'release');
    fs.rmSync(fifo, { force: true });
    spawnSync('mkfifo', [fifo]);
    const c = startCollecting(quick, req({ shell: `(read x < ${fifo}; echo late) & echo $!; echo early` }));
    const outcome = await c.proc.done;
    const background = await pidFrom(c.stdout);
    leftovers.push(background);
    assert.equal(outcome.exitCode, 0);
    assert.match(outcome.note ?? '', /in the background still holds its output/);
    fs.writeFileSync(fifo, 'go\n');
    // Gone means "late" is in the pipe, which the executor still reads (and drops) until it closes.
    assert.ok(await waitFor(() => !isLive(background)));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 0));
    assert.ok(c.stdout().includes('early'));
    assert.ok(!c.stdout().includes('late'), 'no chunk after done');
  });

  it('does not wait drainMs when the pipes close normally', async () => {
    // drainMs is longer than the test's timeout: only a done that did not wait for it passes.
    const slow = createProcessExecutor({ drainMs: 600_000 });
    const r = await run(slow, req({ shell: 'echo hi' }));
    assert.deepEqual(r.outcome, { exitCode: 0 });
    // A background process that redirected its output away does not hold the pipes either.
    const bg = await run(slow, req({ shell: 'sleep 30 >/dev/null 2>&1 & echo $!' }));
    leftovers.push(Number(bg.stdout().trim()));
    assert.equal(bg.outcome.note, undefined);
  });

  it("never runs the user's ~/.bashrc, even with stdin open (bash takes a socket stdin for sshd)", async () => {
    const home = tempDir('exec-home');
    fs.writeFileSync(path.join(home, '.bashrc'), 'echo RC-FILE-RAN\n');
    fs.writeFileSync(path.join(home, '.bash_profile'), 'echo PROFILE-RAN\n');
    const env = { ...baseEnv(), HOME: home };
    for (const interactive of [false, true]) {
      const c = startCollecting(ex, req({ shell: 'echo only-this' }, { env, interactive }));
      c.proc.endInput();
      await c.proc.done;
      assert.equal(c.stdout(), 'only-this\n', `interactive: ${interactive}`);
    }
  });

  it('uses the configured shell', async () => {
    const sh = createProcessExecutor({ shellPath: '/bin/sh' });
    const r = await run(sh, req({ shell: 'echo "$0"' }));
    assert.equal(r.stdout(), '/bin/sh\n');
  });
});
