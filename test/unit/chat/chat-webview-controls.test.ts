// The chat webview's controls in real Chromium: approval and review cards, Stop (button and Escape),
// the input (Enter sends, Shift+Enter is a new line, @file completion), the pickers, the session
// list (switch, rename, delete, older pages) and the state kept across a reload of the page.
import assert from 'node:assert/strict';
import { chatMessages, initMessage, page as sessionPage } from './chat-fixtures';
import { chatPerTest, chatSuite, type ChatPage } from './chat-page-driver';

const APPROVAL = {
  type: 'approval', id: 'ap-1', turnId: 't1', command: 'npm test', cwd: '/ws', host: 'terminal', reason: 'Runs scripts from package.json.',
  parts: [{ text: 'npm test', decision: 'ask', reason: 'runs package scripts', group: 'package_install' }], alwaysOffered: true,
} as const;

chatSuite('chat webview: controls', ({ browser, url }) => {
  const current = chatPerTest(browser, url, () => initMessage(sessionPage('s1', 3)));
  let chat: ChatPage;
  const input = () => chat.page.locator('textarea.input');
  beforeEach(() => (chat = current()));

  it('approval card: the buttons post approve with the id; settled, it shows the answer', async () => {
    await chat.post({ type: 'assistant-start', turnId: 't1', sessionKey: 's1' });
    await chat.post(APPROVAL);
    const card = chat.page.locator('[data-approval-id="ap-1"]');
    assert.equal(await card.locator('.approval-command').textContent(), 'npm test');
    assert.match(await card.innerText(), /in \/ws · terminal[\s\S]*Runs scripts from package\.json/);
    assert.equal(await card.getAttribute('role'), 'group');
    const n = (await chat.posted()).length;
    await card.locator('vscode-button', { hasText: 'Always allow' }).click();
    assert.deepEqual(await chat.waitPosted('approve', undefined, n), { type: 'approve', id: 'ap-1', answer: 'always' });
    await chat.post({ type: 'approval-settled', id: 'ap-1', answer: 'always' });
    assert.equal(await card.locator('.prompt-outcome').textContent(), 'Always allowed');
    assert.equal(await card.locator('vscode-button').count(), 0);

    await chat.post({ ...APPROVAL, id: 'ap-2', alwaysOffered: false, alwaysUnavailable: 'the command is built at run time' });
    const second = chat.page.locator('[data-approval-id="ap-2"]');
    assert.equal(await second.locator('vscode-button', { hasText: 'Always allow' }).count(), 0);
    assert.match(await second.innerText(), /not offered: the command is built at run time/);
    await second.locator('vscode-button', { hasText: 'Deny' }).focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await chat.waitPosted('approve', (m) => m.id === 'ap-2', n), { type: 'approve', id: 'ap-2', answer: 'deny' });
    await chat.post({ ...APPROVAL, id: 'ap-3' });
    await chat.page.locator('[data-approval-id="ap-3"] vscode-button', { hasText: 'Run once' }).click();
    assert.deepEqual(await chat.waitPosted('approve', (m) => m.id === 'ap-3', n), { type: 'approve', id: 'ap-3', answer: 'once' });
  });

  it('review card: accept, reject and open diff post review with the id', async () => {
    await chat.post({ type: 'assistant-start', turnId: 't1', sessionKey: 's1' });
    await chat.post({ type: 'review', id: 'rv-1', turnId: 't1', path: '/ws/src/app.ts', summary: 'Rename x to y', added: 3, removed: 1 });
    const card = chat.page.locator('[data-review-id="rv-1"]');
    assert.match(await card.innerText(), /\/ws\/src\/app\.ts\s+\+3\s+−1\s+Rename x to y/);
    const n = (await chat.posted()).length;
    await card.locator('vscode-button', { hasText: 'Open diff' }).click();
    assert.deepEqual(await chat.waitPosted('review', undefined, n), { type: 'review', id: 'rv-1', action: 'open' });
    await card.locator('vscode-button', { hasText: 'Accept' }).click();
    assert.deepEqual(await chat.waitPosted('review', (m) => m.action === 'accept', n), { type: 'review', id: 'rv-1', action: 'accept' });
    await chat.post({ type: 'review-settled', id: 'rv-1', outcome: 'accepted-with-changes' });
    assert.equal(await card.locator('.prompt-outcome').textContent(), 'Accepted with your changes');
  });

  it('a prompt of a turn in another session waits above the input and goes when settled', async () => {
    await chat.post({ type: 'assistant-start', turnId: 'other', sessionKey: 's2' });
    await chat.post({ ...APPROVAL, id: 'ap-9', turnId: 'other' });
    assert.equal(await chat.page.locator('.pending [data-approval-id="ap-9"]').count(), 1);
    assert.equal(await chat.page.locator('.transcript [data-approval-id="ap-9"]').count(), 0);
    await chat.post({ type: 'text-delta', turnId: 'other', text: 'not here' });
    assert.doesNotMatch(await chat.page.locator('.transcript').innerText(), /not here/);
    await chat.post({ type: 'approval-settled', id: 'ap-9', answer: 'deny' });
    assert.equal(await chat.page.locator('.pending').isHidden(), true);
  });

  it('Enter sends (with the chips), Shift+Enter is a new line, an empty input sends nothing', async () => {
    const n = (await chat.posted()).length;
    await input().focus();
    await chat.page.keyboard.press('Enter');
    await input().pressSequentially('first line');
    await chat.page.keyboard.press('Shift+Enter');
    await input().pressSequentially('second line');
    await chat.page.keyboard.press('Enter');
    const sent = await chat.waitPosted('send', undefined, n);
    assert.deepEqual(sent, { type: 'send', text: 'first line\nsecond line', chips: [{ kind: 'file', path: '/ws/src/app.ts', origin: 'editor' }] });
    assert.equal((await chat.posted()).slice(n).filter((m) => m.type === 'send').length, 1);
    assert.equal(await input().inputValue(), '');
    assert.equal(await chat.page.locator('.messages > .msg.user').last().locator('.user-text').textContent(), 'first line\nsecond line');
  });

  it('an MCP resource the host attaches is one chip, however often it comes, and goes with the next message', async () => {
    const chip = { kind: 'resource', server: 'docs', path: 'docs://guide/intro.md', text: 'The guide.', origin: 'user' } as const;
    await chat.post({ type: 'attach', chips: [chip] });
    await chat.post({ type: 'attach', chips: [chip] });
    assert.match(await chat.page.locator('.chips').innerText(), /docs: intro\.md/);
    assert.equal(await chat.page.locator('.chips .chip-user').count(), 1);
    const n = (await chat.posted()).length;
    await input().fill('Summarise it');
    await input().press('Enter');
    const sent = await chat.waitPosted('send', undefined, n);
    assert.deepEqual(sent.chips, [{ kind: 'file', path: '/ws/src/app.ts', origin: 'editor' }, chip]);
    assert.equal(await chat.page.locator('.chips .chip-user').count(), 0);
  });

  it('a message over the protocol\'s cap is not sent and not lost', async () => {
    const n = (await chat.posted()).length;
    const long = 'x'.repeat(200_001);
    await input().fill(long);
    await input().press('Enter');
    assert.match(await chat.page.locator('.error-bar').innerText(), /200,001 characters long/);
    assert.equal((await input().inputValue()).length, long.length);
    assert.equal((await chat.posted()).slice(n).some((m) => m.type === 'send'), false);
  });

  it('Stop: shown while a turn runs; the button and Escape post stop; Send comes back at turn end', async () => {
    await input().fill('Run the tests');
    await chat.page.keyboard.press('Enter');
    const stop = chat.page.locator('vscode-button[data-action=stop]');
    const send = chat.page.locator('vscode-button[data-action=send]');
    assert.equal(await stop.isVisible(), true, 'Stop shows as soon as the message is sent');
    await chat.post({ type: 'assistant-start', turnId: 't7', sessionKey: 's1' });
    await chat.post({ type: 'text-delta', turnId: 't7', text: 'Working on it' });
    let n = (await chat.posted()).length;
    await stop.click();
    await chat.waitPosted('stop', undefined, n);
    n = (await chat.posted()).length;
    await input().focus();
    await chat.page.keyboard.press('Escape');
    await chat.waitPosted('stop', undefined, n);
    await chat.post({ type: 'turn-end', turnId: 't7', usage: { input: 10, output: 2, cached: 0 }, stopReason: 'cancelled' });
    assert.equal(await stop.isVisible(), false);
    assert.equal(await send.isVisible(), true);
    assert.match(await chat.page.locator('[data-turn-id=t7] .turn-footer').innerText(), /Stopped\./);
  });

  it('an error before the turn starts ends the wait and shows an alert', async () => {
    await input().fill('Hello');
    await chat.page.keyboard.press('Enter');
    await chat.post({ type: 'error', message: 'No model is configured: run "Pincer: Select Model…".' });
    assert.equal(await chat.page.locator('.error-bar[role=alert]').innerText(), 'No model is configured: run "Pincer: Select Model…".');
    assert.equal(await chat.page.locator('vscode-button[data-action=send]').isVisible(), true);
  });

  it('@file: the prefix is asked for, results are listed, the pick becomes a chip that is sent', async () => {
    const n = (await chat.posted()).length;
    await input().pressSequentially('look at @ap');
    assert.deepEqual(await chat.waitPosted('mention-query', (m) => m.prefix === 'ap', n), { type: 'mention-query', prefix: 'ap' });
    await chat.post({ type: 'mention-results', prefix: 'ap', items: [{ path: 'src/app.ts', label: 'app.ts', detail: 'src' }, { path: 'src/api.ts', label: 'api.ts', detail: 'src' }] });
    const list = chat.page.locator('#mentions[role=listbox]');
    assert.deepEqual(await list.locator('[role=option]').allTextContents(), ['app.ts src', 'api.ts src']);
    assert.equal(await input().getAttribute('aria-expanded'), 'true');
    await chat.page.keyboard.press('ArrowDown');
    assert.equal(await input().getAttribute('aria-activedescendant'), 'mention-1');
    await chat.page.keyboard.press('Enter');
    assert.equal(await list.isHidden(), true);
    assert.equal(await input().inputValue(), 'look at ');
    await input().pressSequentially('please');
    await chat.page.keyboard.press('Enter');
    const sent = await chat.waitPosted('send', undefined, n);
    assert.deepEqual(sent.chips.map((c) => c.path), ['/ws/src/app.ts', 'src/api.ts']);
    assert.equal(sent.text, 'look at please');
  });

  it('chips: the editor chip can be removed; `context` replaces it', async () => {
    await chat.page.locator('.chips vscode-toolbar-button[label="Remove app.ts"]').click();
    assert.equal(await chat.page.locator('.chips').isHidden(), true);
    await chat.post({ type: 'context', chips: [{ kind: 'selection', path: '/ws/src/b.ts', range: { startLine: 4, endLine: 9 }, text: 'x', origin: 'editor' }] });
    assert.match(await chat.page.locator('.chips').innerText(), /b\.ts:4-9\s*selection/);
  });

  it('pickers: choosing a model or an agent posts it', async () => {
    const n = (await chat.posted()).length;
    await chat.page.locator('vscode-single-select[label=Agent]').click();
    await chat.page.locator('vscode-single-select[label=Agent] [role=option]', { hasText: 'Reviewer' }).click();
    assert.deepEqual(await chat.waitPosted('pick-agent', undefined, n), { type: 'pick-agent', id: 'reviewer' });
    await chat.page.locator('vscode-single-select[label=Model] input').click();
    await chat.page.keyboard.type('Claude');
    await chat.page.keyboard.press('ArrowDown');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await chat.waitPosted('pick-model', undefined, n), { type: 'pick-model', id: 'claude-sonnet-4-5' });
  });

  it('sessions: switch, new, rename, delete', async () => {
    const toggle = chat.page.locator('vscode-toolbar-button[label=Sessions]');
    await toggle.click();
    const list = chat.page.locator('nav.sessions');
    assert.equal(await list.isVisible(), true);
    assert.match(await list.locator('[aria-current=true]').innerText(), /First session/);
    const n = (await chat.posted()).length;
    await list.locator('.session-open', { hasText: 'Second session' }).click();
    assert.deepEqual(await chat.waitPosted('switch-session', undefined, n), { type: 'switch-session', key: 's2' });
    await chat.post({ type: 'session', session: sessionPage('s2', 4, false, 'Second session') });
    assert.equal(await chat.page.locator('header .title').textContent(), 'Second session');
    assert.equal(await chat.page.locator('.messages > .msg').first().getAttribute('data-id'), 's2-0');
    assert.equal(await list.locator('[aria-current=true]').count(), 1);
    assert.match(await list.locator('[aria-current=true]').innerText(), /Second session/);

    // New Chat is the view's title-bar command (pincer.chat.new): the page has no second one.
    assert.equal(await chat.page.locator('vscode-toolbar-button[label="New chat"]').count(), 0);
    await list.locator('vscode-toolbar-button[label="Rename First session"]').click();
    const rename = list.locator('input.session-rename');
    await rename.fill('Renamed');
    await rename.press('Enter');
    assert.deepEqual(await chat.waitPosted('rename-session', undefined, n), { type: 'rename-session', key: 's1', title: 'Renamed' });
    await list.locator('vscode-toolbar-button[label="Delete Second session"]').click();
    assert.deepEqual(await chat.waitPosted('delete-session', undefined, n), { type: 'delete-session', key: 's2' });
  });

  it('older pages: scrolled to the top, the page asks for messages before the oldest and shows them', async () => {
    await chat.post({ type: 'session', session: { key: 'long', title: 'Long', hasOlder: true, messages: chatMessages(8, 'new-') } });
    const n = (await chat.posted()).length;
    await chat.js('document.querySelector(".transcript").scrollTop = 0');
    assert.deepEqual(await chat.waitPosted('load-older', undefined, n - 1), { type: 'load-older', key: 'long', before: 'new-0' });
    await chat.post({ type: 'older', key: 'long', messages: chatMessages(5, 'old-'), hasOlder: false });
    await chat.until('document.querySelector(".messages > .msg").dataset.id === "old-0"');
    assert.equal(await chat.page.locator('.messages > .msg').count(), 13);
  });

  it('state: the draft, the added chips and the session come back after the page is re-created', async () => {
    await input().pressSequentially('half-written @ap');
    await chat.post({ type: 'mention-results', prefix: 'ap', items: [{ path: 'src/app.ts' }] });
    await chat.page.keyboard.press('Enter');
    await input().pressSequentially('question');
    await chat.page.locator('vscode-toolbar-button[label=Sessions]').click();
    // The state is saved debounced: wait until what the reload should bring back is saved.
    await chat.until(`(() => { const s = window.__chat.state();
      return s && s.draft === 'half-written question' && s.sessionsOpen && JSON.stringify(s.chips).includes('app.ts'); })()`);
    // What VS Code does to a hidden view: the page is thrown away and loaded again; only setState survives.
    await chat.reload();
    assert.equal(await input().inputValue(), 'half-written question');
    await chat.post(initMessage(sessionPage('s1', 3)));
    assert.equal(await input().inputValue(), 'half-written question');
    assert.match(await chat.page.locator('.chips').innerText(), /app\.ts[\s\S]*app\.ts/);
    assert.equal(await chat.page.locator('nav.sessions').isVisible(), true);
    assert.equal(await chat.page.locator('header .title').textContent(), 'First session');
  });

  it('state: the scroll position in a long session comes back too', async () => {
    const long = sessionPage('s1', 300);
    await chat.post(initMessage(long));
    const where = `(() => { const t = document.querySelector(".transcript"), top = t.getBoundingClientRect().top;
      const m = [...document.querySelectorAll(".messages > .msg")].find((e) => e.getBoundingClientRect().bottom > top);
      return { id: m.dataset.id, offset: Math.round(m.getBoundingClientRect().top - top) }; })()`;
    await chat.js('document.querySelector(".transcript").scrollTop -= 2500');
    // Chunks render on the way up and the state is saved debounced: wait until it holds this position.
    await chat.until(`(() => { const s = window.__chat.state(), w = ${where};
      return s && s.position && s.position.id === w.id && Math.round(s.position.offset) === w.offset; })()`);
    const before = await chat.js<{ id: string; offset: number }>(where);
    assert.notEqual(before.id, 's1-299');
    await chat.reload();
    await chat.post(initMessage(long));
    const after = await chat.js<{ id: string; offset: number }>(where);
    assert.equal(after.id, before.id);
    assert.ok(Math.abs(after.offset - before.offset) <= 3, `${JSON.stringify(before)} → ${JSON.stringify(after)}`);
  });
});
