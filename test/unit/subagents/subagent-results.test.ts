// How results come back and what survives: background results merged into one announcement at the
// parent's next model request (also mid-turn, after a tool result), transient provider errors
// retried twice with backoff, records persisted so a reload shows running children as interrupted
// (resumable from their transcript, never re-run on their own), named agents (a broken or unknown
// one is a clear refusal), and askBeforeSpawn through the approval port.
import assert from 'node:assert/strict';
import { z } from 'zod';
import { confirmThrough } from '../../../src/core/subagents/spawn-approval';
import { defineTool, ok, type Tool } from '../../../src/core/tools/types';
import { ScriptedApprover } from '../../support/exec-fixture';
import { reply, text, toolCall } from '../../support/model-script';
import { isChild, messagesOf, rigPerTest, until, userTexts, type Rig } from './subagent-rig';

const hold = (t: string) => ({ parts: [text(t)], holdAfter: 2 });
const spawnReq = (parentSessionKey: string, task: string, extra: Record<string, unknown> = {}) =>
  ({ parentSessionKey, callerAgentId: 'default', callerDepth: 0, task, mode: 'spawn' as const, ...extra });

describe('subagents: results, retries, persistence, agents', () => {
  const rigs = rigPerTest();

  it('children that finished while the parent was idle arrive as ONE announcement at its next request', async () => {
    const r = await rigs.start({
      roles: {
        parent: (_req, n) => (n === 0 ? reply(toolCall('spawn', { action: 'spawn', task: 'A', label: 'alpha' }), toolCall('spawn', { action: 'spawn', task: 'B' })) : reply(text(`parent ${n}`))),
        child: (task) => ({ ...reply(text(`${task} result`)), usage: { input: 40, output: 4 } }),
      },
    });
    const key = await r.session();
    await r.turn(key, 'fan out');
    await until(() => r.manager.list().length === 2 && r.manager.list().every((c) => c.status === 'done'));
    await r.turn(key, 'and?');
    const parentRequests = r.server.requests.filter((b) => !isChild(b));
    const announcements = userTexts(parentRequests.at(-1)!).filter((t) => t.startsWith('[Subagent results]'));
    assert.equal(announcements.length, 1);
    assert.match(announcements[0], /^\[Subagent results\] 2 subagents you started have finished\.\n\n### sa-\w+ "alpha" — done \(40 tokens in, 4 out, [\d.]+ s\)\nA result\n\n### sa-\w+ — done \(40 tokens in, 4 out, [\d.]+ s\)\nB result$/);
    // Stored in the parent's session like any message of the turn.
    const stored = await r.sessions.messages(key);
    assert.ok(stored.some((m) => m.role === 'user' && (m.parts[0] as { text: string }).text.startsWith('[Subagent results]')));
  });

  it('a result that arrives mid-turn is added after the running tool\'s result, never between a call and its result', async () => {
    const box: { manager?: Rig['manager'] } = {};
    const gate = defineTool({
      name: 'gate', group: 'fs', capability: 'read-only', description: 'Waits for the children.', parameters: z.object({}).strict(),
      async execute() {
        await until(() => !!box.manager && box.manager.list().length > 0 && box.manager.list().every((c) => c.status === 'done'));
        return ok('children done');
      },
    }) as Tool;
    const r = await rigs.start({
      extraTools: [gate],
      roles: {
        parent: (_req, n) => (n === 0 ? reply(toolCall('spawn', { action: 'spawn', task: 'quick' })) : n === 1 ? reply(toolCall('gate', {})) : reply(text('all done'))),
      },
    });
    box.manager = r.manager;
    const key = await r.session();
    const turn = await r.turn(key, 'go');
    assert.equal(turn.stopReason, 'end');
    const last = messagesOf(r.server.requests.filter((b) => !isChild(b)).at(-1)!);
    assert.deepEqual(last.slice(-3).map((m) => m.role), ['assistant', 'tool', 'user']);
    assert.equal(last.at(-2)!.content, 'children done');
    assert.match(String(last.at(-1)!.content), /^\[Subagent results\] A subagent you started has finished\.\n\n### sa-\w+ — done .*\ndone: quick$/);
  });

  it('transient provider errors are retried twice with backoff; a third failure ends the child with the provider\'s message', async () => {
    const busy = { error: { status: 429, message: 'Rate limited, slow down', retryAfterMs: 1 } };
    const r = await rigs.start({ roles: { child: (task, _req, n) => (task === 'lucky' ? (n < 2 ? busy : reply(text('made it'))) : busy) } });
    const key = await r.session();
    const lucky = await r.manager.spawn(spawnReq(key, 'lucky', { mode: 'run' }));
    assert.equal((await r.manager.settled(lucky.id))!.status, 'done');
    assert.equal(r.childRequests().filter((c) => c.task === 'lucky').length, 3);
    const unlucky = await r.manager.spawn(spawnReq(key, 'unlucky', { mode: 'run' }));
    const failed = await r.manager.settled(unlucky.id);
    assert.equal(failed!.status, 'failed');
    assert.match(failed!.result!, /Rate limited, slow down.*still failing after 2 retries/);
    assert.equal(r.childRequests().filter((c) => c.task === 'unlucky').length, 3);
  });

  it('after a reload, a child that was running is interrupted (never re-run on its own) and resume continues from its transcript', async () => {
    const r = await rigs.start({ roles: { child: (task) => (task === 'long' ? hold('half way') : reply(text(`${task} ok`))) } });
    const key = await r.session();
    const finished = await r.manager.spawn(spawnReq(key, 'short'));
    await until(() => r.manager.get(finished.id)!.status === 'done');
    r.clock.t += 1000;
    const running = await r.manager.spawn(spawnReq(key, 'long'));
    await until(() => r.events.some((e) => e.type === 'output' && e.id === running.id));
    await r.manager.flush();
    const before = r.server.requests.length;

    // A second window on the same database: what a reload sees.
    const again = await rigs.start({ dbDir: r.dbDir, roles: { child: (_task, req) => reply(text(`resumed after: ${userTexts(req.body).join(' | ')}`)) } });
    const reloaded = again.manager.get(running.id)!;
    assert.equal(reloaded.status, 'interrupted');
    assert.match(reloaded.result!, /^Interrupted: the window closed/);
    assert.equal(again.manager.get(finished.id)!.status, 'done');
    assert.equal(again.server.requests.length, 0, 'nothing was re-run on load');
    assert.equal(r.server.requests.length, before);
    // The parent hears about both at its next request: the finished result and the interruption.
    const [told] = again.manager.inbox(key);
    assert.match((told.parts[0] as { text: string }).text, /2 subagents[\s\S]*— done[\s\S]*— interrupted/);

    await r.manager.cancel(running.id);
    const resumed = await again.manager.resume(running.id);
    assert.equal(resumed.status, 'queued');
    const done = await again.manager.settled(running.id);
    assert.equal(done!.status, 'done');
    assert.match(done!.result!, /^resumed after: long \| You were stopped before you finished\. Continue the task/);
    await assert.rejects(again.manager.resume(finished.id), /already finished; its result stands/);
  });

  it('a window closing stops its running children as interrupted (resumable), not as cancelled', async () => {
    const r = await rigs.start({ roles: { child: () => hold('busy') } });
    const key = await r.session();
    const rec = await r.manager.spawn(spawnReq(key, 'busy work'));
    await until(() => r.events.some((e) => e.type === 'output' && e.id === rec.id));
    await r.manager.dispose();
    assert.equal(r.manager.get(rec.id)!.status, 'interrupted');
    const [row] = await r.db.query<{ status: string; delivered: number }>('SELECT status, delivered FROM subagents WHERE id = ?', [rec.id]);
    assert.deepEqual(row, { status: 'interrupted', delivered: 0 });
  });

  it('a named agent runs as itself; an unknown or broken one is refused with what exists; the description lists agents sorted', async () => {
    const r = await rigs.start({
      agentFiles: {
        'reviewer.md': '---\nname: Reviewer\ndescription: Reviews diffs for bugs.\n---\nYou review code.',
        'auditor.md': '---\ndescription: Audits dependencies.\n---\nYou audit.',
        'broken.md': '---\nname: [unclosed\n---\nBody',
      },
      roles: { child: (task) => reply(text(`reviewed ${task}`)) },
    });
    const key = await r.session();
    const rec = await r.manager.spawn(spawnReq(key, 'the diff', { agent: 'reviewer', mode: 'run' }));
    assert.equal(rec.agentId, 'reviewer');
    assert.match(rec.sessionKey, /^agent:reviewer:subagent-/);
    assert.equal((await r.manager.settled(rec.id))!.status, 'done');
    await assert.rejects(r.manager.spawn(spawnReq(key, 'x', { agent: 'nobody' })),
      /^AgentReferenceError: There is no agent "nobody"\. Available agents: auditor, default, reviewer;/);
    await assert.rejects(r.manager.spawn(spawnReq(key, 'x', { agent: 'broken' })), /Agent "broken" has a broken definition, so no child was started: .*broken\.md/);
    const ctx = r.x.rt.context({ channel: 'chat', sessionKey: key });
    const viaTool = await r.x.rt.registry.execute('spawn', { action: 'spawn', task: 'x', agent: 'broken' }, ctx);
    assert.equal(viaTool.outcome, 'denied');
    const description = r.x.rt.registry.get('spawn')!.description;
    assert.match(description, /Agents a child may be started as:\n- auditor: Audits dependencies\.\n- default: .*\n- reviewer: Reviews diffs for bugs\.$/);
  });

  it('askBeforeSpawn background: a person confirms a background child through the approval port; no means no child', async () => {
    const approver = new ScriptedApprover(['deny', 'once']);
    const r = await rigs.start({ confirm: (req, signal) => confirmThrough(approver, { cwd: () => '/ws', host: 'process' })(req, signal), roles: {} });
    const key = await r.session();
    await assert.rejects(r.manager.spawn(spawnReq(key, 'delete nothing')), /The person declined to start this subagent/);
    assert.equal(r.manager.list()[0].status, 'cancelled');
    assert.equal(approver.requests[0].tool, 'spawn');
    assert.equal(approver.requests[0].command, 'delete nothing');
    assert.match(approver.requests[0].reason, /^A background subagent \(sa-\w+, a copy of the calling agent, depth 1\)/);
    const yes = await r.manager.spawn(spawnReq(key, 'approved task'));
    assert.equal((await r.manager.settled(yes.id))!.status, 'done');
    // A `run` child is not a background one: not asked under the default setting.
    const run = await r.manager.spawn(spawnReq(key, 'foreground', { mode: 'run' }));
    assert.equal((await r.manager.settled(run.id))!.status, 'done');
    assert.equal(approver.requests.length, 2);
    assert.equal(r.childRequests().some((c) => c.task === 'delete nothing'), false, 'the declined child never asked the model');
  });
});
