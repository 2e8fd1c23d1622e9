// Child agents' cards in the chat webview (real Chromium, the built bundle under the page's CSP): a
// card appears in its parent's turn, is updated in place (its open state kept), Stop on it posts
// subagent-stop for that child only, Open transcript posts subagent-open, a finished card has no Stop,
// and a stored session shows the card again. A card for a turn of another session is not drawn.
import assert from 'node:assert/strict';
import type { SubagentCardView } from '../../../src/core/chat/chat-protocol';
import { initMessage, page as sessionPage } from './chat-fixtures';
import { chatPerTest, chatSuite, type ChatPage } from './chat-page-driver';

const card = (over: Partial<SubagentCardView> = {}): SubagentCardView => ({
  id: 'sa-0000000a', label: 'alpha', agentId: 'default', task: 'Check the <b>build</b>', status: 'running', depth: 1,
  usage: { input: 1200, output: 30, cached: 0 }, durationMs: 2500, tools: [{ name: 'exec', args: '{"command":"make"}', status: 'running' }], ...over,
});

chatSuite('chat webview: subagent cards', ({ browser, url }) => {
  const current = chatPerTest(browser, url, () => initMessage(sessionPage('s1', 2)));
  let chat: ChatPage;
  beforeEach(() => (chat = current()));

  it('a child\'s card in its turn: live tool calls, tokens, time; updated in place; Stop and Open post for that child', async () => {
    await chat.post({ type: 'assistant-start', turnId: 't1', sessionKey: 's1' });
    await chat.post({ type: 'subagent', turnId: 't1', child: card() });
    await chat.post({ type: 'subagent', turnId: 't1', child: card({ id: 'sa-0000000b', label: undefined, task: 'Second', tools: [] }) });
    const a = chat.page.locator('[data-turn-id="t1"] [data-subagent-id="sa-0000000a"]');
    assert.match(await a.locator('summary').innerText(), /alpha.*Check the <b>build<\/b>.*running · 1,200 in · 30 out · 2\.5 s/s);
    assert.equal(await chat.page.locator('[data-turn-id="t1"] b').count(), 0, 'the task is text, never markup');
    await a.locator('summary').click();
    assert.match(await a.locator('.subagent-tools').innerText(), /exec.*make/);
    await chat.js('document.querySelector("[data-subagent-id=sa-0000000a]").dataset.mark = "same"');
    await chat.post({ type: 'subagent', turnId: 't1', child: card({ usage: { input: 2400, output: 60, cached: 0 }, durationMs: 4000, tools: [{ name: 'exec', args: '{"command":"make"}', status: 'ok' }] }) });
    assert.equal(await chat.page.locator('[data-subagent-id="sa-0000000a"][data-mark=same][open]').count(), 1, 'updated in place, still open');
    assert.match(await a.locator('summary').innerText(), /2,400 in · 60 out · 4\.0 s/);
    const n = (await chat.posted()).length;
    await chat.page.locator('[data-subagent-id="sa-0000000b"] vscode-toolbar-button[data-action=subagent-stop]').click();
    const stop = await chat.waitPosted('subagent-stop', undefined, n);
    assert.deepEqual(stop, { type: 'subagent-stop', id: 'sa-0000000b' });
    assert.equal(await chat.page.locator('[data-subagent-id="sa-0000000b"][open]').count(), 0, 'Stop does not toggle the card');
    await a.locator('vscode-button[data-action=subagent-open]').click();
    assert.deepEqual(await chat.waitPosted('subagent-open', undefined, n), { type: 'subagent-open', id: 'sa-0000000a' });
    await chat.post({ type: 'subagent', turnId: 't1', child: card({ status: 'done', result: 'Build is green.', tools: [] }) });
    assert.equal(await a.locator('vscode-toolbar-button[data-action=subagent-stop]').count(), 0, 'no Stop once it finished');
    assert.equal(await a.locator('.tool-result').textContent(), 'Build is green.');
    assert.equal(await chat.page.locator('[data-subagent-id]').count(), 2);
  });

  it('a stored session shows the card with its result; a card for another session\'s turn is not drawn', async () => {
    const p = sessionPage('s2', 2);
    p.messages.push({ role: 'subagent', id: 'm2:k0', child: card({ status: 'interrupted', result: 'Interrupted: the window closed.', tools: [] }) });
    await chat.post({ type: 'session', session: p });
    const c = chat.page.locator('.messages > [data-id="m2:k0"] [data-subagent-id="sa-0000000a"]');
    assert.match(await c.locator('summary').innerText(), /alpha.*interrupted/s);
    assert.equal(await c.locator('vscode-toolbar-button[data-action=subagent-stop]').count(), 0);
    await chat.post({ type: 'assistant-start', turnId: 't9', sessionKey: 'elsewhere' });
    await chat.post({ type: 'subagent', turnId: 't9', child: card({ id: 'sa-0000000c' }) });
    assert.equal(await chat.page.locator('[data-subagent-id="sa-0000000c"]').count(), 0);
  });
});
