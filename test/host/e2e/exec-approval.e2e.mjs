// A person approves a command in the browser: Run Tool… → exec with a command that writes outside the
// workspace → the real modal dialog shows the command, where it runs and why it asks → Allow Once →
// the command runs. Then the same again, answered with Deny: nothing runs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

async function startExec(page, command) {
  const input = page.locator('.quick-input-widget input');
  const title = page.locator('.quick-input-widget .quick-input-title');
  await input.waitFor({ state: 'visible' });
  await input.fill('exec');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: /^exec/ }).first().click();
  await title.filter({ hasText: 'exec (1/8): command' }).waitFor();
  await input.fill(command);
  // Pressed on the input itself (focused first), not wherever the keyboard focus is: the terminal the
  // previous run used can take focus while the steps are drawn, and Enter would go there.
  await input.press('Enter');
  // Leave every optional argument unset: "(leave unset)" in pickers, Enter on an empty text box (whose
  // placeholder says so). Which of the two a step is shows once it is drawn: wait for one of them.
  const unset = page.locator('.quick-input-list .monaco-list-row', { hasText: '(leave unset)' }).first();
  const emptyText = page.locator('.quick-input-widget input[placeholder="Press Enter to leave unset"]');
  for (let step = 2; step <= 8; step++) {
    await title.filter({ hasText: `exec (${step}/8)` }).waitFor();
    await unset.or(emptyText).first().waitFor();
    if (await unset.isVisible()) await unset.click();
    else await emptyText.press('Enter');
  }
}

export default async function ({ page, helpers, log }) {
  // Outside the workspace (so the judge asks), in a folder exec's sandbox lets commands write (npm's
  // cache): the approved command must be able to succeed with the sandbox on. /tmp is private there.
  const cache = path.join(os.homedir(), '.npm');
  fs.mkdirSync(cache, { recursive: true });
  const marker = path.join(cache, `pincer-e2e-approved-${Date.now()}`);
  await helpers.runCommand('Pincer: Run Tool…');
  await startExec(page, `touch ${marker}`);
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor();
  const text = await dialog.innerText();
  log(`dialog: ${text.replace(/\s+/g, ' ').slice(0, 300)}`);
  assert.match(text, /run this command/);
  assert.ok(text.includes(`touch ${marker}`), 'the dialog shows the command exactly');
  assert.match(text, /writes outside the workspace/);
  assert.match(text, /Always Allow saves for this workspace/);
  assert.doesNotMatch(text, /Cancel/, 'Deny is the only way out: no separate Cancel');
  await helpers.screenshot('e2e-exec-approval');
  assert.equal(fs.existsSync(marker), false, 'nothing ran before the answer');
  await dialog.locator('a.monaco-button, button', { hasText: 'Allow Once' }).first().click();
  // The result opens rendered (the markdown preview) and says the person approved this run.
  const approved = await helpers.webviewFrame('p:has-text("Approved by the user")');
  log(`result: ${(await approved.locator('p:has-text("Approved by the user")').first().innerText()).slice(0, 200)}`);
  assert.equal(fs.existsSync(marker), true, 'Allow Once ran the command');
  fs.rmSync(marker, { force: true });

  await helpers.runCommand('Pincer: Run Tool…');
  await startExec(page, `touch ${marker}`);
  await dialog.waitFor();
  await dialog.locator('a.monaco-button, button', { hasText: 'Deny' }).first().click();
  // The result document says what the model is told.
  await helpers.webviewFrame('p:has-text("The user denied running this command")');
  assert.equal(fs.existsSync(marker), false, 'Deny: nothing ran');
}
