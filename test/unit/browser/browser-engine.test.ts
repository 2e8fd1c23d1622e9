// The browser's lifetime on a real headless Chromium, with the clock held by the test: pages idle past
// the limit are closed, then their session, then the browser itself; a page used recently stays. And
// where the browser is looked for, with the advice given when there is none.
import assert from 'node:assert/strict';
import { BrowserEngine } from '../../../src/core/browser/browser-engine';
import { BrowserNotFound, candidatePaths, findBrowser } from '../../../src/core/browser/find-browser';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('browser: lifetime and where the browser is found', function () {
  this.timeout(60_000);

  it('closes pages idle past the limit, then the session, then the browser; a recently used page stays', async () => {
    let now = 1_000_000;
    let closed = false;
    const engine = await BrowserEngine.launch({
      executablePath: CHROMIUM, headless: true, policy: () => ({}), limits: { idleMs: 10 * 60_000 }, now: () => now,
    }, () => { closed = true; });
    const idle = await engine.session('idle');
    await idle.tab();
    const busy = await engine.session('busy');
    await busy.tab();
    now += 9 * 60_000;
    await (await busy.tab()).page.title();
    now += 2 * 60_000;
    await engine.closeIdle();
    assert.equal(engine.existing('idle'), undefined);
    assert.ok(engine.existing('busy'));
    assert.equal(closed, false);
    now += 11 * 60_000;
    await engine.closeIdle();
    assert.equal(engine.existing('busy'), undefined);
    assert.equal(closed, true);
  });

  it('uses the configured executable, else the usual install paths, and says how to install one when none is there', () => {
    assert.equal(findBrowser('/opt/my/chrome', (p) => p === '/opt/my/chrome'), '/opt/my/chrome');
    assert.equal(findBrowser(undefined, (p) => p === '/usr/bin/google-chrome'), '/usr/bin/google-chrome');
    assert.throws(() => findBrowser(undefined, () => false), (e: Error) => e instanceof BrowserNotFound && /No Chrome, Chromium or Edge was found/.test(e.message) && /pincer\.browser\.executablePath/.test(e.message));
    assert.throws(() => findBrowser('/nope', () => false), /"\/nope", which is not an executable file/);
    assert.ok(candidatePaths('darwin', { HOME: '/Users/a' }).includes('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'));
    assert.ok(candidatePaths('win32', { PROGRAMFILES: 'C:\\Program Files' }).includes('C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe'));
  });
});
