// What a person does before chatting with a model server of their own: the base URL (a user-only
// setting) typed into VS Code's settings editor and saved with Ctrl+S — written to disk from outside,
// the file reached the extension only through VS Code's file watcher, which here never reported it —
// then the Chat view opened and the server's model picked. Not an e2e script itself (no .e2e.mjs).
import fs from 'node:fs';
import path from 'node:path';

/**
 * Sets `pincer.providers.openai.baseUrl` to `serverUrl` plus `extraSettings` (JSON members, each
 * followed by a comma), opens the chat and picks `model`. Returns the chat's frame and `restore`,
 * which puts the user settings back as they were.
 */
export async function chatWithModel({ page, helpers, userDataDir }, serverUrl, extraSettings = '', model = 'e2e-model') {
  const settingsFile = path.join(userDataDir, 'User', 'settings.json');
  const before = fs.readFileSync(settingsFile, 'utf8');
  const restore = () => fs.writeFileSync(settingsFile, before);
  try {
    await helpers.runCommand('Preferences: Open User Settings (JSON)');
    await page.locator('.tabs-container .tab.active', { hasText: 'settings.json' }).waitFor();
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    // The entries right after the opening brace, as one line (no Enter: nothing is auto-indented).
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('End');
    await page.keyboard.insertText(`"pincer.providers.openai.baseUrl": "${serverUrl}", ${extraSettings}`);
    await page.keyboard.press('Control+S');
    await helpers.until('VS Code to save the settings file', () => fs.readFileSync(settingsFile, 'utf8').includes(serverUrl));
    await helpers.runCommand('View: Close Editor'); // else the chat would attach the open settings.json
    await helpers.openActivity('Pincer');
    const chat = await helpers.webviewFrame('textarea.input');
    // The event this needs: the extension took the new base URL and the webview listed that server's
    // models. However long that takes, the picker shows the model then. The person picks it (the test
    // profile also has a VS Code LM model, which would come first).
    await chat.locator('vscode-option', { hasText: model }).first().waitFor({ state: 'attached' });
    await chat.locator('vscode-single-select[label=Model]').click();
    await chat.locator('vscode-single-select[label=Model] [role=option]', { hasText: model }).first().click();
    return { chat, restore };
  } catch (e) {
    restore();
    throw e;
  }
}
