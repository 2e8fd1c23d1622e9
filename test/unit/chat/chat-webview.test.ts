// The chat webview in real Chromium (Debian's, headless), built from the sources and served under
// the page's own CSP: streaming markdown, code-block actions, model text that tries to become markup
// or script, links, tool cards, a 2,000-message session. The controls (approvals, reviews, Stop,
// the input, sessions, state) are in chat-webview-controls.test.ts.
import assert from 'node:assert/strict';
import { initMessage, page as sessionPage } from './chat-fixtures';
import { chatPerTest, chatSuite, type ChatPage } from './chat-page-driver';

const HOSTILE = [
  'Look: <img src=x onerror="window.__pwned=1"> and <script>window.__pwned=2</script>',
  '[click me](javascript:window.__pwned=3) <a href="javascript:window.__pwned=4">raw</a> <javascript:window.__pwned=5>',
  '![pixel](https://evil.example/pixel.png?secret=1) <iframe src="https://evil.example"></iframe> <style>body{display:none}</style>',
  '[ok](https://example.com/docs) and https://example.org/auto',
].join('\n\n');

chatSuite('chat webview: rendering', ({ browser, url }) => {
  const current = chatPerTest(browser, url, () => initMessage(sessionPage('s1', 6)));
  let chat: ChatPage;
  beforeEach(() => (chat = current()));

  it('renders init: session title, pickers, the editor chip, the messages', async () => {
    assert.equal(await chat.page.locator('header .title').textContent(), 'First session');
    assert.equal(await chat.page.locator('.messages > .msg').count(), 6);
    assert.match(await chat.page.locator('.chips').textContent() ?? '', /app\.ts\s*current file/);
    assert.equal(await chat.js('document.querySelector("vscode-single-select[label=Model]").value'), 'gpt-4.1');
  });

  it('streams text incrementally, keeping finished blocks as they are', async () => {
    await chat.post({ type: 'assistant-start', turnId: 't1', sessionKey: 's1' });
    const turn = chat.page.locator('[data-turn-id="t1"]');
    await chat.post({ type: 'text-delta', turnId: 't1', text: 'Hel' });
    assert.match(await turn.locator('.md').innerText(), /^Hel$/);
    await chat.post({ type: 'text-delta', turnId: 't1', text: 'lo **wor' });
    assert.match(await turn.locator('.md').innerText(), /^Hello \*\*wor$/);
    await chat.post({ type: 'text-delta', turnId: 't1', text: 'ld**\n\nSecond' });
    assert.equal(await turn.locator('.md strong').textContent(), 'world');
    // Mark the finished paragraph's node: it must survive the next deltas untouched.
    await chat.js('document.querySelector("[data-turn-id=t1] .md p").dataset.mark = "kept"');
    await chat.post({ type: 'text-delta', turnId: 't1', text: ' paragraph, growing' });
    await chat.post({ type: 'text-delta', turnId: 't1', text: ' more.' });
    assert.equal(await turn.locator('.md p[data-mark=kept]').textContent(), 'Hello world');
    assert.equal(await turn.locator('.md p').nth(1).textContent(), 'Second paragraph, growing more.');
    assert.equal(await turn.getAttribute('aria-busy'), 'true');
    await chat.post({ type: 'turn-end', turnId: 't1', usage: { input: 1200, output: 34, cached: 1000, costUsd: 0.0123 }, stopReason: 'end' });
    assert.equal(await turn.getAttribute('aria-busy'), 'false');
    assert.match(await turn.locator('.turn-footer').textContent() ?? '', /1,200 in · 34 out · 1,000 cached · \$0\.01/);
  });

  it('a split \\r\\n and deltas cut anywhere give the same result as one message', async () => {
    const text = 'Intro line\r\n\r\n```ts\r\nconst a = 1;\r\n```\r\n\r\n- one\r\n- two\r\n';
    await chat.post({ type: 'assistant-start', turnId: 't2', sessionKey: 's1' });
    for (let i = 0; i < text.length; i += 3) await chat.post({ type: 'text-delta', turnId: 't2', text: text.slice(i, i + 3) });
    await chat.post({ type: 'turn-end', turnId: 't2', usage: { input: 1, output: 1, cached: 0 }, stopReason: 'end' });
    const turn = chat.page.locator('[data-turn-id="t2"]');
    assert.equal(await turn.locator('pre code').textContent(), 'const a = 1;');
    assert.deepEqual(await turn.locator('li').allTextContents(), ['one', 'two']);
    assert.equal(await turn.locator('p').first().textContent(), 'Intro line');
  });

  it('code blocks: copy, insert at cursor and open in editor post the block\'s text and language', async () => {
    await chat.post({ type: 'assistant-start', turnId: 't3', sessionKey: 's1' });
    await chat.post({ type: 'text-delta', turnId: 't3', text: 'Try:\n\n```ts\nconst x: number = 1;\nconsole.log(x < 2 && "<b>");\n```\n' });
    await chat.post({ type: 'turn-end', turnId: 't3', usage: { input: 1, output: 1, cached: 0 }, stopReason: 'end' });
    const block = chat.page.locator('[data-turn-id="t3"] .code-block');
    assert.equal(await block.locator('.code-lang').textContent(), 'ts');
    const code = 'const x: number = 1;\nconsole.log(x < 2 && "<b>");';
    const n = (await chat.posted()).length;
    await block.locator('vscode-toolbar-button[label="Copy code"]').click();
    assert.deepEqual(await chat.waitPosted('copy-code', undefined, n), { type: 'copy-code', text: code });
    await block.locator('vscode-toolbar-button[label="Insert at cursor"]').click();
    assert.deepEqual(await chat.waitPosted('insert-code', undefined, n), { type: 'insert-code', text: code });
    await block.locator('vscode-toolbar-button[label="Open in editor"]').click();
    assert.deepEqual(await chat.waitPosted('open-code', undefined, n), { type: 'open-code', text: code, language: 'ts' });
    // Keyboard: the buttons are reachable with Tab and work with Enter.
    await block.locator('vscode-toolbar-button[label="Open in editor"]').focus();
    const before = (await chat.posted()).length;
    await chat.page.keyboard.press('Enter');
    await chat.waitPosted('open-code', undefined, before);
  });

  for (const via of ['streamed', 'history'] as const) {
    it(`model text with markup stays text (${via}): no element, no script, no javascript: link, no image load`, async () => {
      if (via === 'streamed') {
        await chat.post({ type: 'assistant-start', turnId: 't4', sessionKey: 's1' });
        for (const part of HOSTILE.match(/[\s\S]{1,7}/g) ?? []) await chat.post({ type: 'text-delta', turnId: 't4', text: part });
        await chat.post({ type: 'turn-end', turnId: 't4', usage: { input: 1, output: 1, cached: 0 }, stopReason: 'end' });
      } else {
        await chat.post({ type: 'session', session: { key: 'h', title: 'Hostile', hasOlder: false, messages: [{ role: 'user', id: 'u', text: HOSTILE }, { role: 'assistant', id: 'a', text: HOSTILE }] } });
      }
      const t = '.transcript';
      assert.equal(await chat.page.locator(`${t} img, ${t} script, ${t} iframe, ${t} style, ${t} [onerror], ${t} a[href]`).count(), 0);
      assert.equal(await chat.js('window.__pwned'), undefined);
      const text = await chat.page.locator(t).innerText();
      assert.match(text, /<img src=x onerror="window.__pwned=1">/);
      assert.match(text, /<script>window.__pwned=2<\/script>/);
      assert.match(text, /\[click me\]\(javascript:window.__pwned=3\)/, 'a javascript: link is shown as written, not as a link');
      const urls = await chat.page.locator(`${t} [data-url]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-url')));
      // The iframe's URL is linkified text: a link that opens through the host, like any other.
      assert.deepEqual(urls.sort(), ['https://evil.example/', 'https://evil.example/pixel.png?secret=1', 'https://example.com/docs', 'https://example.org/auto']);
      assert.equal(await chat.page.locator(`${t} .md-link`, { hasText: 'Image: pixel' }).count(), 1);
    });
  }

  it('links open through the host (click and Enter), the page never navigates', async () => {
    await chat.post({ type: 'session', session: { key: 'l', title: 'Links', hasOlder: false, messages: [{ role: 'assistant', id: 'a', text: 'See [the docs](https://example.com/docs "Docs").' }] } });
    const link = chat.page.locator('.md-link', { hasText: 'the docs' });
    assert.equal(await link.getAttribute('role'), 'link');
    const n = (await chat.posted()).length;
    await link.click();
    assert.deepEqual(await chat.waitPosted('open-link', undefined, n), { type: 'open-link', url: 'https://example.com/docs' });
    await link.focus();
    await chat.page.keyboard.press('Enter');
    await chat.waitPosted('open-link', undefined, n + 1);
    assert.equal(chat.page.url(), url());
  });

  it('tool cards: running, then done with duration and result in place; error and denied', async () => {
    await chat.post({ type: 'assistant-start', turnId: 't5', sessionKey: 's1' });
    await chat.post({ type: 'tool-call', turnId: 't5', call: { callId: 'c1', name: 'read_file', args: '{"path":"src/app.ts"}', status: 'running' } });
    const card = chat.page.locator('[data-call-id="c1"]');
    assert.match(await card.getAttribute('class') ?? '', /status-running/);
    await chat.js('document.querySelector("[data-call-id=c1]").dataset.mark = "same"');
    await chat.post({ type: 'tool-call', turnId: 't5', call: { callId: 'c1', name: 'read_file', args: '{"path":"src/app.ts"}', status: 'ok', durationMs: 42, result: '1\texport const app = 1;' } });
    assert.equal(await chat.page.locator('[data-call-id="c1"][data-mark=same]').count(), 1, 'the card is updated in place');
    assert.match(await card.getAttribute('class') ?? '', /status-ok/);
    assert.match(await card.locator('summary').innerText(), /read_file.*done · 42 ms/s);
    assert.equal(await card.getAttribute('open'), null, 'arguments start collapsed');
    await card.locator('summary').click();
    assert.equal(await card.locator('.tool-args').textContent(), '{"path":"src/app.ts"}');
    assert.equal(await card.locator('.tool-result').textContent(), '1\texport const app = 1;');
    await chat.post({ type: 'tool-call', turnId: 't5', call: { callId: 'c2', name: 'exec', args: '{"command":"make"}', status: 'error', durationMs: 1500, result: 'make: *** No rule' } });
    await chat.post({ type: 'tool-call', turnId: 't5', call: { callId: 'c3', name: 'write_file', args: '{}', status: 'denied' } });
    assert.match(await chat.page.locator('[data-call-id="c2"] summary').innerText(), /failed · 1\.5 s/);
    assert.match(await chat.page.locator('[data-call-id="c3"]').getAttribute('class') ?? '', /status-denied/);
    assert.equal(await chat.page.locator('[data-turn-id="t5"] .msg.tool').count(), 3);
  });

  it('ignores messages that break the protocol', async () => {
    const before = await chat.page.locator('.transcript').innerText();
    await chat.post({ type: 'text-delta', turnId: 't9', text: 5 } as Record<string, unknown>);
    // An own __proto__ key, as JSON.parse makes it (an object literal would set the prototype instead).
    await chat.js(`window.__chat.post(JSON.parse('{"type":"session","session":{"key":"x","title":"x","hasOlder":false,"messages":[]},"__proto__":{"polluted":1}}'))`);
    await chat.js('window.__chat.afterPaint()');
    await chat.post({ type: 'evil', html: '<img src=x onerror=alert(1)>' });
    assert.equal(await chat.page.locator('.transcript').innerText(), before);
    assert.equal(await chat.js('({}).polluted'), undefined);
  });

  // How fast it opens is the chat-open-2000 benchmark's business; here the point is what is rendered.
  it('a 2,000-message session opens without rendering every message', async () => {
    const runs: { rendered: number; painted: number; messagesInDom: number }[] = [];
    for (const key of ['big-a', 'big-b', 'big-a']) {
      runs.push(await chat.js(`window.__chat.measureOpen(${JSON.stringify({ type: 'session', session: sessionPage(key, 2000) })})`));
    }
    assert.ok(runs.every((r) => r.messagesInDom > 0 && r.messagesInDom <= 90), JSON.stringify(runs));
    // Scrolling up renders the next older chunk, above what is on screen.
    const shown = await chat.page.locator('.messages > .msg').count();
    const oldest = Number((await chat.page.locator('.messages > .msg').first().getAttribute('data-id'))?.split('-').pop());
    await chat.js('document.querySelector(".transcript").scrollTop = 0');
    await chat.until(`document.querySelectorAll(".messages > .msg").length > ${shown}`);
    assert.ok(Number((await chat.page.locator('.messages > .msg').first().getAttribute('data-id'))?.split('-').pop()) < oldest);
    assert.equal(await chat.page.locator('.messages > .msg').last().getAttribute('data-id'), 'big-a-1999');
    assert.ok(await chat.js<number>('document.querySelector(".transcript").scrollTop') > 0, 'the view stays where it was, not at the new top');
  });
});
