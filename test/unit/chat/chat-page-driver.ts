// Drives the chat page in Chromium for the tests: open it (one browser context each, so saved state
// does not leak between tests), post protocol messages in, read what the page posted back. Code that
// runs in the page is passed as strings: this project's TypeScript has no DOM types for node code.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { ToHost, ToWebview } from '../../../src/core/chat/chat-protocol';
import { buildChatBundle, CHROMIUM, CHROMIUM_ARGS, serveChatPage, type ChatPageServer } from './chat-page-server';

/** Each test's timeout in these suites (chatSuite). */
const TEST_TIMEOUT_MS = 60_000;
/**
 * How long any one wait of the driver may take: not a goal, only the test's own timeout less a
 * margin, so a wait that never ends fails with what it waited for instead of mocha's bare timeout.
 */
const WAIT_MS = TEST_TIMEOUT_MS - 5_000;

export interface ChatPage {
  page: Page;
  context: BrowserContext;
  /** Posts a message into the page (any value: the tests also post broken ones). */
  post(m: ToWebview | Record<string, unknown>): Promise<void>;
  /** Polls an in-page expression until it is truthy (waitForFunction would eval under the page's CSP). */
  until(expression: string): Promise<void>;
  posted(): Promise<ToHost[]>;
  /** Waits for a posted message matching `pred` (among those after `from`) and returns it. */
  waitPosted<T extends ToHost['type']>(type: T, pred?: (m: Extract<ToHost, { type: T }>) => boolean, from?: number): Promise<Extract<ToHost, { type: T }>>;
  /** In-page expression (a string of JavaScript) evaluated and returned. */
  js<T>(expression: string): Promise<T>;
  /** Loads the page again (sessionStorage, and so the stub's saved state, survives) and waits for `ready`. */
  reload(): Promise<void>;
  /** CSP violations and page errors seen so far. */
  problems(): Promise<string[]>;
  close(): Promise<void>;
}

export async function openChat(browser: Browser, url: string, context?: BrowserContext): Promise<ChatPage> {
  const ctx = context ?? await browser.newContext({ viewport: { width: 420, height: 760 } });
  const page = await ctx.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`console.error: ${m.text()}`);
  });
  page.setDefaultTimeout(WAIT_MS);
  await page.goto(url);
  const until = async (expression: string) => {
    const deadline = Date.now() + WAIT_MS;
    while (!await page.evaluate(expression)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await until('window.__chat && window.__chat.posted.some((m) => m.type === "ready")');
  const posted = () => page.evaluate<ToHost[]>('window.__chat.posted');
  return {
    page,
    context: ctx,
    until,
    post: async (m) => {
      await page.evaluate((msg) => (globalThis as unknown as { __chat: { post(m: unknown): void } }).__chat.post(msg), m);
      // postMessage is a task: let it (and the render it schedules) run before the test looks.
      await page.evaluate('window.__chat.afterPaint()');
    },
    posted,
    waitPosted: async (type, pred = () => true, from = 0) => {
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const hit = (await posted()).slice(from).find((m) => m.type === type && pred(m as never));
        if (hit) return hit as never;
        if (Date.now() > deadline) throw new Error(`the page did not post ${type} (posted: ${JSON.stringify((await posted()).map((m) => m.type))})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    js: (expression) => page.evaluate(expression),
    reload: async () => {
      await page.reload();
      await until('window.__chat && window.__chat.posted.some((m) => m.type === "ready")');
    },
    problems: async () => [...pageErrors, ...await page.evaluate<string[]>('[...window.__chat.violations, ...window.__chat.errors]')],
    close: () => (context ? page.close() : ctx.close()),
  };
}

/** A mocha suite with the bundle built, the page served and Chromium launched once for all its tests. */
export function chatSuite(name: string, body: (ctx: { browser: () => Browser; url: () => string }) => void): void {
  describe(name, function () {
    this.timeout(TEST_TIMEOUT_MS);
    let browser: Browser;
    let server: ChatPageServer;
    let dir: string;
    before(async function () {
      if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH)`);
      dir = (await buildChatBundle()).dir;
      server = await serveChatPage(dir);
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
    });
    after(async () => {
      await browser?.close();
      await server?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });
    body({ browser: () => browser, url: () => server.url });
  });
}

/**
 * Inside a chatSuite: a fresh page for each test, given `first` as its first message, and after each
 * test the check that the page saw no CSP violation, page error or console error. Returns the page.
 */
export function chatPerTest(browser: () => Browser, url: () => string, first: () => ToWebview): () => ChatPage {
  let chat: ChatPage;
  beforeEach(async () => {
    chat = await openChat(browser(), url());
    await chat.post(first());
  });
  afterEach(async () => {
    const problems = await chat.problems();
    await chat.close();
    assert.deepEqual(problems, [], 'no CSP violation, page error or console error');
  });
  return () => chat;
}
