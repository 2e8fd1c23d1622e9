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
  // User settings, as a person sets them (the base URL is a user-only setting): in VS Code's settings
  // editor, saved with Ctrl+S. (Written to disk from outside, the file reached the extension only
  // through VS Code's file watcher, which here never reported it at all, however long one waited.)
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  const before = fs.readFileSync(settingsFile, 'utf8');
  try {
    await helpers.runCommand('Preferences: Open User Settings (JSON)');
    await page.locator('.tabs-container .tab.active', { hasText: 'settings.json' }).waitFor();
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    // Two entries right after the opening brace, as one line (no Enter: nothing is auto-indented).
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.insertText(`"pincer.providers.openai.baseUrl": "${server.url}", "pincer.exec.host": "process",`);
    await page.keyboard.press('Control+S');
    await helpers.until('VS Code to save the settings file', () => fs.readFileSync(settingsFile, 'utf8').includes(server.url));
    await helpers.runCommand('View: Close Editor'); // else the chat would attach the open settings.json
    await helpers.openActivity('Pincer');
    const chat = await helpers.webviewFrame('textarea.input');
    // The event this needs: the extension took the new base URL and the webview listed that server's
    // models. However long that takes, the picker shows the model then.
    await chat.locator('vscode-option', { hasText: 'e2e-model' }).first().waitFor({ state: 'attached' });
    // The person picks the model (the test profile also has a VS Code LM model, which would come first);
    // the four requests the model server counts below show the pick took.
    await chat.locator('vscode-single-select[label=Model]').click();
    await chat.locator('vscode-single-select[label=Model] [role=option]', { hasText: 'e2e-model' }).first().click();
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
    fs.writeFileSync(settingsFile, before);
    await server.close();
  }
}
