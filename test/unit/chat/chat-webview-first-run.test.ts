// The chat webview in real Chromium for a new person and a reloaded window: the first-run card when
// no model exists (its buttons, the message back in the input, no token footer), highlighted code
// loaded on first need (and still only text), the transcript of a reload with its settled cards,
// footers and tool durations, one scrolling area however large a tool card is, whole model names.
import assert from 'node:assert/strict';
import type { ChatMessage } from '../../../src/core/chat/chat-protocol';
import { initMessage, page as sessionPage } from './chat-fixtures';
import { chatPerTest, chatSuite, type ChatPage } from './chat-page-driver';

chatSuite('chat webview: first run and reloads', ({ browser, url }) => {
  const current = chatPerTest(browser, url, () => initMessage(sessionPage('s1', 3)));
  let chat: ChatPage;
  beforeEach(() => (chat = current()));

  it('no model: the setup card names the local server found, its buttons post setup-action, the message is back in the input', async () => {
    const input = chat.page.locator('textarea.input');
    await input.fill('What does this repo do?');
    await input.press('Enter');
    const n = (await chat.posted()).length;
    await chat.post({ type: 'setup', servers: [{ name: 'Ollama', baseUrl: 'http://localhost:11434/v1', models: 2 }] });
    const card = chat.page.locator('.prompt-card.setup');
    assert.match(await card.innerText(), /needs a model[\s\S]*Ollama answers at http:\/\/localhost:11434\/v1 with 2 models/);
    assert.equal(await input.inputValue(), 'What does this repo do?', 'the unsent message is back');
    assert.equal(await chat.page.locator('.msg.user', { hasText: 'What does this repo do?' }).count(), 0, 'not shown as sent');
    assert.equal(await chat.page.locator('.turn-footer').count(), 0, 'no token footer for a turn that never ran');
    assert.equal(await chat.page.locator('vscode-button[data-action=send]').isVisible(), true, 'not waiting for a turn');
    await card.locator('vscode-button', { hasText: 'Connect to Ollama (localhost:11434)' }).click();
    assert.deepEqual(await chat.waitPosted('setup-action', undefined, n), { type: 'setup-action', action: 'local' });
    await card.locator('vscode-button', { hasText: "Use VS Code's Models" }).click();
    assert.deepEqual(await chat.waitPosted('setup-action', (m) => m.action === 'vscode-lm', n), { type: 'setup-action', action: 'vscode-lm' });
    await card.locator('vscode-button', { hasText: 'Set an API Key' }).click();
    assert.deepEqual(await chat.waitPosted('setup-action', (m) => m.action === 'api-key', n), { type: 'setup-action', action: 'api-key' });

    await chat.post({ type: 'setup', servers: [] });
    assert.equal(await chat.page.locator('.prompt-card.setup').count(), 1, 'one card at a time');
    assert.equal(await chat.page.locator('.prompt-card.setup vscode-button', { hasText: 'Connect to Ollama / LM Studio' }).count(), 1);
  });

  it('a turn that failed before reaching a model ends without a token line', async () => {
    await chat.post({ type: 'assistant-start', turnId: 'f1', sessionKey: 's1' });
    await chat.post({ type: 'turn-end', turnId: 'f1', stopReason: 'error', message: 'The endpoint refused the connection.' });
    const footer = await chat.page.locator('[data-turn-id=f1] .turn-footer').innerText();
    assert.match(footer, /The model failed\. The endpoint refused the connection\./);
    assert.doesNotMatch(footer, / in · /);
  });

  it('code is highlighted once the lazily loaded highlighter arrives, and stays text', async () => {
    const code = 'const x: number = 42; // <img src=x onerror="window.__pwned=1">\nfunction f() { return "s"; }';
    await chat.post({ type: 'session', session: { key: 's1', title: 'Code', hasOlder: false, messages: [
      { role: 'assistant', id: 'a1', text: `\`\`\`ts\n${code}\n\`\`\`\n\n\`\`\`nosuchlang\nplain <b>text</b>\n\`\`\`` },
    ] } });
    await chat.until('document.querySelector(".code-block[data-lang=ts] code.hljs .hljs-keyword")');
    const ts = chat.page.locator('.code-block[data-lang=ts] code');
    assert.equal(await ts.textContent(), code, 'the same text, only coloured');
    assert.ok(await ts.locator('.hljs-string').count() >= 1);
    assert.equal(await ts.locator('img, script, b').count(), 0);
    assert.equal(await chat.js('window.__pwned === undefined'), true);
    assert.equal(await chat.js('[...document.scripts].filter((s) => s.src.endsWith("/chat-highlight.js")).length'), 1, 'loaded once, as a script of its own');
    assert.equal(await chat.page.locator('.code-block[data-lang=nosuchlang] code').textContent(), 'plain <b>text</b>');
    assert.equal(await chat.page.locator('.code-block[data-lang=nosuchlang] code span').count(), 0);
  });

  it('a reloaded transcript shows settled approvals and reviews, turn footers and tool durations', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', id: 'm1', text: 'Run the tests' },
      { role: 'tool', id: 'm2:t0', call: { callId: 'c1', name: 'exec', args: '{"command":"npm test"}', status: 'denied', durationMs: 1500, result: 'Denied by the person.' } },
      { role: 'approval', id: 'm2:k0', approval: { command: 'npm test', cwd: '/ws', host: 'terminal', reason: 'Runs package scripts.', answer: 'deny', note: 'not now' } },
      { role: 'review', id: 'm2:k1', review: { path: 'src/app.ts', summary: 'change by edit', added: 3, removed: 1, outcome: 'accepted-with-changes' } },
      { role: 'assistant', id: 'm3', text: 'I did not run them.' },
      { role: 'turn-end', id: 'm3:k0', end: { stopReason: 'end', usage: { input: 1200, output: 34, cached: 0 }, durationMs: 2400 } },
    ];
    await chat.post({ type: 'session', session: { key: 's1', title: 'Reloaded', hasOlder: false, messages } });
    const tool = chat.page.locator('[data-call-id=c1]');
    assert.match(await tool.locator('.tool-meta').innerText(), /denied · 1\.5 s/);
    const approval = chat.page.locator('.msg.mark .prompt-card.approval');
    assert.match(await approval.innerText(), /npm test[\s\S]*in \/ws · terminal[\s\S]*Denied — not now/);
    assert.equal(await approval.locator('vscode-button').count(), 0, 'a settled card has no buttons');
    assert.match(await chat.page.locator('.msg.mark .prompt-card.review').innerText(), /src\/app\.ts[\s\S]*\+3[\s\S]*Accepted with your changes/);
    assert.equal(await chat.page.locator('.msg.mark .turn-footer').innerText(), '1,200 in · 34 out · 2.4 s');
  });

  it('an opened tool card with a long result scrolls inside the transcript; the page itself never scrolls', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(300)}`).join('\n');
    await chat.post({ type: 'session', session: { key: 's1', title: 'Big', hasOlder: false, messages: [
      { role: 'tool', id: 'm1:t0', call: { callId: 'big', name: 'read_file', args: `{"path":"${'a/'.repeat(200)}f.ts"}`, status: 'ok', result: long.slice(0, 20_000) } },
    ] } });
    await chat.page.locator('[data-call-id=big] summary').click();
    await chat.page.locator('[data-call-id=big] .tool-result').waitFor();
    const m = await chat.js<{ doc: number; docClient: number; body: number; bodyClient: number; wide: number; wideClient: number }>(`({
      doc: document.documentElement.scrollHeight, docClient: document.documentElement.clientHeight,
      body: document.body.scrollWidth, bodyClient: document.body.clientWidth,
      wide: document.querySelector(".transcript").scrollWidth, wideClient: document.querySelector(".transcript").clientWidth })`);
    assert.ok(m.doc <= m.docClient, `the page does not scroll vertically (${m.doc} > ${m.docClient})`);
    assert.ok(m.body <= m.bodyClient, `nor sideways (${m.body} > ${m.bodyClient})`);
    assert.ok(m.wide <= m.wideClient, 'the transcript has no sideways scrollbar either');
    assert.equal(await chat.js('getComputedStyle(document.body).overflow'), 'hidden');
  });

  it('the model picker spans the view and names the whole model in its tooltip', async () => {
    const name = 'anthropic/claude-3.7-sonnet:thinking-extended-context-preview-2026';
    await chat.post({ type: 'pickers', models: [{ id: 'openai/x', name, source: 'OpenAI-compatible (https://openrouter.ai/api/v1)' }], agents: [{ id: 'default', name: 'Default' }], model: 'openai/x' });
    const picker = chat.page.locator('vscode-single-select[label=Model]');
    assert.equal(await picker.getAttribute('title'), `Model: ${name} — OpenAI-compatible (https://openrouter.ai/api/v1)`);
    const widths = await chat.js<{ picker: number; bar: number }>('({ picker: document.querySelector("vscode-single-select[label=Model]").getBoundingClientRect().width, bar: document.querySelector(".pickers").clientWidth })');
    assert.ok(widths.picker >= widths.bar - 20, `the picker takes the row (${widths.picker} of ${widths.bar})`);
  });
});
