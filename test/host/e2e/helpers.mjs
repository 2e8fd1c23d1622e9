// The `helpers` object handed to every e2e script (test/host/e2e/*.e2e.mjs):
//
//   export default async ({ page, helpers, log, outDir, workspace, extensionId, env }) => { ... }
//
// Throw (e.g. with node:assert) to fail. Each script gets its own fresh page, once the workbench is
// rendered and the extension host is up (every extension registered); an extension that activates
// at start-up (`*`, onStartupFinished) has activated by then, a lazy one activates on first use.
import path from 'node:path';
import { findInWebviews } from '../lib/workbench.mjs';

const reEscape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * @param {import('playwright-core').Page} page
 * @param {{ outDir: string, log: (...a: unknown[]) => void }} ctx
 */
export function makeHelpers(page, { outDir, log }) {
  const helpers = {
    /** Runs a command through the command palette (F1) by its exact title, e.g. 'Pincer: Open Chat'. */
    async runCommand(title) {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible' });
      await input.fill(`>${title}`);
      // Click the row whose label is exactly `title`: Enter would run whichever row sorts first.
      const row = page.locator('.quick-input-list .monaco-list-row')
        .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${reEscape(title)}$`) }) }).first();
      await row.waitFor({ state: 'visible', timeout: 15000 });
      await row.click();
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
    },

    /** Opens an activity-bar view container by its title (the aria-label starts with it). */
    async openActivity(title) {
      await page.locator(`.activitybar .action-label[aria-label^="${title}"]`).first().click();
    },

    /** FrameLocator for the HTML of the nth webview (outer iframe.webview > inner iframe#active-frame). */
    webview(nth = 0) {
      return page.frameLocator('iframe.webview.ready').nth(nth).frameLocator('iframe#active-frame');
    },

    /** Playwright Frame of the first webview whose document contains `selector`. */
    async webviewFrame(selector, timeoutMs = 20000) {
      return (await findInWebviews(page, selector, timeoutMs)).ownerFrame();
    },

    /**
     * Waits for a notification containing `text` and returns its full text. The test server runs
     * with enable-smoke-test-driver, under which VS Code renders no toasts, so this reads the
     * notification center (command "Notifications: Show Notifications").
     */
    async waitForNotification(text, timeoutMs = 15000) {
      const item = page.locator('.notifications-center .notification-list-item-message', { hasText: text }).first();
      const t0 = Date.now();
      for (;;) {
        if (!(await page.locator('.notifications-center.visible').count())) await helpers.runCommand('Notifications: Show Notifications');
        try { await item.waitFor({ timeout: 2000 }); break; } catch (e) { if (Date.now() - t0 > timeoutMs) throw e; }
      }
      const msg = await item.innerText();
      await page.keyboard.press('Escape');
      return msg;
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
