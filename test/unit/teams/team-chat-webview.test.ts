// The teams in the chat webview, in real Chromium: the agent picker lists the teams beside the agents
// (the list pickerChoices makes); choosing a team posts its entry, and once the host says the session
// is the team's, the picker shows the team chosen. Handoff buttons under an answer (a Copilot custom
// agent's handoffs): a click posts the button, disables the row, and the host's prefill writes the
// prompt into the input, or sends it as the person's message. A reopened session's page brings the
// buttons of its last answer back, and the header names the agent the chat was handed to.
import assert from 'node:assert/strict';
import { parseSettingsTeams } from '../../../src/core/teams/team-definition';
import { pickerChoices } from '../../../src/core/teams/team-choices';
import { initMessage, page as sessionPage } from '../chat/chat-fixtures';
import { chatPerTest, chatSuite, type ChatPage } from '../chat/chat-page-driver';

const AGENTS = [{ id: 'default', name: 'Default' }, { id: 'ann', name: 'Ann' }];
const { teams } = parseSettingsTeams({ web: { name: 'Web team', lead: 'default', members: ['ann'] } });
const CHOICES = pickerChoices(AGENTS, teams);

chatSuite('teams: the chat webview', ({ browser, url }) => {
  const current = chatPerTest(browser, url, () => initMessage(sessionPage('s1', 1), { agents: CHOICES, agent: 'default' }));
  let chat: ChatPage;
  beforeEach(() => (chat = current()));

  it('the agent picker offers the team beside the agents; choosing it posts the team, and the host\'s answer shows it chosen', async () => {
    const picker = chat.page.locator('vscode-single-select[label=Agent]');
    await picker.click();
    const options = chat.page.locator('vscode-single-select[label=Agent] [role=option]');
    assert.deepEqual((await options.allInnerTexts()).map((t) => t.split('\n')[0]!.trim()), ['Default', 'Ann', 'Team: Web team']);
    const n = (await chat.posted()).length;
    await options.filter({ hasText: 'Team: Web team' }).click();
    assert.deepEqual(await chat.waitPosted('pick-agent', undefined, n), { type: 'pick-agent', id: 'team:web' });
    // The host made the lead the chat's agent in a session started for the team, and says so.
    await chat.post({ type: 'pickers', models: [], agents: CHOICES, agent: 'team:web' });
    await chat.until(`document.querySelector('vscode-single-select[label=Agent]').value === 'team:web'`);
    assert.equal(await picker.getAttribute('title'), 'Agent: Team: Web team — lead default; members ann');
  });

  const HANDOFFS = [
    { label: 'Start Implementation', agent: 'impl', agentName: 'Implementer', prompt: 'Implement the plan above.', send: false },
    { label: 'Review', agent: 'rev', agentName: 'Reviewer', prompt: 'Review the plan.', send: true },
  ];

  async function answerWithHandoffs(): Promise<void> {
    await chat.post({ type: 'assistant-start', turnId: 't1', sessionKey: 's1' });
    await chat.post({ type: 'text-delta', turnId: 't1', text: 'Step 1: write the parser.' });
    await chat.post({ type: 'turn-end', turnId: 't1', stopReason: 'end', handoffs: HANDOFFS });
  }

  it('handoff buttons under the answer: a click posts agent and label, the row disables, the prompt is written in', async () => {
    await answerWithHandoffs();
    const row = chat.page.locator('[data-turn-id="t1"] .handoffs');
    assert.deepEqual((await row.locator('vscode-button').allInnerTexts()).map((t) => t.trim()), ['Start Implementation', 'Review']);
    assert.match(await row.locator('vscode-button').first().getAttribute('title') ?? '', /Hand the chat to Implementer with: Implement the plan above\./);
    const n = (await chat.posted()).length;
    await row.locator('vscode-button', { hasText: 'Start Implementation' }).click();
    assert.deepEqual(await chat.waitPosted('handoff', undefined, n), { type: 'handoff', agent: 'impl', label: 'Start Implementation' });
    assert.equal(await row.locator('vscode-button[disabled]').count(), 2, 'one click hands over once');
    await chat.post({ type: 'prefill', text: 'Implement the plan above.', send: false });
    await chat.until(`document.querySelector('textarea.input').value === 'Implement the plan above.'`);
    assert.equal((await chat.posted()).filter((m) => m.type === 'send').length, 0, 'written in, not sent');
  });

  it('a handoff that says send: the prompt goes as the person\'s message', async () => {
    await answerWithHandoffs();
    const n = (await chat.posted()).length;
    await chat.page.locator('[data-turn-id="t1"] .handoffs vscode-button', { hasText: 'Review' }).click();
    await chat.waitPosted('handoff', undefined, n);
    await chat.post({ type: 'prefill', text: 'Review the plan.', send: true });
    const sent = await chat.waitPosted('send', undefined, n);
    assert.equal(sent.text, 'Review the plan.');
    await chat.until(`[...document.querySelectorAll('.msg.user')].some((m) => m.textContent.includes('Review the plan.'))`);
    assert.equal(await chat.page.locator('textarea.input').inputValue(), '');
  });

  it('a reopened session shows the buttons its last answer showed, and they hand the chat over as live ones do', async () => {
    // The host sends them with the page only while they can be taken (ChatHandoffs.page).
    await chat.post({ type: 'session', session: { ...sessionPage('s2', 3), handoffs: HANDOFFS } });
    await chat.until(`document.body.dataset.sessionKey === 's2'`);
    const row = chat.page.locator('.messages > .handoffs');
    assert.deepEqual((await row.locator('vscode-button').allInnerTexts()).map((t) => t.trim()), ['Start Implementation', 'Review']);
    assert.equal(await chat.js(`document.querySelector('.messages').lastElementChild.classList.contains('handoffs')`), true, 'under the last answer');
    const n = (await chat.posted()).length;
    await row.locator('vscode-button', { hasText: 'Start Implementation' }).click();
    assert.deepEqual(await chat.waitPosted('handoff', undefined, n), { type: 'handoff', agent: 'impl', label: 'Start Implementation' });
    assert.equal(await row.locator('vscode-button[disabled]').count(), 2);
    // Another session without buttons: none are left from the one before.
    await chat.post({ type: 'session', session: sessionPage('s1', 3) });
    await chat.until(`document.body.dataset.sessionKey === 's1'`);
    assert.equal(await chat.page.locator('.handoffs').count(), 0);
  });

  it('the header names the agent that has the chat after a handoff: on opening, live, and no more once it is back', async () => {
    const handed = chat.page.locator('header.bar .handed');
    assert.equal(await handed.isHidden(), true, 'the chat\'s own agent: nothing said');
    await chat.post({ type: 'handed', key: 's1', to: { agent: 'impl', name: 'Implementer' } });
    await chat.until(`!document.querySelector('header.bar .handed').hidden`);
    assert.equal(await handed.textContent(), 'Agent: Implementer (handed over)');
    // A word about another session leaves this one's header alone.
    await chat.post({ type: 'handed', key: 's2' });
    await chat.post({ type: 'handed', key: 's1', to: { agent: 'rev', name: '<b>Reviewer</b>' } });
    await chat.until(`document.querySelector('header.bar .handed').textContent.includes('Reviewer')`);
    assert.equal(await handed.textContent(), 'Agent: <b>Reviewer</b> (handed over)', 'shown as text');
    await chat.post({ type: 'handed', key: 's1' });
    await chat.until(`document.querySelector('header.bar .handed').hidden`);
    // Reopened: the page says who has it; a session with its own agent says nothing.
    await chat.post({ type: 'session', session: { ...sessionPage('s2', 2), handedTo: { agent: 'impl', name: 'Implementer' } } });
    await chat.until(`!document.querySelector('header.bar .handed').hidden`);
    assert.equal(await handed.textContent(), 'Agent: Implementer (handed over)');
    await chat.post({ type: 'session', session: sessionPage('s1', 2) });
    await chat.until(`document.querySelector('header.bar .handed').hidden`);
    assert.deepEqual(await chat.problems(), []);
  });
});
