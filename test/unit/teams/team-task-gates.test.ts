// A task's own quality gates, on the real machinery: the lead sets them (create or update), they run
// after the team's before a member's `complete` is accepted, exactly as the team's do. Hostile: a
// member cannot set, replace or drop a task's gates, cannot name itself (or anyone on the team) as a
// gate's reviewer, and cannot pass a gate by sending `gates` with its own complete — the gates come
// from the board.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { reply, text, toolCall, type ScriptRequest } from '../../support/model-script';
import { messagesOf, until } from '../subagents/subagent-rig';
import { eventually, taskIdIn, teamRigs } from './team-rig';

const lastToolResult = (req: ScriptRequest) => String(messagesOf(req.body).filter((m) => m.role === 'tool').at(-1)?.content ?? '');

describe('teams: a task\'s own quality gates', () => {
  const rigs = teamRigs();

  it('the lead gives one task a command gate: that task\'s complete waits for it; a task without gates completes at once', async () => {
    const seen: string[] = [];
    const box: { root?: string } = {};
    const t = await rigs.start({
      member: (name, task, req, n) => {
        if (n > 0) seen.push(`${name}: ${lastToolResult(req)}`);
        if (name === 'ann' && n === 2) fs.writeFileSync(path.join(box.root!, 'built.txt'), 'ok');
        const id = taskIdIn(task);
        return [
          reply(toolCall('team_tasks', { action: 'claim', id })),
          reply(toolCall('team_tasks', { action: 'complete', id, result: 'first try' })),
          ...(name === 'ann' ? [reply(toolCall('team_tasks', { action: 'complete', id, result: 'built' }))] : []),
          reply(text('done')),
        ][n]!;
      },
    });
    box.root = t.r.x.root;
    const made = await t.asLead('team_tasks', { action: 'create', subject: 'Build it', assignee: 'ann', gates: [{ name: 'built', command: 'test -f built.txt' }] });
    assert.equal(made.isError, false, made.forLLM);
    await t.asLead('team_tasks', { action: 'create', subject: 'Style it', assignee: 'bob' });
    await eventually(async () => (await t.board.get('web', 1))!.status === 'completed' && (await t.board.get('web', 2))!.status === 'completed');
    assert.match(seen.find((s) => s.startsWith('ann: Not completed'))!, /^ann: Not completed: quality gate built failed\. Fix this and complete again \(2 attempts left\)\./);
    assert.ok(seen.includes('bob: Completed: #2 [completed] P0 "Style it" — bob'), seen.join('\n'));
    const [gated, plain] = [(await t.board.get('web', 1))!, (await t.board.get('web', 2))!];
    assert.deepEqual([gated.result, gated.gateFailures, gated.gates.map((g) => g.name)], ['built', 1, ['built']]);
    assert.deepEqual([plain.result, plain.gateFailures], ['first try', 0]);
    assert.deepEqual((await t.board.events('web', { taskId: 1 })).filter((e) => e.action.startsWith('gate')).map((e) => e.action), ['gate-failed', 'gate-passed']);
    assert.match((await t.asLead('team_tasks', { action: 'get', id: 1 })).forLLM, /\nIts own quality gates: built \(command\)\./);
  });

  it('hostile: a member cannot set, drop or pass its task\'s gates, nor make itself the reviewer; the gate still runs', async () => {
    const seen: string[] = [];
    const t = await rigs.start({
      member: (_name, task, req, n) => {
        if (n > 0) seen.push(lastToolResult(req));
        const id = taskIdIn(task);
        return [
          reply(toolCall('team_tasks', { action: 'claim', id })),
          reply(toolCall('team_tasks', { action: 'update', id, gates: [] })),
          reply(toolCall('team_tasks', { action: 'create', subject: 'My own easy task', gates: [{ command: 'true' }] })),
          reply(toolCall('team_tasks', { action: 'create', subject: 'Reviewed by me', gates: [{ agent: 'ann' }] })),
          reply(toolCall('team_tasks', { action: 'complete', id, result: 'trust me', gates: [] })),
          reply(text('gave up')),
        ][n]!;
      },
    });
    await t.asLead('team_tasks', { action: 'create', subject: 'Guarded', assignee: 'ann', gates: [{ name: 'never', command: 'exit 1', max_retries: 0 }] });
    await eventually(async () => (await t.board.get('web', 1))!.status === 'failed');
    // The gate failed for good: the member's run is stopped, and the lead is told.
    await until(() => t.r.manager.list()[0]!.status !== 'running' && t.r.manager.list()[0]!.status !== 'queued');
    assert.match(seen[1]!, /^Only the lead \(default\) may update tasks/);
    assert.match(seen[2]!, /^Only the lead sets a task's quality gates/);
    assert.match(seen[3]!, /^Refused: reviewer ann is on team web; a gate's reviewer must be an agent outside the team/);
    assert.deepEqual((await t.board.events('web', { taskId: 1 })).filter((e) => e.action.startsWith('gate')).map((e) => e.action), ['gate-failed-final']);
    const task = (await t.board.get('web', 1))!;
    assert.deepEqual([task.status, task.gates.map((g) => g.command)], ['failed', ['exit 1']]);
    assert.deepEqual((await t.board.list('web', 'all', 'newest')).map((x) => x.subject), ['Guarded'], 'neither of the member\'s tasks was made');
  });

  it('the lead cannot name a team member as a reviewer either; it may replace or clear gates with update', async () => {
    const t = await rigs.start({});
    const refused = await t.asLead('team_tasks', { action: 'create', subject: 'Self-reviewed', gates: [{ agent: 'bob' }] });
    assert.match(refused.forLLM, /^Refused: reviewer bob is on team web/);
    assert.match((await t.asLead('team_tasks', { action: 'create', subject: 'Lead reviews', gates: [{ agent: 'default' }] })).forLLM, /^Refused: reviewer default is on team web/);
    assert.match((await t.asLead('team_tasks', { action: 'create', subject: 'Both', gates: [{ agent: 'rev', command: 'true' }] })).forLLM, /gate has either `command` or `agent`/);
    await t.asLead('team_tasks', { action: 'create', subject: 'Reviewed' });
    assert.match((await t.asLead('team_tasks', { action: 'update', id: 1, gates: [{ agent: 'ann' }] })).forLLM, /^Refused: reviewer ann is on team web/);
    assert.equal((await t.asLead('team_tasks', { action: 'update', id: 1, gates: [{ agent: 'rev', block_on_failure: false }] })).isError, false);
    assert.deepEqual((await t.board.get('web', 1))!.gates, [{ name: 'reviewer rev', kind: 'agent', agent: 'rev', blockOnFailure: false, maxRetries: 2 }]);
    await t.asLead('team_tasks', { action: 'update', id: 1, gates: [] });
    assert.deepEqual((await t.board.get('web', 1))!.gates, []);
    assert.deepEqual((await t.board.list('web', 'all', 'newest')).length, 1);
  });
});
