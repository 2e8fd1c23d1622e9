// The browser side of the harness: workbench pages, the extension's activation as seen in the
// extension host log, and answering in-host tests' requests (screenshot, text in a webview).
import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from './procs.mjs';

/** How many times the remote extension hosts' logs contain `needle` (each new page adds its own log). */
export function exthostLogCount(userDataDir, needle) {
  let n = 0;
  const logs = path.join(userDataDir, 'logs');
  if (!fs.existsSync(logs)) return 0;
  for (const day of fs.readdirSync(logs)) {
    const dayDir = path.join(logs, day);
    for (const eh of fs.readdirSync(dayDir).filter((d) => d.startsWith('exthost'))) {
      const f = path.join(dayDir, eh, 'remoteexthost.log');
      if (fs.existsSync(f)) n += fs.readFileSync(f, 'utf8').split(needle).length - 1;
    }
  }
  return n;
}

/** Activations of extId: the host logs "ExtensionService#_doActivateExtension <id>, ..." (info). */
export const activationCount = (userDataDir, extId) => exthostLogCount(userDataDir, `_doActivateExtension ${extId},`);

/** Extension host up, every extension registered, the `*` ones activated. */
export const hostReadyCount = (userDataDir) => exthostLogCount(userDataDir, 'Eager extensions activated');

/** New browser context + page whose console goes to <out>/browser-console-<label>.log. */
export async function openPage(browser, outDir, label, verboseLog) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const consoleLog = fs.createWriteStream(path.join(outDir, `browser-console-${label}.log`));
  page.on('console', (m) => {
    const t = m.text().replace(/^%c\s*(\w+)\s+color: #\w+\s*/, '$1 ');
    consoleLog.write(`[${m.type()}] ${t}\n`);
    if (verboseLog && !/AgentHost|ChatModelSelection/.test(t)) verboseLog(`   [browser:${m.type()}] ${t.slice(0, 300)}`);
  });
  page.on('pageerror', (e) => consoleLog.write(`[pageerror] ${e.stack || e}\n`));
  const close = async () => { await context.close().catch(() => {}); await new Promise((r) => consoleLog.end(r)); };
  return { context, page, close };
}

/** The workbench is rendered (its status bar is there); `timeoutMs` is what the caller's deadline leaves. */
export async function waitWorkbench(page, timeoutMs) {
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: timeoutMs });
}

/** Error lines of a workbench console log worth showing (offline noise filtered out). */
export function consoleErrors(file, max = 5) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n')
    .filter((l) => l.startsWith('[error] ERR') && !/open-vsx|authentication provider|ENOTFOUND|vsda/.test(l))
    .slice(-max);
}

/** Element matching selector inside any webview: <iframe class="webview"> > <iframe id="active-frame">. */
export function findInWebviews(page, selector, timeoutMs) {
  return waitFor(async () => {
    for (const f of page.frames()) {
      // Playwright names the inner frame "pending-frame" at times: match on the URL too.
      if (!/\/webview\/browser\/pre\/fake\.html|id=active-frame/.test(f.url()) && f.name() !== 'active-frame') continue;
      const el = await f.$(selector).catch(() => null);
      if (el) return el;
    }
    return null;
  }, timeoutMs, `webview element ${selector}`);
}

/**
 * Serves inhost/harness-client.cjs: it drops <id>.req files into reqDir, we answer <id>.res.
 * Returns a stop function.
 */
export function startRequestPump(reqDir, getPage, outDir, log) {
  let busy = false;
  const handle = async (req) => {
    const page = getPage();
    if (req.kind === 'screenshot') {
      const file = path.join(outDir, `${String(req.name).replace(/[^A-Za-z0-9._-]/g, '_')}.png`);
      await page.screenshot({ path: file });
      log(`screenshot (requested in-host): ${path.basename(file)}`);
      return file;
    }
    if (req.kind === 'webviewText') return (await findInWebviews(page, req.selector, req.timeoutMs ?? 15000)).innerText();
    if (req.kind === 'webviewImages') {
      // Every image matching the selector in the webview that has one: what it shows, and whether it was drawn.
      const first = await findInWebviews(page, req.selector, req.timeoutMs ?? 15000);
      return first.evaluate((_, sel) => [...document.querySelectorAll(sel)].map((i) => (
        { alt: i.alt, scheme: i.src.split(':')[0], complete: i.complete, width: i.naturalWidth, height: i.naturalHeight })), req.selector);
    }
    if (req.kind === 'pageText') {
      const loc = page.locator(req.selector).first();
      await loc.waitFor({ timeout: req.timeoutMs ?? 15000 });
      return loc.innerText();
    }
    throw new Error(`unknown request ${req.kind}`);
  };
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      for (const f of fs.readdirSync(reqDir).filter((x) => x.endsWith('.req'))) {
        const id = f.slice(0, -4);
        let res;
        try {
          const req = JSON.parse(fs.readFileSync(path.join(reqDir, f), 'utf8'));
          fs.rmSync(path.join(reqDir, f));
          res = { value: await handle(req) };
        } catch (e) { res = { error: String(e?.message || e) }; }
        fs.writeFileSync(path.join(reqDir, `${id}.res.tmp`), JSON.stringify(res));
        fs.renameSync(path.join(reqDir, `${id}.res.tmp`), path.join(reqDir, `${id}.res`));
      }
    } catch { /* request dir gone during teardown */ } finally { busy = false; }
  }, 100);
  return () => clearInterval(timer);
}

/**
 * What a person would see that can block a test: an open modal dialog, the command palette and its
 * focused row, the notifications, the element under the palette's first row, the editor tabs. Logged
 * when an e2e script fails, so a failure seen only in CI explains itself.
 */
export async function describeWorkbench(page) {
  try {
    return JSON.stringify(await page.evaluate(() => {
      const text = (el) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 300);
      const visible = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
      const palette = document.querySelector('.quick-input-widget');
      const firstRow = document.querySelector('.quick-input-list .monaco-list-row');
      let underFirstRow;
      if (visible(firstRow)) {
        const r = firstRow.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        underFirstRow = top && !firstRow.contains(top) ? `${top.tagName.toLowerCase()}.${[...top.classList].join('.')}` : 'the row itself';
      }
      return {
        dialog: visible(document.querySelector('.monaco-dialog-box')) ? text(document.querySelector('.monaco-dialog-box')) : undefined,
        palette: visible(palette) ? { input: palette.querySelector('input')?.value, focused: text(palette.querySelector('.monaco-list-row.focused')), rows: palette.querySelectorAll('.monaco-list-row').length, underFirstRow } : undefined,
        notifications: [...document.querySelectorAll('.notification-list-item-message')].map(text).slice(0, 10),
        tabs: [...document.querySelectorAll('.tabs-container .tab')].map((t) => t.getAttribute('aria-label')).slice(0, 10),
        activeElement: document.activeElement ? `${document.activeElement.tagName.toLowerCase()}.${[...document.activeElement.classList].join('.')}` : undefined,
      };
    }));
  } catch (e) {
    return `(could not be read: ${e?.message ?? e})`;
  }
}
