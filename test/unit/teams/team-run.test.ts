// A team run end to end on scripted loopback models: the lead creates three tasks (the third blocked
// by the first two), two members work on theirs at the same time, the reviewer gate rejects one
// result once, completing both blockers starts the third task's member, and the lead answers the
// person from its mailbox and the board.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineTool, ok, type Tool } from '../../../src/core/tools/types';
import { reply, text, toolCall, type ScriptRequest } from '../../support/model-script';
import { messagesOf, until, userTexts } from '../subagents/subagent-rig';
import { eventually, taskIdIn, teamRigs, type TeamRig } from './team-rig';

const lastToolResult = (req: ScriptRequest) => String(messagesOf(req.body).filter((m) => m.role === 'tool').at(-1)?.content ?? '');

describe('teams: a team run end to end', () => {
  const rigs = teamRigs();

  it('3 tasks with a dependency, two members in parallel, one gate failure, the lead answers', async () => {
    const box: { t?: TeamRig } = {};
    // Returns only once tasks 1 and 2 are both claimed: members working one after the other would never get past it.
    const together = defineTool({
      name: 'together', group: 'fs', capability: 'read-only', description: 'Waits for the other member.', parameters: z.object({}).strict(),
      async execute() {
        await eventually(async () => (await box.t!.board.list('web', 'all', 'newest')).filter((x) => x.id <= 2 && x.status !== 'pending').length === 2);
        return ok('both claimed');
      },
    }) as Tool;
    const t = await rigs.start({
      team: '---\nname: Web\nlead: default\nmembers:\n  - agent: ann\n    description: API\n  - agent: bob\n    description: UI\ngates:\n  - agent: rev\n    max_retries: 2\n---\n',
      extraTools: [together],
      reviewer: (_req, n) => reply(text(n === 0 ? 'REJECTED: handle the error case' : 'APPROVED')),
      lead: (req, n) => {
        if (n === 0) {
          return reply(
            toolCall('team_tasks', { action: 'create', subject: 'Login API', description: 'POST /login', assignee: 'ann' }),
            toolCall('team_tasks', { action: 'create', subject: 'Login form', description: 'the page', assignee: 'bob' }),
            toolCall('team_tasks', { action: 'create', subject: 'Wire form to API', blocked_by: [1, 2], assignee: 'ann' }),
          );
        }
        if (n === 1) return reply(text('The team is on it.'));
        if (n === 2) return reply(toolCall('team_message', { action: 'read' }), toolCall('team_tasks', { action: 'list', filter: 'all' }));
        const results = messagesOf(req.body).filter((m) => m.role === 'tool').slice(-2).map((m) => String(m.content));
        const done = (results[1]!.match(/\[completed\]/g) ?? []).length;
        return reply(text(`Done: ${done} of 3 tasks completed. Mailbox:\n${results[0]}`));
      },
      member: (name, task, req, n) => {
        const id = taskIdIn(task);
        const last = lastToolResult(req);
        const finish = toolCall('team_tasks', { action: 'complete', id, result: `${name} did #${id}` });
        const steps = [
          reply(toolCall('team_tasks', { action: 'claim', id })),
          reply(id <= 2 ? toolCall('together', {}) : toolCall('team_tasks', { action: 'progress', id, percent: 50, text: 'halfway' })),
          reply(finish),
        ];
        if (n < steps.length) return steps[n]!;
        return last.startsWith('Not completed') ? reply(finish) : reply(text(`${name} finished task #${id}`));
      },
    });
    box.t = t;
    const first = await t.r.turn(t.lead, 'Build the login feature.');
    assert.equal(first.text, 'The team is on it.');
    await eventually(async () => (await t.board.list('web', 'all', 'newest')).every((x) => x.status === 'completed'));
    await until(() => t.r.manager.liveChildren(t.lead).length === 0);
    await t.svc.sweep();

    const tasks = await t.board.list('web', 'all', 'priority');
    assert.deepEqual(tasks.map((x) => [x.id, x.owner, x.result]), [[1, 'ann', 'ann did #1'], [2, 'bob', 'bob did #2'], [3, 'ann', 'ann did #3']]);
    assert.equal(tasks.reduce((sum, x) => sum + x.gateFailures, 0), 1, 'the reviewer rejected exactly one result once');
    // Task 3 started only after both blockers were completed.
    const events = await t.board.events('web');
    const at = (task: number, action: string) => events.findIndex((e) => e.taskId === task && e.action === action);
    assert.ok(at(3, 'claim') > at(1, 'complete') && at(3, 'claim') > at(2, 'complete'));
    const runs = t.r.manager.list().filter((c) => c.agentId !== 'rev');
    assert.deepEqual(runs.map((c) => c.agentId).sort(), ['ann', 'ann', 'bob']);
    assert.ok(runs.every((c) => c.parentSessionKey === t.lead && c.status === 'done'));

    const answer = await t.r.turn(t.lead, 'Is it done?');
    assert.match(answer.text, /^Done: 3 of 3 tasks completed\. Mailbox:\n/);
    assert.match(answer.text, /From ann: \[ann\] ann finished task #1/);
    assert.match(answer.text, /From bob: \[bob\] bob finished task #2/);
    assert.match(answer.text, /From ann: \[ann\] ann finished task #3/);
    assert.ok(userTexts(t.r.server.requests.at(-1)!).includes('Is it done?'));
  });
});
