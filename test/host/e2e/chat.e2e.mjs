// A person chats in the browser: the Chat view, a message typed into the webview and sent with
// Enter; a scripted model behind a loopback Chat Completions server (the real SDK in the extension)
// reads a file, proposes an edit — accepted with the diff editor's Accept button — runs a command,
// and answers; the answer is read back from the webview. Screenshots are kept.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const { startOpenAiChatServer } = require(path.join(ROOT, 'out', 'test', 'support', 'openai-chat-server.js'));
const { reply, text, toolCall } = require(path.join(ROOT, 'out', 'test', 'support', 'model-script.js'));
import { chatWithModel } from './chat-with-model.mjs';

function model(req) {
  const results = req.body.messages.filter((m) => m.role === 'tool').length;
  if (results === 0) return reply(text('Let me look.'), toolCall('read_file', { path: 'e2e-chat-notes.txt' }));
  if (results === 1) return reply(toolCall('write_file', { path: 'e2e-chat-out.txt', content: 'from the browser chat\n' }));
  if (results === 2) return reply(toolCall('exec', { command: 'cat e2e-chat-out.txt' }));
  return reply(text('Finished: the notes mention **heron**, and the file is written.'));
}

export default async function ({ page, helpers, log, workspace, userDataDir }) {
  fs.writeFileSync(path.join(workspace, 'e2e-chat-notes.txt'), 'Today: heron.\n');
  const server = await startOpenAiChatServer(model, { models: ['e2e-model'] });
  let restore = () => {};
  try {
    const opened = await chatWithModel({ page, helpers, userDataDir }, server.url, '"pincer.exec.host": "process",');
    restore = opened.restore;
    const { chat } = opened;
    // The four requests the model server counts below show the pick of the model took.
    const input = chat.locator('textarea.input');
    await input.click();
    await input.fill('Which bird do the notes mention? Then write e2e-chat-out.txt.');
    await helpers.screenshot('e2e-chat-typed');
    await input.press('Enter');
    // The proposal opens in the diff editor; the person accepts it there.
    await page.locator('.tabs-container .tab', { hasText: 'e2e-chat-out.txt' }).first().waitFor();
    assert.equal(fs.existsSync(path.join(workspace, 'e2e-chat-out.txt')), false, 'nothing written before the review');
    await page.locator('.editor-actions .action-label[aria-label^="Accept Change"]').first().click();
    const answer = chat.locator('.transcript', { hasText: 'Finished: the notes mention heron' });
    await answer.waitFor();
    assert.equal(fs.readFileSync(path.join(workspace, 'e2e-chat-out.txt'), 'utf8'), 'from the browser chat\n');
    const transcript = await chat.locator('.transcript').innerText();
    log(`transcript: ${transcript.replace(/\s+/g, ' ').slice(0, 400)}`);
    assert.match(transcript, /read_file/);
    assert.match(transcript, /exec/);
    assert.equal(server.requests.length, 4, 'four model requests: read, write, exec, answer');
    await helpers.screenshot('e2e-chat-answer');
  } finally {
    restore();
    await server.close();
  }
}
