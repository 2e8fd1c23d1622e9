// team_tasks and team_message on the real subagent machinery: assigning starts the member as a child
// of the lead's session, its final answer reaches the lead's mailbox with its name, a message wakes
// an idle member, a blocker fails the task and stops the member's run, roles are enforced.
import assert from 'node:assert/strict';
import { reply, text, toolCall } from '../../support/model-script';
import { until } from '../subagents/subagent-rig';
import { eventually, taskIdIn, teamRigs } from './team-rig';

describe('teams: team_tasks and team_message', () => {
  const rigs = teamRigs();

  it('assigning a task starts the member under the lead\'s session; it claims and completes; its answer reaches the lead prefixed with its name', async () => {
    const t = await rigs.start({
      member: (name, task, _req, n) => [
        reply(toolCall('team_tasks', { action: 'claim', id: taskIdIn(task) })),
        reply(toolCall('team_tasks', { action: 'complete', id: taskIdIn(task), result: 'endpoint /login added' })),
        reply(text(`${name}: login endpoint is done`)),
      ][n]!,
    });
    const created = await t.asLead('team_tasks', { action: 'create', subject: 'Login endpoint', description: 'POST /login', assignee: 'ann' });
    assert.match(created.forLLM, /^Created #1 \[pending\] P0 "Login endpoint" — for ann\.\nann is started on it\.$/);
    const child = t.r.manager.list()[0]!;
    assert.deepEqual([child.agentId, child.parentSessionKey], ['ann', t.lead]);
    assert.match(child.task, /^You are ann, a member of team Web \(web\); default leads it\.\n\nTask #1 "Login endpoint" is assigned to you/);
    let mail = '';
    await eventually(async () => (mail += (await t.asLead('team_message', { action: 'read' })).forLLM).includes('login endpoint is done'));
    assert.match(mail, /From ann: \[ann\] ann: login endpoint is done$/);
    const task = await t.board.get('web', 1);
    assert.deepEqual([task!.status, task!.owner, task!.result], ['completed', 'ann', 'endpoint /login added']);
    const history = (await t.asLead('team_tasks', { action: 'get', id: 1 })).forLLM;
    assert.match(history, /default create: created "Login endpoint", assigned to ann\n.* ann claim: claimed \(run sa-\w+\)\n.* ann complete: endpoint \/login added$/);
    assert.equal((await t.asLead('team_message', { action: 'read' })).forLLM, 'No unread messages.');
  });

  it('a message to an idle member starts it; a busy member is not started twice; broadcast reaches everyone else', async () => {
    const t = await rigs.start({
      member: (name, task, _req, n) => (n === 0 ? reply(toolCall('team_message', { action: 'read' })) : reply(text(`${name} read: ${task.includes('hello') ? 'hello' : 'other'}`))),
    });
    const [sent, again] = await Promise.all([
      t.asLead('team_message', { action: 'send', to: 'bob', text: 'hello bob' }), t.asLead('team_message', { action: 'send', to: 'bob', text: 'and again' })]);
    assert.deepEqual([sent.forLLM, again.forLLM].sort(), ['Sent to bob. Busy (they find it in their mailbox when they read it): bob.', 'Sent to bob. Started: bob.']);
    assert.equal(t.r.manager.list().length, 1, 'one run for both messages');
    await until(() => t.r.manager.list().every((c) => c.status === 'done'));
    const bobRead = t.r.childRequests().find((c) => c.task.startsWith('You are bob'))!;
    assert.ok(bobRead);
    const broadcast = await t.asLead('team_message', { action: 'broadcast', text: 'standup' });
    assert.match(broadcast.forLLM, /^Sent to ann, bob\./);
    await until(() => t.r.manager.list().length === 3 && t.r.manager.list().every((c) => c.status === 'done'));
    assert.deepEqual(t.r.manager.list().map((c) => c.agentId).sort(), ['ann', 'bob', 'bob']);
    const refused = await t.asLead('team_message', { action: 'send', to: 'mallory', text: 'hi' });
    assert.equal(refused.isError, true);
    assert.match(refused.forLLM, /send needs to: one of ann, bob/);
  });

  it('a blocker fails the task, stops the member\'s run, and tells the lead which tasks it strands', async () => {
    const t = await rigs.start({
      member: (_name, task, _req, n) => [
        reply(toolCall('team_tasks', { action: 'claim', id: taskIdIn(task) })),
        reply(toolCall('team_tasks', { action: 'comment', id: taskIdIn(task), type: 'blocker', text: 'the database is down' })),
        reply(text('I should never get here')),
      ][n]!,
    });
    await t.asLead('team_tasks', { action: 'create', subject: 'Migrate users', assignee: 'ann' });
    await t.asLead('team_tasks', { action: 'create', subject: 'Report on users', blocked_by: [1] });
    const run = t.r.manager.list()[0]!;
    await until(() => t.r.manager.get(run.id)!.status === 'cancelled' && t.r.manager.liveChildren(t.lead).length === 0);
    assert.match(t.r.manager.get(run.id)!.result!, /Stopped after reporting a blocker on task #1/);
    assert.ok(!t.r.childRequests().some((c) => JSON.stringify(c.body).includes('I should never get here')));
    const task = await t.board.get('web', 1);
    assert.deepEqual([task!.status, task!.result], ['failed', 'Blocked: the database is down']);
    let mail = '';
    await eventually(async () => (mail += (await t.asLead('team_message', { action: 'read' })).forLLM).includes('Blocker on task #1'));
    assert.match(mail, /From ann: \[ann\] Blocker on task #1 "Migrate users" \(now failed\): the database is down\nStranded \(they wait on #1, which will not complete\): #2 "Report on users"\./);
  });

  it('roles: members cannot assign or cancel, outsiders are refused, a near-duplicate is warned about, ask_user reaches the person', async () => {
    const questions: string[] = [];
    const t = await rigs.start({
      askUser: async (q) => { questions.push(`${q.from}: ${q.question}`); return 'use PostgreSQL'; },
      member: (_name, task, _req, n) => [
        reply(toolCall('team_tasks', { action: 'cancel', id: taskIdIn(task) })),
        reply(toolCall('team_tasks', { action: 'ask_user', id: taskIdIn(task), text: 'Which database?' })),
        reply(text('asked')),
      ][n]!,
    });
    await t.asLead('team_tasks', { action: 'create', subject: 'Set up the user database', description: 'schema and migrations' });
    const dup = await t.asLead('team_tasks', { action: 'create', subject: 'Set up user database' });
    assert.match(dup.forLLM, /Warning: it looks like open task #1 "Set up the user database": cancel one of them if they are the same work\./);
    assert.deepEqual(dup.details?.duplicates, [1]);
    const other = await t.asLead('team_tasks', { action: 'create', subject: 'Write the changelog' });
    assert.doesNotMatch(other.forLLM, /Warning/);
    await t.asLead('team_tasks', { action: 'assign', id: 1, assignee: 'ann' });
    await until(() => t.r.manager.list().length === 1 && t.r.manager.list()[0]!.status === 'done');
    const results = t.r.childRequests().map((c) => JSON.stringify(c.body));
    assert.ok(results.some((b) => b.includes('Only the lead (default) may cancel tasks')));
    assert.deepEqual(questions, ['ann: Which database?']);
    assert.ok(results.some((b) => b.includes('The person answered: use PostgreSQL')));
    const events = (await t.board.events('web', { taskId: 1 })).map((e) => `${e.actor}:${e.action}:${e.detail}`);
    assert.ok(events.includes('ann:ask_user:Which database?') && events.includes('person:answer:use PostgreSQL'));
    const outsider = await t.r.x.rt.registry.execute('team_tasks', { action: 'list' }, t.r.x.rt.context({ channel: 'chat', sessionKey: 'agent:bob:main', agentId: 'bob' }));
    assert.match(outsider.forLLM, /You are not part of a team in this session/);
    const unknown = await t.asLead('team_tasks', { action: 'assign', id: 2, assignee: 'mallory' });
    assert.match(unknown.forLLM, /mallory is not on team web: its members are ann, bob \(and the lead default\)/);
  });
});
