// `pincer team` from outside: a real child process running the compiled entry on a temp workspace
// (a team file, a broken one, a team in --config) and a state folder whose board was written by the
// real store — list, board and task, their JSON shapes and exit codes (0 done, 1 no such team or
// task, 2 bad usage).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from '../../../src/core/storage/database';
import { WORKSPACE_MIGRATIONS } from '../../../src/core/storage/workspace-migrations';
import { SqlBoardStore } from '../../../src/core/teams/sql-board-store';
import { removeTempDirs, STORAGE_WORKER, tempDir } from '../../support/storage-fixtures';
import { TEAM_FILE } from './team-rig';

const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

describe('pincer team', function () {
  // Each call is a whole CLI process that opens the database: seconds apiece on a loaded machine.
  this.timeout(240_000);
  after(removeTempDirs);

  it('lists the teams, shows a board in its columns and a task with its audit trail; JSON shapes and exit codes', async () => {
    const ws = tempDir('cli-team-ws');
    const state = tempDir('cli-team-state');
    const config = path.join(tempDir('cli-team-cfg'), 'settings.json');
    fs.mkdirSync(path.join(ws, '.pincer', 'teams'), { recursive: true });
    fs.writeFileSync(path.join(ws, '.pincer', 'teams', 'web.md'), TEAM_FILE);
    fs.writeFileSync(path.join(ws, '.pincer', 'teams', 'broken.md'), '---\nlead: default\n---\nNo members.');
    fs.writeFileSync(config, JSON.stringify({ 'pincer.teams': { ops: { name: 'Operations', lead: 'sre', members: ['ann'] } } }));

    // The board as the editor left it: one task done, one in review, one blocked behind it, one cancelled.
    const db = await Database.open({ dir: state, workerPath: STORAGE_WORKER, migrations: WORKSPACE_MIGRATIONS });
    const board = new SqlBoardStore(db);
    const lead = { name: 'default', at: 1_000 };
    const api = await board.create('web', { subject: 'Write the API', priority: 5, gates: [{ name: 'npm test', kind: 'command', command: 'npm test', blockOnFailure: true, maxRetries: 2 }] }, lead);
    await board.claim('web', api.id, undefined, { name: 'ann', at: 1_001 });
    await board.complete('web', api.id, 'GET /tasks works', { name: 'ann', at: 1_002 });
    const ui = await board.create('web', { subject: 'Build the UI', requireReview: true }, lead);
    await board.claim('web', ui.id, undefined, { name: 'bob', at: 1_003 });
    await board.submitForReview('web', ui.id, 'the board page', { name: 'bob', at: 1_004 });
    const docs = await board.create('web', { subject: 'Write the docs', blockedBy: [ui.id] }, lead);
    const old = await board.create('web', { subject: 'Old idea' }, lead);
    await board.cancel('web', old.id, 'not needed', lead);
    await db.close();

    const pincer = (...args: string[]) => {
      const r = spawnSync(process.execPath, [CLI, 'team', ...args, '--workspace', ws, '--state', state, '--config', config], { encoding: 'utf8', timeout: 60_000 });
      return { code: r.status, out: r.stdout, err: r.stderr };
    };

    const list = pincer('list', '--json');
    assert.equal(list.code, 0, list.err);
    const listed = JSON.parse(list.out) as { teams: { id: string; name: string; lead: string; source: string; members: { agent: string }[] }[]; problems: string[] };
    assert.deepEqual(listed.teams.map((t) => [t.id, t.name, t.lead, t.source, t.members.map((m) => m.agent)]), [
      ['ops', 'Operations', 'sre', 'settings', ['ann']], ['web', 'Web', 'default', 'workspace', ['ann', 'bob']]]);
    assert.equal(listed.problems.length, 1);
    assert.match(listed.problems[0]!, /broken\.md: field members: /);
    const text = pincer('list');
    assert.match(text.out, /^ops\tOperations\tlead sre\tmembers ann\nweb\tWeb\tlead default\tmembers ann, bob\nproblem: .*broken\.md/);

    const shown = pincer('board', 'web', '--json');
    assert.equal(shown.code, 0, shown.err);
    const columns = (JSON.parse(shown.out) as { team: { id: string }; columns: { id: string; tasks: { id: number; status: string; openBlockers: number[] }[] }[] }).columns;
    assert.deepEqual(columns.map((c) => [c.id, c.tasks.map((t) => t.id)]), [
      ['pending', [docs.id]], ['in_progress', []], ['in_review', [ui.id]], ['done', [api.id]], ['failed', [old.id]]]);
    assert.deepEqual(columns[0]!.tasks[0]!.openBlockers, [ui.id], 'the board says what a task waits on');
    const boardText = pincer('board', 'web').out;
    assert.match(boardText, /^Team Web \(web\), lead default\n\nPending \(1\)\n {2}#\d+ \[pending, blocked by #\d+\] P0 "Write the docs"/);
    assert.match(boardText, /\nDone \(1\)\n {2}#\d+ \[completed\] P5 "Write the API" — ann\n/);

    const task = pincer('task', 'web', String(api.id), '--json');
    assert.equal(task.code, 0, task.err);
    const got = JSON.parse(task.out) as { task: { subject: string; result: string; gates: { name: string; command: string }[] }; events: { actor: string; action: string }[] };
    assert.equal(got.task.result, 'GET /tasks works');
    assert.deepEqual(got.task.gates.map((g) => [g.name, g.command]), [['npm test', 'npm test']], 'a task\'s own gates are in its JSON');
    assert.deepEqual(got.events.map((e) => `${e.actor} ${e.action}`), ['default create', 'ann claim', 'ann complete']);
    assert.match(pincer('task', 'web', String(api.id)).out, /Result: GET \/tasks works\nIts own quality gates: npm test \(command\)\.\nHistory:\n- 1970-01-01T00:00:01\.000Z default create/);

    // No such team or task: exit 1, the reason (as {"error"} with --json); bad usage: exit 2.
    const none = pincer('board', 'nosuch', '--json');
    assert.equal(none.code, 1);
    assert.deepEqual(JSON.parse(none.out), { error: 'There is no team nosuch: the teams are ops, web.' });
    const missing = pincer('task', 'web', '999');
    assert.equal(missing.code, 1);
    assert.match(missing.err, /^There is no task #999 on team web\.$/m);
    for (const bad of [[], ['delete'], ['list', 'web'], ['board'], ['task', 'web'], ['task', 'web', 'x']]) {
      const r = pincer(...bad);
      assert.equal(r.code, 2, `${bad.join(' ')}: ${r.err}`);
      assert.match(r.err, /^pincer: pincer team /);
    }
  });
});
