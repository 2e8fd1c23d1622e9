// The `helpers` object handed to every e2e script (test/host/e2e/*.e2e.mjs):
//
//   export default async ({ page, helpers, log, outDir, workspace, extensionId, env }) => { ... }
//
// Throw (e.g. with node:assert) to fail. Each script gets its own fresh page, once the workbench is
// rendered and the extension host is up (every extension registered); an extension that activates
// at start-up (`*`, onStartupFinished) has activated by then, a lazy one activates on first use.
// Waits need no timeout of their own: the page's default is what is left of the script's
// (--e2e-timeout), so a wait ends when what it waits for happens, however slow the machine is.
import path from 'node:path';
import { waitFor } from '../lib/procs.mjs';
import { findInWebviews } from '../lib/workbench.mjs';

const reEscape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The palette's focused row: its index in the list and its label (undefined when none is focused). */
const focusedRow = (page) => page.evaluate(() => {
  const row = document.querySelector('.quick-input-widget .quick-input-list .monaco-list-row.focused');
  return row ? { index: row.getAttribute('data-index'), label: (row.querySelector('.label-name')?.textContent ?? '').replace(/\s+/g, ' ').trim() } : undefined;
});

/**
 * Moves the palette's focus down until the focused row's label is exactly `title`. False when the
 * palette closed meanwhile, or every row has had the focus without it (the list wraps around).
 */
async function focusRow(page, input, title, timeLeft) {
  // Waits until the palette is gone (undefined) or focuses a row other than the one at `prev`.
  const next = async (prev) => (await waitFor(async () => {
    if (!(await input.isVisible())) return { row: undefined };
    const row = await focusedRow(page);
    return row && row.index !== prev ? { row } : false;
  }, timeLeft(), 'the command palette to focus a row', 20)).row;
  const rows = await page.locator('.quick-input-list .monaco-list-row').count();
  let row = await next(undefined);
  for (let moves = 0; row && row.label !== title && moves < rows && rows > 1; moves++) {
    await page.keyboard.press('ArrowDown');
    row = await next(row.index);
  }
  return row?.label === title;
}

/**
 * @param {import('playwright-core').Page} page
 * @param {{ outDir: string, log: (...a: unknown[]) => void, timeLeft: () => number }} ctx
 */
export function makeHelpers(page, { outDir, log, timeLeft }) {
  const helpers = {
    /**
     * Runs a command through the command palette (F1) by its exact title, e.g. 'Pincer: Open Chat'.
     * The row is picked with the keyboard (arrow keys until the focused row is exactly `title`, then
     * Enter): a click can be refused for as long as the test lasts when anything covers the row or
     * the list re-renders under the pointer, and Enter alone would run whichever row sorts first.
     */
    async runCommand(title) {
      const input = page.locator('.quick-input-widget input');
      const row = page.locator('.quick-input-list .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${reEscape(title)}$`) }) }).first();
      // The palette closes when something else takes focus (a result preview or a terminal a previous
      // step opened, finishing late): then it is opened again rather than typed into while it hides.
      for (;;) {
        await helpers.failOnDialog(`running "${title}"`);
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible' });
        await input.fill(`>${title}`);
        await waitFor(async () => !(await input.isVisible()) || (await row.isVisible()), timeLeft(), `the command palette to list "${title}"`, 50);
        if ((await row.isVisible()) && (await focusRow(page, input, title, timeLeft))) break;
        log(`the command palette closed before "${title}" could be picked; opening it again`);
      }
      await page.keyboard.press('Enter');
      // The palette has taken the command once its text is gone: it closed, or the command opened
      // a quick input of its own (Run Tool…), which starts empty.
      await waitFor(async () => !(await input.isVisible()) || (await input.inputValue()) !== `>${title}`,
        timeLeft(), `the command palette to take "${title}"`, 50);
    },

    /**
     * A modal dialog takes every click and key until answered: a test that did not expect one fails
     * at once with its text instead of waiting out its whole time behind it.
     */
    async failOnDialog(doing) {
      const dialog = page.locator('.monaco-dialog-box');
      if (!(await dialog.count()) || !(await dialog.first().isVisible())) return;
      const text = (await dialog.first().innerText()).replace(/\s+/g, ' ').trim();
      throw new Error(`a modal dialog is open while ${doing}: "${text.slice(0, 400)}"`);
    },

    /** Opens an activity-bar view container by its title (the aria-label starts with it). */
    async openActivity(title) {
      await page.locator(`.activitybar .action-label[aria-label^="${title}"]`).first().click();
    },

    /** FrameLocator for the HTML of the nth webview (outer iframe.webview > inner iframe#active-frame). */
    webview(nth = 0) {
      return page.frameLocator('iframe.webview.ready').nth(nth).frameLocator('iframe#active-frame');
    },

    /** Playwright Frame of the first webview whose document contains `selector`, once one does. */
    async webviewFrame(selector) {
      return (await findInWebviews(page, selector, timeLeft())).ownerFrame();
    },

    /**
     * Waits for a notification containing `text` and returns its full text. The test server runs
     * with enable-smoke-test-driver, under which VS Code renders no toasts, so this reads the
     * notification center (command "Notifications: Show Notifications").
     */
    async waitForNotification(text) {
      const item = page.locator('.notifications-center .notification-list-item-message', { hasText: text }).first();
      // The center is opened again whenever it closed (a notification or a dialog can close it).
      await waitFor(async () => {
        await helpers.failOnDialog(`waiting for a notification saying "${text}"`);
        if (!(await page.locator('.notifications-center.visible').count())) await helpers.runCommand('Notifications: Show Notifications');
        return item.isVisible();
      }, timeLeft(), `a notification saying "${text}"`, 250);
      const msg = await item.innerText();
      await page.keyboard.press('Escape');
      return msg;
    },

    /** Polls `fn` until it returns something truthy (and returns that), for conditions outside the page. */
    until(what, fn) {
      return waitFor(fn, timeLeft(), what, 100);
    },

    /** Screenshot of the whole workbench into the output dir (kept as a CI artifact). */
    async screenshot(name) {
      const f = path.join(outDir, `${String(name).replace(/[^A-Za-z0-9._-]/g, '_')}.png`);
      await page.screenshot({ path: f });
      log(`screenshot: ${path.basename(f)}`);
      return f;
    },
  };
  return helpers;
}
