// ask_user on the Team Board: the question waits on the board (in the snapshot the page draws) and in
// the editor's prompt at once; an answer on the board reaches the asker, closes the prompt and leaves
// the audit trail; a question whose asker gave up leaves the board and takes no answer.
import assert from 'node:assert/strict';
import { boardSnapshot } from '../../../src/core/teams/board-view';
import type { AskUser } from '../../../src/core/teams/team-service';
import { eventually, teamRigs } from './team-rig';

/** The editor's prompt as a person who never answers it: it only records that it was closed. */
function ignoredPrompt() {
  const closed: string[] = [];
  const askUser: AskUser = (q, signal) => new Promise((resolve) => {
    signal.addEventListener('abort', () => {
      closed.push(q.question);
      resolve(undefined);
    }, { once: true });
  });
  return { askUser, closed };
}

describe('teams: ask_user answered on the Team Board', () => {
  const rigs = teamRigs();

  it('the question is on the board while it waits; the board\'s answer reaches the asker and closes the editor\'s prompt', async () => {
    const prompt = ignoredPrompt();
    const t = await rigs.start({ askUser: prompt.askUser });
    await t.asLead('team_tasks', { action: 'create', subject: 'Pick the database' });
    const changes: string[] = [];
    const sub = t.svc.questions.onChange((team) => changes.push(team));
    const asking = t.asLead('team_tasks', { action: 'ask_user', id: 1, text: 'PostgreSQL or SQLite?' });
    await eventually(async () => t.svc.questions.list('web').length === 1);
    const [q] = t.svc.questions.list('web');
    assert.deepEqual({ ...q, at: 0 }, { id: q!.id, teamId: 'web', taskId: 1, from: 'default', question: 'PostgreSQL or SQLite?', at: 0 });
    const shown = await boardSnapshot(t.board, [t.team], 'web', [], undefined, (team) => t.svc.questions.list(team));
    assert.deepEqual(shown.questions.map((x) => x.question), ['PostgreSQL or SQLite?'], 'the board shows it');
    assert.equal(t.svc.questions.list('other').length, 0, 'only on its own team\'s board');

    assert.equal(t.svc.questions.answer(q!.id, 'PostgreSQL'), true);
    const r = await asking;
    assert.equal(r.forLLM, 'The person answered: PostgreSQL');
    assert.deepEqual(prompt.closed, ['PostgreSQL or SQLite?'], 'the editor\'s prompt was closed by the board\'s answer');
    assert.deepEqual(t.svc.questions.list('web'), []);
    assert.equal(t.svc.questions.answer(q!.id, 'SQLite'), false, 'a settled question takes no second answer');
    assert.deepEqual(changes, ['web', 'web'], 'the board is told when it is asked and when it is settled');
    const events = (await t.board.events('web', { taskId: 1 })).map((e) => `${e.actor}:${e.action}:${e.detail}`);
    assert.ok(events.includes('default:ask_user:PostgreSQL or SQLite?') && events.includes('person:answer:PostgreSQL'), events.join('\n'));
    sub.dispose();
  });

  it('a question whose asker stops leaves the board unanswered; the prompt\'s own answer wins when it comes first', async () => {
    const controller = new AbortController();
    const prompt = ignoredPrompt();
    const t = await rigs.start({ askUser: prompt.askUser });
    const ctx = t.r.x.rt.context({ channel: 'chat', sessionKey: t.lead, agentId: 'default', signal: controller.signal });
    const asking = t.r.x.rt.registry.execute('team_tasks', { action: 'ask_user', text: 'Ship on Friday?' }, ctx);
    await eventually(async () => t.svc.questions.list('web').length === 1);
    const [q] = t.svc.questions.list('web');
    controller.abort(new Error('stopped by the person'));
    await asking;
    assert.deepEqual(t.svc.questions.list('web'), [], 'it left the board');
    assert.equal(t.svc.questions.answer(q!.id, 'yes'), false);
    assert.deepEqual(prompt.closed, ['Ship on Friday?']);

    const typed = await rigs.start({ askUser: async () => 'Friday is fine' });
    const r = await typed.asLead('team_tasks', { action: 'ask_user', text: 'Ship on Friday?' });
    assert.equal(r.forLLM, 'The person answered: Friday is fine');
    assert.deepEqual(typed.svc.questions.list('web'), []);
  });
});
