// The Team Board's core: the watched store announces every committed change (and nothing else), the
// snapshot the page draws, the page's messages checked before anything acts on them, and a person's
// actions — team_tasks calls through the pipeline on the palette channel — on the real subagent
// machinery: a cancel stops the member's run, a reassign starts the new member, approve releases
// dependents, reject needs feedback, each told to the lead; naming a team stays the person's alone.
import assert from 'node:assert/strict';
import { fromBoardPage } from '../../../src/core/teams/board-protocol';
import { boardHtml, boardSnapshot } from '../../../src/core/teams/board-view';
import { watchBoard } from '../../../src/core/teams/board-watch';
import { Database } from '../../../src/core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../../../src/core/storage/workspace-migrations';
import { SqlBoardStore } from '../../../src/core/teams/sql-board-store';
import { parseTeamFile } from '../../../src/core/teams/team-definition';
import { reply, text, toolCall } from '../../support/model-script';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { eventually, TEAM_FILE, taskIdIn, teamRigs } from './team-rig';

const team = parseTeamFile('/ws/.pincer/teams/web.md', TEAM_FILE).team!;

/** A board in a new workspace database (the database the editor opens), closed by the caller. */
async function localBoard() {
  const db = await Database.open({ dir: tempDir('team-board'), workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
  let at = 1_700_000_000_000;
  return { board: new SqlBoardStore(db), as: (name: string) => ({ name, at: ++at }), close: () => db.close() };
}

describe('teams: the Team Board', () => {
  after(removeTempDirs);

  it('the watched store announces each committed change with its team, never a read or a refused change', async () => {
    const f = await localBoard();
    try {
      const w = watchBoard(f.board);
      const seen: { team: string; status: string | undefined }[] = [];
      // A listener that reads back sees the change already committed.
      const sub = w.onChange((teamId) => void w.store.get(teamId, 1).then((t) => seen.push({ team: teamId, status: t?.status })));
      await w.store.create('web', { subject: 'Build the API' }, f.as('default'));
      await w.store.list('web', 'all', 'priority');
      await w.store.get('web', 1);
      await assert.rejects(w.store.complete('web', 1, 'done', f.as('ann')), /^Error: Refused/);
      await w.store.claim('web', 1, 'run-1', f.as('ann'));
      const docs = await w.store.create('docs', { subject: 'Write the guide' }, f.as('default'));
      await w.store.claim('docs', docs.id, 'run-2', f.as('ann'));
      await w.store.releaseOrphans(new Set(), () => 'default', 2, Date.now());
      await eventually(async () => seen.length === 6);
      assert.deepEqual(seen.map((s) => s.team), ['web', 'web', 'docs', 'docs', 'web', 'docs'], 'releaseOrphans names each team it moved a task of');
      assert.deepEqual(seen.slice(0, 2).map((s) => s.status), ['pending', 'in_progress']);
      sub.dispose();
      await w.store.create('web', { subject: 'After' }, f.as('default'));
      assert.equal(seen.length, 6, 'a disposed listener hears nothing');
    } finally {
      await f.close();
    }
  });

  it('the snapshot has every task, the five columns, the audit trail newest first, the mailbox and the lead\'s unread count', async () => {
    const f = await localBoard();
    try {
      await f.board.create('web', { subject: 'A' }, f.as('default'));
      await f.board.create('web', { subject: 'B', blockedBy: [1] }, f.as('default'));
      await f.board.send('web', 'ann', ['default'], 'hello', Date.now());
      const s = await boardSnapshot(f.board, [team], 'nope', ['pincer.teams.x: field lead: required']);
      assert.deepEqual(s.columns.map((c) => c.title), ['Pending', 'In progress', 'In review', 'Done', 'Failed']);
      assert.deepEqual(s.columns.find((c) => c.id === 'failed')!.statuses, ['failed', 'cancelled']);
      assert.deepEqual(s.team, { id: 'web', name: 'Web', lead: 'default', members: ['ann', 'bob'] }, 'an unknown team shows the first');
      assert.deepEqual(s.tasks.map((t) => [t.id, t.openBlockers]), [[1, []], [2, [1]]]);
      assert.deepEqual(s.events.map((e) => e.taskId), [2, 1]);
      assert.equal(s.leadUnread, 1);
      assert.deepEqual(s.messages.map((m) => [m.sender, m.recipient, m.text, m.readAt]), [['ann', 'default', 'hello', undefined]]);
      assert.equal(await f.board.unreadCount('web', 'default'), 1, 'the board shows the mailbox without reading it for the lead');
      assert.deepEqual(s.problems, ['pincer.teams.x: field lead: required']);
      const none = await boardSnapshot(undefined, [], undefined, []);
      assert.equal(none.team, undefined);
      assert.deepEqual(none.tasks, []);
      assert.match((await boardSnapshot(undefined, [team], undefined, [])).problems[0]!, /database could not be opened/);
    } finally {
      await f.close();
    }
  });

  it('the page\'s messages are checked: unknown types, actions, extra fields and bad ids are dropped', () => {
    assert.ok(fromBoardPage.safeParse({ type: 'action', action: 'assign', id: 3, assignee: 'bob' }).success);
    assert.ok(fromBoardPage.safeParse({ type: 'ready' }).success);
    assert.deepEqual(fromBoardPage.parse({ type: 'create', subject: '  Fix it  ' }), { type: 'create', subject: 'Fix it' });
    for (const bad of [
      { type: 'action', action: 'complete', id: 1 }, { type: 'action', action: 'cancel', id: 0 }, { type: 'action', action: 'cancel', id: '1' },
      { type: 'action', action: 'cancel', id: 1, sql: 'DROP TABLE team_tasks' }, { type: 'eval', code: '1' }, { type: 'pick-team', team: '' }, { type: 'create', subject: '   ' }, { type: 'create', subject: 'x', assignee: 'ann' }, null, 'ready',
    ]) assert.equal(fromBoardPage.safeParse(bad).success, false, JSON.stringify(bad));
  });

  it('the page runs only its own nonce\'s scripts and loads nothing from elsewhere', () => {
    const html = boardHtml({ cspSource: 'https://file+.vscode-resource.vscode-cdn.net', nonce: 'abcdefghijklmnopqrstuv', script: 'https://x/team-board.js', style: 'https://x/team-board.css' });
    assert.match(html, /default-src 'none'; style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net; font-src [^;]+; img-src blob:; script-src 'nonce-abcdefghijklmnopqrstuv'/);
    assert.match(html, /<script nonce="abcdefghijklmnopqrstuv" src="https:\/\/x\/team-board\.js"><\/script>/);
    assert.throws(() => boardHtml({ cspSource: "x; script-src 'unsafe-inline'", nonce: 'abcdefghijklmnopqrstuv', script: '', style: '' }));
    assert.throws(() => boardHtml({ cspSource: 'x', nonce: 'short', script: '', style: '' }));
  });

  describe('a person acting on the board', () => {
    const rigs = teamRigs();

    it('cancel stops the member working on the task and tells the lead; retry puts it back and starts its member again', async () => {
      const t = await rigs.start({
        member: (_name, task, _req, n) => [reply(toolCall('team_tasks', { action: 'claim', id: taskIdIn(task) })), reply(toolCall('sleep', { ms: 60_000 })), reply(text('stopped'))][n]!,
      });
      await t.asLead('team_tasks', { action: 'create', subject: 'Long job', assignee: 'ann' });
      const run = t.r.manager.list()[0]!;
      await eventually(async () => t.r.events.some((e) => e.type === 'tool' && e.id === run.id && e.tool === 'sleep' && e.phase === 'start'));
      const r = await t.asPerson({ type: 'action', action: 'cancel', id: 1 });
      assert.equal(r.isError, false, r.forLLM);
      assert.match(r.forLLM, /^Cancelled #1 \[cancelled\]/);
      await eventually(async () => t.r.manager.get(run.id)?.status === 'cancelled');
      const task = (await t.board.get('web', 1))!;
      assert.equal(task.status, 'cancelled', 'the watchdog did not put it back: a cancel is final until a retry');
      const ev = (await t.board.events('web', { taskId: 1 })).find((e) => e.action === 'cancel')!;
      assert.deepEqual([ev.actor, ev.detail], ['person', 'cancelled on the Team Board']);
      const mail = (await t.asLead('team_message', { action: 'read' })).forLLM;
      assert.match(mail, /\[person, on the Team Board\] Cancelled #1/);

      const again = await t.asPerson({ type: 'action', action: 'retry', id: 1 });
      assert.match(again.forLLM, /^Back to pending: #1 \[pending\] .* ann is started on it\./);
      await eventually(async () => t.r.manager.list().length === 2);
    });

    it('reassign gives the task to another member, who is started on it; someone outside the team is refused', async () => {
      const t = await rigs.start({ member: (name) => reply(text(`${name} idle`)) });
      await t.asLead('team_tasks', { action: 'create', subject: 'Style the page', assignee: 'ann' });
      await eventually(async () => t.r.manager.list().some((r) => r.status === 'done'));
      const r = await t.asPerson({ type: 'action', action: 'assign', id: 1, assignee: 'bob' });
      assert.match(r.forLLM, /^Assigned #1 \[pending\] P0 "Style the page" — for bob\. bob is started on it\./);
      await eventually(async () => t.r.manager.list().some((x) => x.label === 'web: bob'));
      const bad = await t.asPerson({ type: 'action', action: 'assign', id: 1, assignee: 'mallory' });
      assert.deepEqual([bad.isError, bad.forLLM], [true, 'Refused: mallory is not on team web: its members are ann, bob (and the lead default).']);
      assert.equal((await t.board.get('web', 1))!.assignee, 'bob');
    });

    it('approve completes a task in review and releases its dependents; reject needs feedback; an unknown team or task is refused', async () => {
      const t = await rigs.start({
        member: (_name, task, _req, n) => (taskIdIn(task) === 1
          ? [reply(toolCall('team_tasks', { action: 'claim', id: 1 })), reply(toolCall('team_tasks', { action: 'review', id: 1, result: 'API built' })), reply(text('handed in'))][n]!
          : reply(text('bob idle'))),
      });
      await t.asLead('team_tasks', { action: 'create', subject: 'API', assignee: 'ann', require_review: true });
      await t.asLead('team_tasks', { action: 'create', subject: 'UI', assignee: 'bob', blocked_by: [1] });
      await eventually(async () => (await t.board.get('web', 1))!.status === 'in_review');
      const noFeedback = await t.asPerson({ type: 'action', action: 'reject', id: 1, text: '  ' });
      assert.deepEqual([noFeedback.isError, noFeedback.forLLM], [true, 'Refused: reject needs feedback for the member.']);
      const ok = await t.asPerson({ type: 'action', action: 'approve', id: 1 });
      assert.match(ok.forLLM, /^Approved: #1 \[completed\][^\n]*\nNow claimable: #2 "UI" \(bob is started on it\)\./);
      await eventually(async () => t.r.manager.list().some((x) => x.label === 'web: bob'));
      assert.equal((await t.board.events('web', { taskId: 1 })).at(-1)!.actor, 'person');
      const twice = await t.asPerson({ type: 'action', action: 'approve', id: 1 });
      assert.deepEqual([twice.isError, twice.forLLM], [true, 'Refused: task #1 is not in review.']);
      const nope = await t.asPerson({ type: 'action', action: 'cancel', id: 1 }, 'nope');
      assert.deepEqual([nope.isError, nope.forLLM], [true, 'There is no team nope (the teams are web).']);
    });

    it('a task the person adds is open to whoever claims it, recorded as the person\'s, and the lead is told', async () => {
      const t = await rigs.start({});
      await t.asLead('team_message', { action: 'read' });
      const r = await t.asPerson({ type: 'create', subject: 'Check the <footer> links' });
      assert.deepEqual([r.isError, r.forLLM], [false, 'Created #1 [pending] P0 "Check the <footer> links".']);
      const task = (await t.board.get('web', 1))!;
      assert.deepEqual([task.createdBy, task.assignee, task.status], ['person', undefined, 'pending']);
      assert.match((await t.asLead('team_message', { action: 'read' })).forLLM, /\[person, on the Team Board\] Created #1 .* Assign it to a member/);
      assert.equal(t.r.manager.list().length, 0, 'nobody is started: the lead decides who does it');
      const nope = await t.asPerson({ type: 'create', subject: 'x' }, 'nope');
      assert.equal(nope.isError, true);
      assert.equal((await t.board.list('web', 'all', 'priority')).length, 1);
    });

    it('before any chat led the team, an action changes the board and starts nobody', async () => {
      const t = await rigs.start({ leadSession: false });
      await t.board.create('web', { subject: 'Docs', assignee: 'bob' }, { name: 'default', at: Date.now() });
      assert.equal(t.svc.leadSession('web'), undefined);
      const r = await t.asPerson({ type: 'action', action: 'assign', id: 1, assignee: 'ann' });
      assert.equal(r.forLLM, 'Assigned #1 [pending] P0 "Docs" — for ann.');
      assert.equal(t.r.manager.list().length, 0);
    });

    it('every click, done or refused, is a team_tasks call the registry reports on the palette channel', async () => {
      const t = await rigs.start({});
      const seen: string[] = [];
      const sub = t.r.x.rt.registry.onCallEnd.on((c) => seen.push(`${c.tool} ${c.channel} ${c.outcome} ${c.args}`));
      try {
        await t.asPerson({ type: 'create', subject: 'Logged' });
        await t.asPerson({ type: 'action', action: 'approve', id: 1 });
      } finally {
        sub.dispose();
      }
      assert.equal(seen.length, 2, seen.join('\n'));
      assert.match(seen[0]!, /^team_tasks palette ok .*"action":"create".*"team":"web"/);
      assert.match(seen[1]!, /^team_tasks palette error .*"action":"approve"/);
    });
  });

  describe('naming a team is the person\'s alone', () => {
    const rigs = teamRigs();

    it('hostile: a model on any other entry point, even the team\'s own lead, cannot act on a team by naming it; the person cannot do the agents\' work', async () => {
      const t = await rigs.start({});
      await t.asLead('team_tasks', { action: 'create', subject: 'Keep me', assignee: 'ann' });
      const { rt } = t.r.x;
      const refusal = /^Refused: team is for the person's own calls from the editor/;
      // An outsider's chat, another extension's model, an MCP client, a subagent (even on the palette channel), and the lead itself.
      for (const ctx of [
        rt.context({ channel: 'chat', sessionKey: 'agent:bob:main', agentId: 'bob' }),
        rt.context({ channel: 'lm', sessionKey: 'lm:x' }),
        rt.context({ channel: 'mcp', sessionKey: 'mcp:x' }),
        rt.context({ channel: 'palette', sessionKey: 'palette:sub', subagentDepth: 1 }),
        rt.context({ channel: 'chat', sessionKey: t.lead, agentId: 'default' }),
      ]) {
        const r = await rt.registry.execute('team_tasks', { action: 'cancel', id: 1, team: 'web' }, ctx);
        assert.equal(r.isError, true, `${ctx.channel}: ${r.forLLM}`);
        assert.match(r.forLLM, refusal, ctx.channel);
      }
      // A person's call on the palette channel that is not the owner's is no person's either.
      const notOwner = await rt.registry.execute('team_tasks', { action: 'cancel', id: 1, team: 'web' }, rt.context({ channel: 'palette', isOwner: false }));
      assert.equal(notOwner.isError, true, notOwner.forLLM);
      assert.equal((await t.board.get('web', 1))!.status, 'pending', 'nothing was cancelled');
      assert.ok(!(await t.board.events('web', { taskId: 1 })).some((e) => e.actor === 'person'));
      // The person acts as the lead does on the board, but claiming, completing and asking are the agents' work.
      for (const args of [{ action: 'claim', id: 1 }, { action: 'complete', id: 1, result: 'done' }, { action: 'ask_user', text: 'Which port?' }, { action: 'comment', id: 1, text: 'hm' }]) {
        const r = await rt.registry.execute('team_tasks', { ...args, team: 'web' }, rt.context({ channel: 'palette', sessionKey: 'palette:board' }));
        assert.match(r.forLLM, /^The person may create, search, list, get, assign, cancel, retry, approve, reject on a team's board; \w+ is the work of the team's agents\.$/, args.action);
      }
      const unnamed = await rt.registry.execute('team_tasks', { action: 'list' }, rt.context({ channel: 'palette', sessionKey: 'palette:board' }));
      assert.equal(unnamed.forLLM, 'Name the team to act on with team (one of web).');
      assert.equal((await t.board.get('web', 1))!.status, 'pending');
    });

    it('benign: the person lists and reads the board it names, and the lead still acts without naming its team', async () => {
      const t = await rigs.start({});
      await t.asLead('team_tasks', { action: 'create', subject: 'Visible' });
      const person = t.r.x.rt.context({ channel: 'palette', sessionKey: 'palette:board' });
      const list = await t.r.x.rt.registry.execute('team_tasks', { action: 'list', team: 'web' }, person);
      assert.equal(list.isError, false, list.forLLM);
      assert.match(list.forLLM, /#1 \[pending\] P0 "Visible"/);
      const get = await t.r.x.rt.registry.execute('team_tasks', { action: 'get', id: 1, team: 'web' }, person);
      assert.match(get.forLLM, /Visible/);
      assert.equal((await t.asLead('team_tasks', { action: 'cancel', id: 1 })).isError, false);
    });
  });
});
