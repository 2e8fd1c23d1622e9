// Cancel is real: stopping the parent's turn (Stop in the chat) cancels its whole tree — children
// and grandchildren mid-stream have their model requests aborted, a child mid-command has the
// command's process tree killed (checked in the process table), and no child is ever listed as
// running once it was told to stop.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { reply, text, toolCall } from '../../support/model-script';
import { rigPerTest, until } from './subagent-rig';

const hold = (t: string) => ({ parts: [text(t)], holdAfter: 2 });

/** Pids whose command line is exactly `argv` (from /proc, the real process table). */
function processesRunning(argv: string[]): number[] {
  const want = `${argv.join('\0')}\0`;
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') === want) pids.push(Number(entry));
    } catch {
      // The process ended while the table was read.
    }
  }
  return pids;
}

describe('subagents: cancelling a tree', () => {
  const rigs = rigPerTest();

  it('Stop on the parent\'s turn mid-stream cancels children and grandchildren; their requests are aborted; none is listed running', async () => {
    const r = await rigs.start({
      settings: { 'subagents.maxDepth': 2 },
      roles: {
        parent: (_req, n) => (n === 0
          ? reply(toolCall('spawn', { action: 'spawn', task: 'outer A' }), toolCall('spawn', { action: 'spawn', task: 'outer B' }))
          : reply(toolCall('spawn', { action: 'wait', timeoutSeconds: 600 }))),
        child: (task, _req, n) => (task === 'outer A' && n === 0 ? reply(toolCall('spawn', { action: 'spawn', task: 'inner' })) : hold(`${task} streaming`)),
      },
    });
    const key = await r.session();
    const stop = new AbortController();
    const turn = r.turn(key, 'fan out', stop.signal);
    await until(() => ['outer A', 'outer B', 'inner'].every((t) => r.events.some((e) => e.type === 'output' && r.manager.get(e.id)?.task === t)));
    assert.deepEqual(r.manager.list().map((c) => c.status), ['running', 'running', 'running']);
    stop.abort();
    assert.deepEqual(r.manager.list().map((c) => c.status), ['cancelled', 'cancelled', 'cancelled'], 'shown as cancelled at once');
    const result = await turn;
    assert.equal(result.stopReason, 'cancelled');
    const settled = await Promise.all(r.manager.list().map((c) => r.manager.settled(c.id)));
    assert.deepEqual(settled.map((c) => c!.status), ['cancelled', 'cancelled', 'cancelled']);
    const childStreams = r.server.log.filter((l) => l.chunksSent > 0 && !l.completed);
    assert.equal(childStreams.length, 3);
    await Promise.all(childStreams.map((l) => l.closed));
    assert.ok(childStreams.every((l) => l.clientClosed), 'every held stream was closed by the client');
    assert.ok(r.manager.list().every((c) => c.status !== 'running' && c.status !== 'queued'));
  });

  it('cancelling a child mid-command kills the command\'s whole process tree: nothing is left in the process table', async () => {
    const a = ['sleep', '4242.5'];
    const b = ['sleep', '4243.5'];
    const r = await rigs.start({
      roles: {
        parent: () => reply(toolCall('spawn', { action: 'run', task: 'build it' })),
        child: () => reply(toolCall('exec', { command: `${a.join(' ')} & ${b.join(' ')}; wait`, timeout: 600 })),
      },
    });
    const key = await r.session();
    const stop = new AbortController();
    const turn = r.turn(key, 'build', stop.signal);
    await until(() => processesRunning(a).length > 0 && processesRunning(b).length > 0);
    const [child] = r.manager.list();
    assert.equal(child.status, 'running');
    assert.ok(r.events.some((e) => e.type === 'tool' && e.phase === 'start' && e.tool === 'exec'));
    stop.abort();
    const result = await turn;
    assert.equal(result.stopReason, 'cancelled');
    const done = await r.manager.settled(child.id);
    assert.equal(done!.status, 'cancelled');
    await until(() => processesRunning(a).length === 0 && processesRunning(b).length === 0);
    const stored = await r.sessions.messages(child.sessionKey);
    const exec = stored.flatMap((m) => m.parts).find((p) => p.type === 'tool-result');
    assert.ok(exec && exec.type === 'tool-result' && exec.isError, 'the child\'s transcript says the command was stopped');
  });

  it('a child\'s background commands end with it: nothing it started outlives it in the process table', async () => {
    const bg = ['sleep', '4244.5'];
    const r = await rigs.start({ roles: { child: (_task, _req, n) => (n === 0 ? reply(toolCall('exec', { command: bg.join(' '), background: true })) : hold('server started')) } });
    const key = await r.session();
    const rec = await r.manager.spawn({ parentSessionKey: key, callerAgentId: 'default', callerDepth: 0, task: 'start a server', mode: 'spawn' });
    await until(() => r.events.some((e) => e.type === 'output' && e.id === rec.id));
    assert.ok(processesRunning(bg).length > 0, 'the background command runs while the child does');
    await r.manager.cancel(rec.id);
    assert.deepEqual(processesRunning(bg), [], 'gone once the child has settled');
  });

  it('cancelling one child leaves its siblings running', async () => {
    const r = await rigs.start({ roles: { child: (task) => hold(task) } });
    const key = await r.session();
    const spawn = (task: string) => r.manager.spawn({ parentSessionKey: key, callerAgentId: 'default', callerDepth: 0, task, mode: 'spawn' });
    const one = await spawn('one');
    const two = await spawn('two');
    await until(() => [one, two].every((c) => r.events.some((e) => e.type === 'output' && e.id === c.id)));
    await r.manager.cancel(one.id);
    assert.equal(r.manager.get(one.id)!.status, 'cancelled');
    assert.equal(r.manager.get(two.id)!.status, 'running');
    assert.match(r.manager.get(one.id)!.result!, /^Cancelled by a person\.\nIts last words before that: one/);
  });
});
