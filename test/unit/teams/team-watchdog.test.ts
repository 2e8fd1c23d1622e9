// The watchdog on the real subagent machinery: a member run killed mid-task returns its task to
// pending with an audit note (to the lead after two returns), a run that ends without finishing
// releases every claim it held, and a claim whose run is gone (a reload) is released at the next sweep.
import assert from 'node:assert/strict';
import { reply, text, toolCall } from '../../support/model-script';
import { until } from '../subagents/subagent-rig';
import { eventually, taskIdIn, teamRigs, type TeamRig } from './team-rig';

const mailOf = async (t: TeamRig) => (await t.asLead('team_message', { action: 'read' })).forLLM;

describe('teams: the watchdog', () => {
  const rigs = teamRigs();

  it('a member run killed mid-task returns the task to pending with an audit note; after the second return it goes to the lead', async () => {
    const t = await rigs.start({
      member: (_name, task, _req, n) => [
        reply(toolCall('team_tasks', { action: 'claim', id: taskIdIn(task) })),
        reply(toolCall('sleep', { ms: 60_000 })),
      ][n % 2]!, // each activation (same text) claims, then sleeps until killed
    });
    await t.asLead('team_tasks', { action: 'create', subject: 'Long job', assignee: 'ann' });
    for (const round of [1, 2]) {
      const run = t.r.manager.list().at(-1)!;
      await until(() => t.r.events.some((e) => e.type === 'tool' && e.id === run.id && e.tool === 'sleep' && e.phase === 'start'));
      assert.equal((await t.board.get('web', 1))!.status, 'in_progress');
      await t.r.manager.cancel(run.id, 'Killed by the test mid-task.');
      await eventually(async () => (await t.board.get('web', 1))!.returns === round);
      const task = (await t.board.get('web', 1))!;
      assert.deepEqual([task.status, task.owner, task.runId], ['pending', undefined, undefined]);
      if (round === 1) {
        assert.equal(task.assignee, 'ann');
        await t.asLead('team_tasks', { action: 'assign', id: 1, assignee: 'ann' });
      } else {
        assert.equal(task.assignee, 'default', 'the lead has it now');
      }
    }
    const notes = (await t.board.events('web', { taskId: 1 })).filter((e) => e.actor === 'watchdog').map((e) => e.detail);
    assert.equal(notes.length, 2);
    assert.match(notes[0]!, /^back to pending: its member run sa-\w+ \(ann\) ended without completing it or reporting a blocker$/);
    assert.match(notes[1]!, /^returned to the lead default after 2 returns/);
    let mail = '';
    await eventually(async () => (mail += await mailOf(t)).includes('it is assigned to you now'));
    assert.match(mail, /\[watchdog\] Task #1 "Long job" came back \(1 time\): .*; it is pending again\./);
    assert.match(mail, /\[watchdog\] Task #1 "Long job" came back \(2 times\): .*; it is assigned to you now\./);
  });

  it('a run that ends without finishing releases every claim it held', async () => {
    const t = await rigs.start({
      member: (_name, _task, _req, n) => [
        reply(toolCall('team_tasks', { action: 'claim', id: 1 }), toolCall('team_tasks', { action: 'claim', id: 2 })),
        reply(text('I got distracted')),
      ][n]!,
    });
    await t.asLead('team_tasks', { action: 'create', subject: 'One' });
    await t.asLead('team_tasks', { action: 'create', subject: 'Two' });
    await t.asLead('team_message', { action: 'send', to: 'bob', text: 'take tasks 1 and 2' });
    await eventually(async () => (await t.board.list('web', 'all', 'newest')).every((x) => x.returns === 1));
    const tasks = await t.board.list('web', 'all', 'priority');
    assert.deepEqual(tasks.map((x) => [x.id, x.status, x.owner]), [[1, 'pending', undefined], [2, 'pending', undefined]]);
    assert.equal(t.r.manager.list()[0]!.status, 'done');
  });

  it('work assigned to a busy member is not lost: when its run ends, it is started again on the waiting task', async () => {
    const t = await rigs.start({
      member: (_name, task, _req, n) => (task.includes('Waiting for you: Task #2')
        ? [reply(toolCall('team_tasks', { action: 'claim', id: 2 })), reply(toolCall('team_tasks', { action: 'complete', id: 2, result: 'second done' })), reply(text('ok'))][n]!
        : [reply(toolCall('team_tasks', { action: 'claim', id: taskIdIn(task) })), reply(toolCall('sleep', { ms: 60_000 }))][n]!),
    });
    await t.asLead('team_tasks', { action: 'create', subject: 'First', assignee: 'ann' });
    const run = t.r.manager.list()[0]!;
    await until(() => t.r.events.some((e) => e.type === 'tool' && e.id === run.id && e.tool === 'sleep' && e.phase === 'start'));
    const second = await t.asLead('team_tasks', { action: 'create', subject: 'Second', assignee: 'ann' });
    assert.match(second.forLLM, /ann is busy with another run and is started on this when that run ends\./);
    assert.equal(t.r.manager.list().length, 1, 'no second run while the first is live');
    await t.r.manager.cancel(run.id, 'Killed by the test.');
    await eventually(async () => (await t.board.get('web', 2))!.status === 'completed');
    const runs = t.r.manager.list();
    assert.equal(runs.length, 2);
    assert.match(runs[1]!.task, /Waiting for you: Task #2 "Second" — claim it and work on it\./);
    assert.doesNotMatch(runs[1]!.task, /Task #1/, 'a task the watchdog returned waits for the lead\'s decision');
  });

  it('a claim whose run is gone (the window reloaded) is released at the next sweep; a live run keeps its claim', async () => {
    const t = await rigs.start({ member: (_n, task, _req, n) => [reply(toolCall('team_tasks', { action: 'claim', id: taskIdIn(task) })), reply(toolCall('sleep', { ms: 60_000 }))][n]! });
    await t.asLead('team_tasks', { action: 'create', subject: 'Stale' });
    await t.board.claim('web', 1, 'sa-from-before-the-reload', { name: 'bob', at: 1 });
    await t.asLead('team_tasks', { action: 'create', subject: 'Live', assignee: 'ann' });
    const run = t.r.manager.list()[0]!;
    await until(() => t.r.events.some((e) => e.type === 'tool' && e.id === run.id && e.tool === 'sleep' && e.phase === 'start'));
    const moved = await t.svc.sweep();
    assert.deepEqual(moved.map((x) => x.id), [1]);
    assert.equal((await t.board.get('web', 2))!.status, 'in_progress');
    await t.r.manager.cancel(run.id);
  });
});
