// A person's path through Pincer in the browser: Run Tool… from the command palette, fill the one
// optional argument, read the result document; then the sidebar shows the call. Screenshots are kept.
import assert from 'node:assert/strict';

export default async function ({ page, helpers, log }) {
  await helpers.runCommand('Pincer: Run Tool…');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('datetime');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'datetime' }).first();
  await row.waitFor({ state: 'visible' });
  await row.click();
  // datetime (1/3): timezone — optional; type a zone. Then leave `at` and `from` unset (Enter on the
  // empty box), each pressed on the input once its step's title is drawn.
  const title = page.locator('.quick-input-widget .quick-input-title');
  await title.filter({ hasText: 'datetime (1/3): timezone' }).waitFor();
  await input.fill('UTC');
  await input.press('Enter');
  for (const [step, key] of [[2, 'at'], [3, 'from']]) {
    await title.filter({ hasText: `datetime (${step}/3): ${key}` }).waitFor();
    await input.press('Enter');
  }
  // The result opens rendered: VS Code's markdown preview of the result document.
  const tab = page.locator('.tabs-container .tab', { hasText: /Preview .*datetime\.md/ }).first();
  await tab.waitFor();
  const preview = await helpers.webviewFrame('h1[data-line]');
  assert.match(await preview.locator('h1').first().innerText(), /datetime — result/);
  log(`notification: ${await helpers.waitForNotification('datetime finished')}`);
  await helpers.screenshot('e2e-run-tool-result');

  await helpers.openActivity('Pincer');
  // Tools starts collapsed under the Chat view: expand it.
  await page.locator('.pane-header', { hasText: 'Tools' }).first().click();
  // The Tools view's page (the Chat view above it is another webview).
  const wv = await helpers.webviewFrame('#title');
  assert.equal(await wv.locator('#title').innerText(), 'Pincer tools');
  await wv.locator('#calls li[data-tool="datetime"]').first().waitFor();
  const calls = await wv.locator('#calls').innerText();
  assert.match(calls, /ok\s*datetime/);
  await helpers.screenshot('e2e-sidebar');
}
