// A window reloaded while a subagent runs: a person's chat starts a background child (the loopback
// model holds the child's answer open, so it is still running), the browser page is reloaded — a new
// window and extension host — and the Subagents view shows the child as interrupted (resumable, not
// re-run), under the parent's session, with its transcript kept; Resume on its row continues it
// from that transcript.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const { startOpenAiChatServer } = require(path.join(ROOT, 'out', 'test', 'support', 'openai-chat-server.js'));
const { reply, text, toolCall } = require(path.join(ROOT, 'out', 'test', 'support', 'model-script.js'));
import { chatWithModel } from './chat-with-model.mjs';

const isChild = (req) => String(req.body.messages[0]?.content ?? '').includes('You are a subagent');

function model(req) {
  if (isChild(req)) return { parts: [text('Reading every file, this takes long')], holdAfter: 2 };
  // Only this turn's results count: the chat may reopen a session an earlier e2e script left with tool results.
  const messages = req.body.messages;
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const results = messages.slice(lastUser + 1).filter((m) => m.role === 'tool').length;
  if (results === 0) return reply(toolCall('spawn', { action: 'spawn', task: 'Task D: read every file', label: 'delta' }));
  return reply(text('Started delta; it runs in the background.'));
}

export default async function ({ page, helpers, log, userDataDir }) {
  const server = await startOpenAiChatServer(model, { models: ['e2e-model'] });
  let restore = () => {};
  try {
    const opened = await chatWithModel({ page, helpers, userDataDir }, server.url, '"pincer.subagents.askBeforeSpawn": "never",');
    restore = opened.restore;
    const { chat } = opened;
    // A chat of its own, as a person starts one: the window reopens the last chat, which an earlier
    // script may have left in this workspace (its title would head the child's group otherwise).
    await helpers.runCommand('Pincer: New Chat');
    await chat.locator('.transcript', { hasText: 'Which bird' }).waitFor({ state: 'detached' });
    const input = chat.locator('textarea.input');
    await input.click();
    await input.fill('Start a background subagent to read every file.');
    await input.press('Enter');
    await chat.locator('.transcript', { hasText: 'Started delta' }).waitFor();
    await helpers.until('the child asking the model', () => server.requests.some((body) => isChild({ body })));
    await chat.locator('.transcript', { hasText: 'running' }).waitFor();
    await helpers.screenshot('e2e-subagent-before-reload');

    // The reload: a new window and extension host over the same workspace.
    await page.reload();
    await page.locator('.monaco-workbench').waitFor();
    // The sidebar may come back as it was (Pincer open): clicking Pincer then would close it, so it
    // is clicked only while another container is shown. The Subagents view sits below the chat,
    // collapsed at first: the person opens it.
    const header = page.locator('.pane-header', { hasText: 'Subagents' }).first();
    const pincer = page.locator('.activitybar .action-label[aria-label^="Pincer"]').first();
    const pincerShown = page.locator('.activitybar .action-item.checked .action-label[aria-label^="Pincer"]');
    await helpers.until('the Pincer sidebar after the reload', async () => {
      if (await header.isVisible()) return true;
      if ((await pincer.isVisible()) && !(await pincerShown.count())) await pincer.click();
      return false;
    });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    const row = page.locator('.monaco-list-row', { hasText: 'delta' }).filter({ hasText: 'interrupted' }).first();
    await row.waitFor();
    log(`row after reload: ${(await row.innerText()).replace(/\s+/g, ' ')}`);
    // Nothing lost: the parent session is still there (its title heads the child's group), and the
    // child's transcript — opened from its row — still has its task and says how it stopped.
    await page.locator('.monaco-list-row', { hasText: 'Start a background subagent' }).first().waitFor();
    await row.click();
    const doc = page.locator('.editor-instance .view-lines', { hasText: 'Task D: read every file' }).first();
    await doc.waitFor();
    assert.match(await doc.innerText(), /interrupted/);
    await helpers.screenshot('e2e-subagent-after-reload');
    const childRequests = () => server.requests.filter((body) => isChild({ body }));
    assert.equal(childRequests().length, 1, 'the interrupted child was not re-run by the reload');

    // Resume from the row: the child asks the model again with its stored transcript (its task
    // first) and the instruction to continue, and its row says running.
    await row.hover();
    await row.locator('.action-label[aria-label="Resume Subagent"]').click();
    const resumed = await helpers.until('the resumed child asking the model', () => childRequests()[1]);
    const users = resumed.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
    assert.match(users[0] ?? '', /^Task D: read every file/);
    assert.match(users.at(-1) ?? '', /You were stopped before you finished/);
    await page.locator('.monaco-list-row', { hasText: 'delta' }).filter({ hasText: 'running' }).first().waitFor();
    await helpers.screenshot('e2e-subagent-resumed');
  } finally {
    restore();
    await server.close();
  }
}
