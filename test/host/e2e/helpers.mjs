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

/**
 * @param {import('playwright-core').Page} page
 * @param {{ outDir: string, log: (...a: unknown[]) => void, timeLeft: () => number }} ctx
 */
export function makeHelpers(page, { outDir, log, timeLeft }) {
  const helpers = {
    /** Runs a command through the command palette (F1) by its exact title, e.g. 'Pincer: Open Chat'. */
    async runCommand(title) {
      const input = page.locator('.quick-input-widget input');
      // Click the row whose label is exactly `title`: Enter would run whichever row sorts first.
      const row = page.locator('.quick-input-list .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${reEscape(title)}$`) }) }).first();
      // The palette closes when something else takes focus (a result preview or a terminal a previous
      // step opened, finishing late): then it is opened again rather than typed into while it hides.
      for (;;) {
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible' });
        await input.fill(`>${title}`);
        await waitFor(async () => !(await input.isVisible()) || (await row.isVisible()), timeLeft(), `the command palette to list "${title}"`, 50);
        if (await row.isVisible()) break;
        log(`the command palette closed before "${title}" could be picked; opening it again`);
      }
      await row.click();
      // The palette has taken the command once its text is gone: it closed, or the command opened
      // a quick input of its own (Run Tool…), which starts empty.
      await waitFor(async () => !(await input.isVisible()) || (await input.inputValue()) !== `>${title}`,
        timeLeft(), `the command palette to take "${title}"`, 50);
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
