// What a window shows of the subagents, and when: its own children only (another window on the same
// workspace database keeps its running children running and out of this window's tree), archived
// children leaving the tree with an event the views refresh on, a child's cost while it still runs,
// and many children's record changes stored together and complete.
import assert from 'node:assert/strict';
import { originLabel } from '../../../src/core/subagents/subagent-format';
import { reply, text, toolCall } from '../../support/model-script';
import { rigPerTest, until } from './subagent-rig';

const spawnReq = (parentSessionKey: string, task: string) =>
  ({ parentSessionKey, callerAgentId: 'default', callerDepth: 0, task, mode: 'spawn' as const });

describe('subagents: windows, archive, live cost', () => {
  const rigs = rigPerTest();

  it('another window on the same database neither shows nor interrupts this window\'s running child; this window\'s reload does', async () => {
    const a = await rigs.start({ windowId: 'window-a', roles: { child: () => ({ parts: [text('half way')], holdAfter: 2 }) } });
    const key = await a.session();
    const running = await a.manager.spawn(spawnReq(key, 'long'));
    await until(() => a.events.some((e) => e.type === 'output' && e.id === running.id));
    await a.manager.flush();
    assert.equal(a.manager.get(running.id)!.windowId, 'window-a');

    const b = await rigs.start({ windowId: 'window-b', dbDir: a.dbDir, roles: {} });
    assert.equal(b.manager.get(running.id), undefined);
    assert.deepEqual(b.manager.tree(), []);
    assert.equal(a.manager.get(running.id)!.status, 'running', 'still running in its own window');
    // Window B's own child is stored beside A's without touching it.
    const theirs = await b.manager.spawn(spawnReq(await b.session(), 'b task'));
    assert.equal((await b.manager.settled(theirs.id))!.status, 'done');
    await b.manager.flush();

    const reloadedA = await rigs.start({ windowId: 'window-a', dbDir: a.dbDir, roles: {} });
    assert.equal(reloadedA.manager.get(running.id)!.status, 'interrupted');
    assert.equal(reloadedA.manager.get(theirs.id), undefined, 'B\'s child is not A\'s');
  });

  it('a child is found by its own session and named for its prompts; archived, it leaves the tree with an event the views refresh on', async () => {
    const r = await rigs.start({ roles: {} });
    const key = await r.session();
    const child = await r.manager.spawn({ ...spawnReq(key, 'short'), label: 'fix\n  the tests' });
    await r.manager.settled(child.id);
    assert.equal(originLabel(r.manager.childOfSession(child.sessionKey)!), `subagent "fix the tests" (${child.id}), agent "default", depth 1`);
    assert.equal(r.manager.childOfSession(key), undefined, 'a person\'s chat is no child');
    assert.equal(r.manager.rootOf(child.sessionKey), key);
    r.manager.sweep();
    assert.equal(r.manager.tree().length, 1);
    assert.ok(!r.events.some((e) => e.type === 'archived'));
    r.clock.t += 60 * 60_000;
    r.manager.sweep();
    assert.ok(r.events.some((e) => e.type === 'archived' && e.id === child.id));
    assert.deepEqual(r.manager.tree(), []);
    assert.equal(r.manager.list({ includeArchived: true })[0]!.archived, true);
  });

  it('a child\'s cost is known while it runs, when the model\'s price is set and it reports usage per response', async () => {
    const r = await rigs.start({
      settings: { 'chat.pricing': { 'test-model': { inputPerMTok: 3, outputPerMTok: 15 } } },
      roles: { child: (_t, _req, n) => (n === 0 ? { ...reply(toolCall('echo', { text: 'x' })), usage: { input: 1000, output: 200 } } : { parts: [text('thinking')], holdAfter: 2 }) },
    });
    const key = await r.session();
    const child = await r.manager.spawn(spawnReq(key, 'priced'));
    // Its first response was a tool call (no text): output means the second request is streaming.
    await until(() => r.events.some((e) => e.type === 'output' && e.id === child.id));
    const live = r.manager.get(child.id)!;
    assert.equal(live.status, 'running');
    assert.equal(live.usage.input, 1000);
    assert.ok(Math.abs(live.usage.costUsd! - (1000 * 3 + 200 * 15) / 1e6) < 1e-12, `cost so far ${live.usage.costUsd}`);
    const usageEvent = r.events.find((e) => e.type === 'usage' && e.id === child.id);
    assert.ok(usageEvent?.type === 'usage' && usageEvent.usage.costUsd! > 0);
  });

  it('eight children that start and finish together are all stored, each with its final state', async () => {
    const r = await rigs.start({ settings: { 'subagents.maxChildrenPerParent': 8 }, roles: {} });
    const key = await r.session();
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await r.manager.spawn(spawnReq(key, `part ${i}`))).id);
    await Promise.all(ids.map((id) => r.manager.settled(id)));
    await r.manager.flush();
    const again = await rigs.start({ dbDir: r.dbDir, roles: {} });
    assert.deepEqual(ids.map((id) => again.manager.get(id)?.status), Array(8).fill('done'));
    assert.deepEqual(ids.map((id) => again.manager.get(id)?.result), ids.map((_, i) => `done: part ${i}`));
  });
});
