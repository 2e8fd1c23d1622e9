// What each browser action does to a session's pages, and what the model reads back: after anything
// that can change the page, its accessibility tree (Playwright's aria snapshot, with a ref such as
// e5 on every element an action can name), with the requests the SSRF policy refused on the way.
// Part of the lazily required browser bundle, with browser-engine.ts.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { BrowserRefusal } from './browser-proxy';
import type { BrowserEngine, BrowserSession, BrowserTab } from './browser-engine';

export interface BrowserActionRequest {
  action: 'navigate' | 'snapshot' | 'click' | 'type' | 'press' | 'select' | 'hover' | 'screenshot' | 'evaluate' | 'tabs' | 'console' | 'close';
  url?: string;
  ref?: string;
  text?: string;
  submit?: boolean;
  key?: string;
  values?: string[];
  fullPage?: boolean;
  expression?: string;
  tabAction?: 'list' | 'open' | 'close' | 'select';
  tab?: string;
  maxChars: number;
}

export interface BrowserActionResult {
  /** What the model reads; `page` parts are external content (the tool wraps them as untrusted). */
  text: string;
  /** The URL the external content came from; absent: the text is Pincer's own. */
  source?: string;
  outcome: 'ok' | 'error' | 'denied';
  details: Record<string, unknown>;
  /** A screenshot's PNG bytes, for the model to see where it takes images. */
  image?: Uint8Array;
}

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
};

function refusalNotes(refused: readonly BrowserRefusal[]): string[] {
  return refused.map((r) => `Blocked request: ${r.url} — ${r.reason}`);
}

/** The page as the model reads it: where it is, its title, and its accessibility tree, capped. */
async function pageState(tab: BrowserTab, maxChars: number, notes: string[]): Promise<{ text: string; chars: number; truncated: boolean }> {
  const page = tab.page;
  let tree: string;
  try {
    tree = await page.ariaSnapshot({ mode: 'ai' });
  } catch (e) {
    tree = `(no snapshot: ${(e as Error).message.split('\n')[0]})`;
  }
  const truncated = tree.length > maxChars;
  const shown = truncated ? `${tree.slice(0, maxChars)}\n… (the snapshot is ${tree.length} characters; the first ${maxChars} are shown)` : tree;
  const title = await page.title().catch(() => '');
  return { text: [`Tab ${tab.id}: ${page.url()}`, title ? `Title: ${title}` : '', ...notes, '', shown].filter((l, i) => l !== '' || i > 1).join('\n'), chars: tree.length, truncated };
}

async function stateResult(engine: BrowserEngine, tab: BrowserTab, req: BrowserActionRequest, notes: string[], details: Record<string, unknown> = {}): Promise<BrowserActionResult> {
  const refused = engine.refusals();
  const state = await pageState(tab, req.maxChars, [...notes, ...refusalNotes(refused)]);
  return { text: state.text, source: tab.page.url(), outcome: 'ok', details: { tab: tab.id, url: tab.page.url(), refused: refused.length, snapshotChars: state.chars, truncated: state.truncated, ...details } };
}

async function navigate(engine: BrowserEngine, tab: BrowserTab, req: BrowserActionRequest): Promise<BrowserActionResult> {
  const url = req.url!;
  const notes: string[] = [];
  let failure: string | undefined;
  try {
    await tab.page.goto(url, { waitUntil: 'load', timeout: engine.limits.actionTimeoutMs });
  } catch (e) {
    const message = (e as Error).message.split('\n')[0];
    if ((e as Error).name === 'TimeoutError') notes.push(`The page had not finished loading after ${engine.limits.actionTimeoutMs / 1000} s; this is what it shows so far.`);
    else failure = message;
  }
  const refused = engine.refusals();
  const main = refused.find((r) => sameUrl(r.url, tab.page.url())) ?? (failure ? refused[refused.length - 1] : undefined);
  if (main) {
    const chain = refused.length > 1 ? `\n${refusalNotes(refused).join('\n')}` : '';
    return { text: `${sameUrl(main.url, url) ? url : `${url} led to ${main.url}, which`} was refused: ${main.reason}${chain}`, outcome: 'denied', details: { url, refusedUrl: main.url, tab: tab.id } };
  }
  if (failure) return { text: `Opening ${url} failed: ${failure}`, outcome: 'error', details: { url, tab: tab.id } };
  const state = await pageState(tab, req.maxChars, [...notes, ...refusalNotes(refused)]);
  return { text: state.text, source: tab.page.url(), outcome: 'ok', details: { tab: tab.id, url: tab.page.url(), refused: refused.length, snapshotChars: state.chars, truncated: state.truncated } };
}

function element(page: Page, ref: string | undefined) {
  if (!ref) throw new Error('this action needs `ref`: an element ref from the last snapshot (such as e5).');
  return page.getByRef(ref);
}

async function screenshot(tab: BrowserTab, req: BrowserActionRequest, dir: string): Promise<BrowserActionResult> {
  const png = await tab.page.screenshot({ type: 'png', fullPage: req.fullPage ?? false });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `screenshot-${Date.now().toString(36)}-${tab.id}.png`);
  fs.writeFileSync(file, png, { mode: 0o600 });
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  return {
    text: `Screenshot of tab ${tab.id} (${tab.page.url()}): ${width}×${height} PNG, ${png.length.toLocaleString('en-US')} bytes, saved to ${file}.`,
    outcome: 'ok', details: { tab: tab.id, file, width, height, bytes: png.length }, image: png,
  };
}

async function evaluate(engine: BrowserEngine, tab: BrowserTab, req: BrowserActionRequest): Promise<BrowserActionResult> {
  const value: unknown = await tab.page.evaluate(req.expression!);
  const json = value === undefined ? 'undefined' : JSON.stringify(value, null, 2) ?? String(value);
  const shown = json.length > req.maxChars ? `${json.slice(0, req.maxChars)}\n… (${json.length} characters; the first ${req.maxChars} are shown)` : json;
  const notes = refusalNotes(engine.refusals());
  return { text: [`Result in tab ${tab.id} (${tab.page.url()}):`, ...notes, shown].join('\n'), source: tab.page.url(), outcome: 'ok', details: { tab: tab.id, chars: json.length } };
}

async function tabs(engine: BrowserEngine, session: BrowserSession, req: BrowserActionRequest): Promise<BrowserActionResult> {
  switch (req.tabAction ?? 'list') {
    case 'open': {
      const tab = await session.open();
      if (req.url) return navigate(engine, tab, req);
      return { text: `Opened tab ${tab.id}. Tabs: ${session.list()}.`, outcome: 'ok', details: { tab: tab.id } };
    }
    case 'close':
      await session.closeTab(req.tab ?? session.current ?? '');
      return { text: `Closed. Tabs: ${session.list()}.`, outcome: 'ok', details: { tabs: session.tabs.size } };
    case 'select': {
      if (!req.tab || !session.tabs.has(req.tab)) throw new Error(`There is no tab ${req.tab ?? '(none given)'}: ${session.list()}`);
      session.current = req.tab;
      return stateResult(engine, await session.tab(), req, []);
    }
    default:
      return { text: `Tabs: ${session.list()}.`, outcome: 'ok', details: { tabs: session.tabs.size } };
  }
}

export async function runBrowserAction(engine: BrowserEngine, sessionKey: string, req: BrowserActionRequest, screenshotDir: string): Promise<BrowserActionResult> {
  if (req.action === 'close') {
    const had = engine.existing(sessionKey);
    await engine.closeSession(sessionKey);
    return { text: had ? 'The browser session is closed (its pages, cookies and storage are gone).' : 'No browser session was open.', outcome: 'ok', details: {} };
  }
  const session = await engine.session(sessionKey);
  if (req.action === 'tabs') return tabs(engine, session, req);
  const tab = await session.tab();
  const page = tab.page;
  switch (req.action) {
    case 'navigate': return navigate(engine, tab, req);
    case 'snapshot': return stateResult(engine, tab, req, []);
    case 'click': await element(page, req.ref).click(); break;
    case 'hover': await element(page, req.ref).hover(); break;
    case 'type': {
      const target = element(page, req.ref);
      await target.fill(req.text ?? '');
      if (req.submit) await target.press('Enter');
      break;
    }
    case 'press': await (req.ref ? element(page, req.ref).press(req.key!) : page.keyboard.press(req.key!)); break;
    case 'select': await element(page, req.ref).selectOption(req.values ?? []); break;
    case 'screenshot': return screenshot(tab, req, screenshotDir);
    case 'evaluate': return evaluate(engine, tab, req);
    case 'console': {
      const lines = tab.console.slice(-50);
      return { text: [`Console of tab ${tab.id} (${page.url()}), the last ${lines.length} messages:`, ...lines].join('\n'), source: page.url(), outcome: 'ok', details: { tab: tab.id, lines: lines.length } };
    }
  }
  // What the action changed: wait briefly for a navigation it started, then read the page again.
  await page.waitForLoadState('load', { timeout: 5_000 }).catch(() => undefined);
  return stateResult(engine, tab, req, []);
}
