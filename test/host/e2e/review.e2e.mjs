// A person reviews an edit in the browser: Run Tool… → write_file → the diff editor opens with the
// proposal → the Accept button in the editor title (shown only for proposals) lands the file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

export default async function ({ page, helpers, log, workspace }) {
  await helpers.runCommand('Pincer: Run Tool…');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('write_file');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'write_file' }).first().click();
  const title = page.locator('.quick-input-widget .quick-input-title');
  await title.filter({ hasText: 'write_file (1/3): path' }).waitFor();
  await input.fill('e2e/from-the-browser.md');
  await page.keyboard.press('Enter');
  await title.filter({ hasText: 'write_file (2/3): content' }).waitFor();
  await input.fill('Written after a review in the browser.');
  await page.keyboard.press('Enter');
  await title.filter({ hasText: 'write_file (3/3): append' }).waitFor();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: '(leave unset)' }).first().click();

  // The diff editor with the proposal; nothing on disk yet.
  await page.locator('.tabs-container .tab', { hasText: 'e2e/from-the-browser.md (new file by write_file)' }).first().waitFor();
  const target = path.join(workspace, 'e2e', 'from-the-browser.md');
  assert.equal(fs.existsSync(target), false, 'nothing is written before the review');
  await helpers.screenshot('e2e-review-diff');
  const accept = page.locator('.editor-actions .action-label[aria-label^="Accept Change"]').first();
  await accept.waitFor();
  await accept.click();
  log(`notification: ${await helpers.waitForNotification('write_file finished')}`);
  assert.equal(fs.readFileSync(target, 'utf8'), 'Written after a review in the browser.');
  await helpers.screenshot('e2e-review-accepted');
}
