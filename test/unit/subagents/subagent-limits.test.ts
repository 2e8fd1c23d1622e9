// The hard limits: atomic admission (20 spawns at once against 5 free slots admit exactly 5), depth
// and the deny lists through the real policy engine, per-child and per-tree token budgets, and the
// stall watchdog, wall clock and archive on the injected clock (no test waits minutes).
import assert from 'node:assert/strict';
import { SpawnRefused } from '../../../src/core/subagents/subagent-manager';
import { reply, text, toolCall } from '../../support/model-script';
import { rigPerTest, toolNames, until } from './subagent-rig';

const hold = (t: string) => ({ parts: [text(t)], holdAfter: 2 });
const spawnReq = (parentSessionKey: string, task: string) => ({ parentSessionKey, callerAgentId: 'default', callerDepth: 0, task, mode: 'spawn' as const });

describe('subagents: limits', () => {
  const rigs = rigPerTest();

  it('20 spawns at once from one parent with 5 free slots admit exactly 5; the rest are told to wait or do it themselves', async () => {
    const r = await rigs.start({ roles: { child: (task) => hold(task) } });
    const key = await r.session();
    const all = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => r.manager.spawn(spawnReq(key, `task ${i}`))));
    const admitted = all.filter((a) => a.status === 'fulfilled');
    const refused = all.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    assert.equal(admitted.length, 5);
    assert.equal(refused.length, 15);
    for (const f of refused) {
      assert.ok(f.reason instanceof SpawnRefused);
      assert.match((f.reason as Error).message, /^At capacity \(5\/5\): wait for a child, or do it yourself\./);
    }
    assert.equal(r.manager.list().length, 5, 'refused spawns leave no record behind');
  });

  it('the window-wide limit is shared by every parent: 3 running elsewhere leave 5 of 8 slots, and 20 at once get exactly 5', async () => {
    const r = await rigs.start({ roles: { child: (task) => hold(task) } });
    const others = [await r.session(), await r.session(), await r.session()];
    for (const k of others) await r.manager.spawn(spawnReq(k, `elsewhere ${k}`));
    const parents = await Promise.all(Array.from({ length: 4 }, () => r.session()));
    const all = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => r.manager.spawn(spawnReq(parents[i % 4], `task ${i}`))));
    assert.equal(all.filter((a) => a.status === 'fulfilled').length, 5);
    const reasons = all.flatMap((a) => (a.status === 'rejected' ? [(a.reason as Error).message] : []));
    assert.ok(reasons.every((m) => /^At capacity \(8\/8\): wait for a child, or do it yourself\./.test(m)), reasons[0]);
    // A slot frees when a child settles, and the next spawn is admitted.
    await r.manager.cancel(r.manager.list({ parentSessionKey: others[0] })[0].id);
    await r.manager.spawn(spawnReq(parents[0], 'after a slot freed'));
  });

  it('depth 1 (the default): a child gets the subagent and leaf deny lists, no spawn, and channel subagent', async () => {
    const r = await rigs.start({ roles: { parent: () => reply(text('x')) } });
    const key = await r.session();
    const rec = await r.manager.spawn({ ...spawnReq(key, 'look around'), mode: 'run' });
    await r.manager.settled(rec.id);
    const [child] = r.childRequests();
    const tools = toolNames(child.body);
    for (const denied of ['spawn', 'sessions_list', 'sessions_history', 'sessions_send', 'session_status', 'memory_search']) {
      assert.ok(!tools.includes(denied), `${denied} is not offered to a leaf child`);
    }
    assert.ok(tools.includes('exec') && tools.includes('echo'), 'its working tools are');
    // The policy decision behind it names the steps.
    const decision = r.x.rt.effectiveTools({ agentId: 'default', channel: 'subagent', depth: 1, isOwner: true, trusted: true });
    assert.equal(decision.removed.find((x) => x.tool === 'spawn')?.step, 'leaf deny');
    // A call the model makes anyway is refused by the pipeline, and the manager refuses depth 2 itself.
    const refused = await r.x.rt.registry.execute('spawn', { action: 'run', task: 'deeper' },
      r.x.rt.context({ channel: 'subagent', subagentDepth: 1, sessionKey: rec.sessionKey }));
    assert.equal(refused.isError, true);
    await assert.rejects(r.manager.spawn({ ...spawnReq(rec.sessionKey, 'deeper'), callerDepth: 1 }), /may nest 1 level deep .* would be at depth 2/);
  });

  it('depth 2: a child may spawn a grandchild (a leaf without spawn), linked to it by parentId', async () => {
    const r = await rigs.start({
      settings: { 'subagents.maxDepth': 2 },
      roles: {
        child: (task, req, n) => {
          if (task === 'outer' && n === 0) return reply(toolCall('spawn', { action: 'run', task: 'inner' }));
          return reply(text(`${task} done`));
        },
      },
    });
    const key = await r.session();
    const outer = await r.manager.spawn({ ...spawnReq(key, 'outer'), mode: 'run' });
    const done = await r.manager.settled(outer.id);
    assert.equal(done!.status, 'done');
    const inner = r.manager.list().find((c) => c.task === 'inner')!;
    assert.equal(inner.parentId, outer.id);
    assert.equal(inner.depth, 2);
    assert.equal(inner.parentSessionKey, outer.sessionKey);
    const byTask = new Map(r.childRequests().map((c) => [c.task, toolNames(c.body)]));
    assert.ok(byTask.get('outer')!.includes('spawn'), 'depth 1 of 2 may spawn');
    assert.ok(!byTask.get('inner')!.includes('spawn'), 'depth 2 of 2 is a leaf');
    assert.deepEqual(r.manager.tree({ parentSessionKey: key }).map((n) => [n.record.id, n.children.map((c) => c.record.id)]), [[outer.id, [inner.id]]]);
  });

  it('per-child budget: the child stops before a request that would go over it, and says so', async () => {
    const r = await rigs.start({
      settings: { 'subagents.maxTokensPerChild': 150 },
      roles: { child: () => ({ ...reply(toolCall('echo', { text: 'again' })), usage: { input: 60, output: 20 } }) },
    });
    const key = await r.session();
    const rec = await r.manager.spawn({ ...spawnReq(key, 'spend'), mode: 'run' });
    const done = await r.manager.settled(rec.id);
    assert.equal(done!.status, 'failed');
    assert.match(done!.result!, /used 80 tokens of its 150-token budget/);
    assert.equal(r.childRequests().length, 1);
  });

  it('per-tree budget: children of one session stop together once their sum reaches it, and no new child is admitted', async () => {
    const r = await rigs.start({
      settings: { 'subagents.maxTokensPerTree': 500, 'subagents.maxTokensPerChild': 0 },
      roles: { child: (task) => (task === 'big' ? { ...reply(text('spent a lot')), usage: { input: 450, output: 100 } } : hold('waiting')) },
    });
    const key = await r.session();
    const waiting = await r.manager.spawn(spawnReq(key, 'small'));
    await until(() => r.events.some((e) => e.type === 'output' && e.id === waiting.id));
    const big = await r.manager.spawn({ ...spawnReq(key, 'big'), mode: 'run' });
    await r.manager.settled(big.id);
    const stopped = await r.manager.settled(waiting.id);
    assert.equal(stopped!.status, 'failed');
    assert.match(stopped!.result!, /used their 500-token budget \(pincer\.subagents\.maxTokensPerTree\)/);
    await assert.rejects(r.manager.spawn(spawnReq(key, 'one more')), /token budget for this session's subagents \(500/);
    const other = await r.session();
    await r.manager.spawn(spawnReq(other, 'another tree has its own budget'));
  });

  it('stall watchdog: no output for 3 minutes on the injected clock stops the child as stalled, and the parent is told', async () => {
    const r = await rigs.start({ roles: { child: () => hold('a first word, then silence') } });
    const key = await r.session();
    const rec = await r.manager.spawn(spawnReq(key, 'go quiet'));
    await until(() => r.events.some((e) => e.type === 'output' && e.id === rec.id));
    r.clock.t += 3 * 60_000;
    r.manager.sweep();
    assert.equal(r.manager.get(rec.id)!.status, 'running', 'exactly 3 minutes is not yet a stall');
    r.clock.t += 1;
    r.manager.sweep();
    assert.equal(r.manager.get(rec.id)!.status, 'stalled', 'shown at once');
    const done = await r.manager.settled(rec.id);
    assert.match(done!.result!, /^Stalled: no model output and no tool result for 3 minutes/);
    const [told] = r.manager.inbox(key);
    assert.match((told.parts[0] as { text: string }).text, new RegExp(`### ${rec.id} — stalled`));
  });

  it('wall clock: a child still busy after its limit is stopped; finished children are archived after 60 minutes', async () => {
    const r = await rigs.start({ settings: { 'subagents.timeoutMinutes': 15, 'subagents.stallMinutes': 60 }, roles: { child: (task) => (task === 'quick' ? reply(text('quick done')) : hold('working')) } });
    const key = await r.session();
    const quick = await r.manager.spawn({ ...spawnReq(key, 'quick'), mode: 'run' });
    await r.manager.settled(quick.id);
    const slow = await r.manager.spawn(spawnReq(key, 'slow'));
    await until(() => r.events.some((e) => e.type === 'output' && e.id === slow.id));
    r.clock.t += 15 * 60_000 + 1;
    r.manager.sweep();
    const done = await r.manager.settled(slow.id);
    assert.equal(done!.status, 'failed');
    assert.match(done!.result!, /^Stopped: it ran for longer than its 15-minute limit/);
    r.clock.t += 45 * 60_000;
    r.manager.sweep();
    assert.deepEqual(r.manager.list({ parentSessionKey: key }).map((c) => c.task), ['slow'], 'quick finished 60 minutes ago: archived');
    assert.deepEqual(r.manager.list({ parentSessionKey: key, includeArchived: true }).map((c) => c.task), ['quick', 'slow']);
    await r.manager.flush();
    const rows = await r.db.query<{ task: string; archived: number }>('SELECT task, archived FROM subagents ORDER BY task');
    assert.deepEqual(rows.map((x) => [x.task, x.archived]), [['quick', 1], ['slow', 0]], 'kept in the database');
  });
});
