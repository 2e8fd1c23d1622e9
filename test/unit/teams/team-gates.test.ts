// Quality gates on the real machinery: a command gate through exec (judge and approvals), an agent
// gate with a reviewer run; block_on_failure sends the task back with the feedback up to max_retries,
// then fails it and tells the lead; a non-blocking failure is recorded only; a reviewer's own team
// calls are refused, so its work never completes a task or triggers a gate.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readVerdict } from '../../../src/core/teams/quality-gates';
import { reply, text, toolCall, type ScriptRequest } from '../../support/model-script';
import { messagesOf, until } from '../subagents/subagent-rig';
import { eventually, taskIdIn, teamRigs, type TeamRig } from './team-rig';

const team = (gates: string) => `---\nname: Web\nlead: default\nmembers: [ann, bob]\ngates:\n${gates}\n---\n`;
const lastToolResult = (req: ScriptRequest) => String(messagesOf(req.body).filter((m) => m.role === 'tool').at(-1)?.content ?? '');
const gateEvents = async (t: TeamRig) => (await t.board.events('web', { taskId: 1 })).filter((e) => e.action.startsWith('gate')).map((e) => `${e.action}: ${e.detail}`);

describe('teams: quality gates', () => {
  const rigs = teamRigs();

  it('a command gate runs through exec: failing once sends the task back with its output, passing lets complete through', async () => {
    const seen: string[] = [];
    const box: { root?: string } = {};
    const t = await rigs.start({
      team: team('  - name: marker\n    command: test -f gate-ok.txt && echo marker found'),
      member: (_name, task, req, n) => {
        if (n > 0) seen.push(lastToolResult(req));
        if (n === 2) fs.writeFileSync(path.join(box.root!, 'gate-ok.txt'), 'ok');
        return [
          reply(toolCall('team_tasks', { action: 'claim', id: taskIdIn(task) })),
          reply(toolCall('team_tasks', { action: 'complete', id: taskIdIn(task), result: 'first try' })),
          reply(toolCall('team_tasks', { action: 'complete', id: taskIdIn(task), result: 'fixed' })),
          reply(text('done')),
        ][n]!;
      },
    });
    box.root = t.r.x.root;
    await t.asLead('team_tasks', { action: 'create', subject: 'Make the marker', assignee: 'ann' });
    await until(() => t.r.manager.list()[0]?.status === 'done');
    assert.match(seen[1]!, /^Not completed: quality gate marker failed\. Fix this and complete again \(2 attempts left\)\.\nFeedback: .*exit(ed| code)?\D*1/s);
    assert.match(seen[2]!, /^Completed: #1 \[completed\]/);
    const task = (await t.board.get('web', 1))!;
    assert.deepEqual([task.status, task.result, task.gateFailures], ['completed', 'fixed', 1]);
    const events = await gateEvents(t);
    assert.equal(events.length, 2);
    assert.match(events[0]!, /^gate-failed: marker: /);
    assert.match(events[1]!, /^gate-passed: marker: .*marker found/s);
  });

  it('a hostile gate command is refused by exec\'s judge: the gate fails with the refusal and nothing runs', async () => {
    const t = await rigs.start({
      team: team('  - name: wipe\n    command: rm -rf ~/ --no-preserve-root\n    max_retries: 0'),
      member: (_name, task, _req, n) => [reply(toolCall('team_tasks', { action: 'claim', id: taskIdIn(task) })), reply(toolCall('team_tasks', { action: 'complete', id: taskIdIn(task), result: 'r' })), reply(text('stopped'))][n]!,
    });
    await t.asLead('team_tasks', { action: 'create', subject: 'Anything', assignee: 'ann' });
    await eventually(async () => (await t.board.get('web', 1))!.status === 'failed');
    const [final] = await gateEvents(t);
    assert.match(final!, /^gate-failed-final: wipe: Command denied \[destructive_ops\]/);
    assert.ok(fs.existsSync(t.r.x.root), 'nothing was removed');
    assert.match((await t.board.get('web', 1))!.result!, /^Quality gate wipe failed: /);
    // The member's run is stopped, and the lead learns why.
    await until(() => t.r.manager.list()[0]!.status !== 'running' && t.r.manager.list()[0]!.status !== 'queued');
    let mail = '';
    await eventually(async () => (mail += (await t.asLead('team_message', { action: 'read' })).forLLM).includes('failed quality gate wipe 1 times and is failed now'));
  });

  it('an agent gate: REJECTED feedback goes back to the member, APPROVED completes; the reviewer\'s own team call is refused (no recursion)', async () => {
    const seen: string[] = [];
    const reviewerSaw: string[] = [];
    const t = await rigs.start({
      team: team('  - agent: rev\n    max_retries: 1'),
      reviewer: (req, n) => {
        reviewerSaw.push(lastToolResult(req));
        return [
          reply(toolCall('team_tasks', { action: 'complete', id: 1, result: 'reviewer sneaks a completion' })),
          reply(text('REJECTED: add tests for the empty input')),
          reply(text('APPROVED')),
        ][n]!;
      },
      member: (_name, task, req, n) => {
        if (n > 0) seen.push(lastToolResult(req));
        return [
          reply(toolCall('team_tasks', { action: 'claim', id: taskIdIn(task) })),
          reply(toolCall('team_tasks', { action: 'complete', id: taskIdIn(task), result: 'parser written' })),
          reply(toolCall('team_tasks', { action: 'complete', id: taskIdIn(task), result: 'parser written, with tests' })),
          reply(text('done')),
        ][n]!;
      },
    });
    await t.asLead('team_tasks', { action: 'create', subject: 'Parser', description: 'parse the input', assignee: 'ann' });
    await eventually(async () => (await t.board.get('web', 1))!.status === 'completed');
    assert.match(seen[1]!, /^Not completed: quality gate reviewer rev failed\. .*\nFeedback: add tests for the empty input$/);
    assert.match(reviewerSaw[1]!, /You are not part of a team in this session/);
    const reviews = t.r.manager.list().filter((c) => c.agentId === 'rev');
    assert.equal(reviews.length, 2, 'one review per complete; the reviewer\'s own call triggered none');
    assert.match(reviews[0]!.task, /^Review the result of task #1 "Parser"[\s\S]*The member's result:\nparser written\n/);
    assert.deepEqual((await gateEvents(t)).map((e) => e.split(':')[0]), ['gate-failed', 'gate-passed']);
  });

  it('a gate that does not block records its failure and lets the task complete', async () => {
    const t = await rigs.start({
      team: team('  - name: lint\n    command: exit 3\n    block_on_failure: false'),
      member: (_name, task, _req, n) => [reply(toolCall('team_tasks', { action: 'claim', id: taskIdIn(task) })), reply(toolCall('team_tasks', { action: 'complete', id: taskIdIn(task), result: 'ok' })), reply(text('done'))][n]!,
    });
    await t.asLead('team_tasks', { action: 'create', subject: 'Anything', assignee: 'bob' });
    await eventually(async () => (await t.board.get('web', 1))!.status === 'completed');
    assert.match((await gateEvents(t))[0]!, /^gate-failed: lint: .*\(recorded only\)$/s);
  });

  it('reads verdicts strictly: APPROVED, REJECTED: feedback, anything else fails', () => {
    assert.deepEqual(readVerdict('APPROVED'), { passed: true, feedback: 'approved' });
    assert.deepEqual(readVerdict('**APPROVED** looks good'), { passed: true, feedback: 'looks good' });
    assert.deepEqual(readVerdict('REJECTED: no tests'), { passed: false, feedback: 'no tests' });
    assert.deepEqual(readVerdict('I think it is APPROVED'), { passed: false, feedback: 'the reviewer answered neither APPROVED nor REJECTED: I think it is APPROVED' });
  });
});
