// killTree on real process trees: a grandchild in the same group, one that left with setsid, a child
// that ignores SIGTERM (it gets SIGKILL after the grace period), and pids that are already gone.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { descendants, killTree } from '../../../../src/core/exec/run/kill-tree';
import { isLive, pidFrom, reap, waitFor } from './executor-support';

/** Starts `script` in bash as the leader of its own process group; `out()` is what it printed. */
function tree(script: string): { child: ChildProcess; out: () => string } {
  const child = spawn('/bin/bash', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  return { child, out: () => out };
}

function sessionOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}

describe('kill tree', function () {
  const leftovers: number[] = [];
  afterEach(() => reap(leftovers));

  it('descendants lists children and grandchildren, and nothing for a leaf', async () => {
    const { child, out } = tree('bash -c "sleep 30 & echo \\$!; wait" & wait');
    const grandchild = await pidFrom(out);
    leftovers.push(grandchild, child.pid as number);
    const d = descendants(child.pid as number);
    assert.ok(d.includes(grandchild), `${grandchild} in ${d}`);
    assert.ok(d.length >= 2, 'the middle bash and the sleep');
    assert.deepEqual(descendants(grandchild), []);
    await killTree(child.pid as number, { group: true, graceMs: 1000 });
  });

  it('keepRoot ends what a shell runs and leaves the shell (the terminal case)', async () => {
    // The root traps TERM and waits for input, like an interactive shell waiting at its prompt.
    const { child, out } = tree('trap "" TERM; sleep 30 & echo $!; while :; do sleep 0.1; done');
    const worker = await pidFrom(out);
    leftovers.push(worker, child.pid as number);
    await killTree(child.pid as number, { graceMs: 1000, keepRoot: true });
    assert.equal(isLive(worker), false, 'the command under the shell is gone');
    assert.equal(isLive(child.pid as number), true, 'the shell itself stays');
    await killTree(child.pid as number, { group: true, graceMs: 200 });
  });

  it('ends a grandchild in the same group along with the parent', async () => {
    const { child, out } = tree('sleep 30 & echo $!; wait');
    const grandchild = await pidFrom(out);
    leftovers.push(grandchild);
    const exited = new Promise((r) => child.once('exit', (_c, s) => r(s)));
    await killTree(child.pid as number, { group: true, graceMs: 2000 });
    assert.equal(isLive(grandchild), false);
    assert.equal(await exited, 'SIGTERM');
  });

  it('catches a grandchild that escaped the group with setsid', async () => {
    const { child, out } = tree('setsid bash -c \'echo $$; exec sleep 30\' & wait');
    const escaped = await pidFrom(out);
    leftovers.push(escaped);
    assert.ok(await waitFor(() => sessionOf(escaped) === escaped), 'it leads its own session');
    assert.notEqual(sessionOf(escaped), sessionOf(child.pid as number));
    await killTree(child.pid as number, { group: true, graceMs: 2000 });
    assert.equal(isLive(escaped), false, 'the setsid grandchild is gone');
  });

  it('also without group signalling: every snapshotted descendant gets the signal', async () => {
    const { child, out } = tree('sleep 30 & echo $!; wait');
    const grandchild = await pidFrom(out);
    leftovers.push(grandchild);
    await killTree(child.pid as number, { graceMs: 2000 });
    assert.equal(isLive(grandchild), false);
    assert.ok(await waitFor(() => !isLive(child.pid as number)));
  });

  it('SIGKILLs a child that survives SIGTERM, after the grace period and not before', async () => {
    // Its TERM handler says so and the loop goes on ticking: ticks after "term" show it was left
    // to live through the grace period; then SIGKILL ends it.
    const { child, out } = tree('trap "echo term" TERM; echo ready; while :; do echo tick; sleep 0.05; done');
    await waitFor(() => out().includes('ready'));
    const exited = new Promise((r) => child.once('exit', (_c, s) => r(s)));
    await killTree(child.pid as number, { group: true, graceMs: 1000 });
    assert.equal(await exited, 'SIGKILL');
    assert.match(out(), /term\n(tick\n)+$/, 'TERM first, then it lived on until the KILL');
  });

  it('returns as soon as the tree ends on SIGTERM, without waiting for the grace period', async () => {
    // The grace period is longer than the test's timeout: only an early return passes.
    const { child } = tree('sleep 30');
    await waitFor(() => descendants(child.pid as number).length > 0 || isLive(child.pid as number));
    const exited = new Promise((r) => child.once('exit', (_c, s) => r(s)));
    await killTree(child.pid as number, { group: true, graceMs: 600_000 });
    assert.equal(await exited, 'SIGTERM');
  });

  it('continues a stopped process, so its SIGTERM handler runs before the grace period ends', async () => {
    const { child, out } = tree('trap "exit 7" TERM; echo ready; while :; do sleep 0.05; done');
    await waitFor(() => out().includes('ready'));
    process.kill(child.pid as number, 'SIGSTOP');
    const exited = new Promise((r) => child.once('exit', (c, s) => r(s ?? c)));
    // Left stopped, it would take the whole grace period (longer than the test's timeout) and a SIGKILL.
    await killTree(child.pid as number, { group: true, graceMs: 600_000 });
    assert.equal(await exited, 7, 'its handler ran (not SIGKILL)');
  });

  it('tolerates pids and groups that are already gone', async () => {
    const { child } = tree('exit 0');
    await new Promise((r) => child.once('exit', r));
    await killTree(child.pid as number, { group: true, graceMs: 100 });
    await killTree(2 ** 22 + 12345, { group: true, graceMs: 100 }); // above pid_max's default: never a process
    assert.deepEqual(descendants(2 ** 22 + 12345), []);
  });
});
