// The browser behind the browser tool: one Chromium (playwright-core driving a browser already on the
// machine), started at the first call, with every request going through the guarded proxy
// (browser-proxy.ts). Each chat session gets its own fresh browser context (no cookies, storage or
// logins of the person's, none shared between sessions) unless pincer.browser.profile names a profile
// folder, which all sessions then share. Limits: 5 pages per session, pages idle for 10 minutes
// closed, downloads and service workers off. When the last page closes, the browser stops.
// This module is its own bundle (dist/browser-engine.js), required at the first browser call.
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { SsrfOptions } from '../web/ssrf-guard';
import { startBrowserProxy, type BrowserProxy, type BrowserRefusal } from './browser-proxy';

// The bundle's one entry: the tool requires this module and finds the actions here too.
export { runBrowserAction } from './browser-actions';

export const BROWSER_LIMITS = { actionTimeoutMs: 30_000, idleMs: 10 * 60_000, maxPages: 5, consoleLines: 100 };

export interface BrowserEngineOptions {
  executablePath: string;
  headless: boolean;
  /** A profile folder (the person's own setting); absent: a fresh context per session. */
  profile?: string;
  /** The SSRF policy every request of every page passes, read at each request. */
  policy: () => SsrfOptions;
  limits?: Partial<typeof BROWSER_LIMITS>;
  now?: () => number;
}

/** Flags for an agent's browser: nothing that phones home on its own, no UDP around the proxy. */
const CHROMIUM_ARGS = [
  '--no-first-run', '--no-default-browser-check', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-default-apps', '--disable-domain-reliability', '--disable-breakpad',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp', '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--disable-features=DnsOverHttps,MediaRouter,OptimizationHints,NetworkTimeServiceQuerying', '--disable-dev-shm-usage',
];

export interface BrowserTab {
  id: string;
  page: Page;
  console: string[];
  lastUsed: number;
}

/** One chat session's pages. */
export class BrowserSession {
  readonly tabs = new Map<string, BrowserTab>();
  current?: string;
  private nextId = 1;

  constructor(readonly context: BrowserContext, private readonly engine: BrowserEngine) {}

  /** The current tab, touched; a session without one opens one. */
  async tab(): Promise<BrowserTab> {
    const tab = (this.current && this.tabs.get(this.current)) || await this.open();
    tab.lastUsed = this.engine.now();
    return tab;
  }

  async open(): Promise<BrowserTab> {
    if (this.tabs.size >= this.engine.limits.maxPages) {
      throw new Error(`This session already has ${this.tabs.size} pages open, the most allowed: close one first (action "tabs" with close).`);
    }
    return this.adopt(await this.context.newPage());
  }

  /** A page this session opened, or one a page of it opened (a popup); over the limit, a popup is closed. */
  adopt(page: Page): BrowserTab {
    if (this.tabs.size >= this.engine.limits.maxPages) {
      void page.close();
      throw new Error('a page tried to open more pages than allowed');
    }
    const tab: BrowserTab = { id: `t${this.nextId++}`, page, console: [], lastUsed: this.engine.now() };
    const log = (line: string) => {
      tab.console.push(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
      if (tab.console.length > this.engine.limits.consoleLines) tab.console.shift();
    };
    page.on('console', (m) => log(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => log(`[pageerror] ${e.message}`));
    // Nobody is there to answer a dialog: dismissed, so a page cannot hang the tool with alert().
    page.on('dialog', (d) => { log(`[dialog ${d.type()}] ${d.message()} (dismissed)`); void d.dismiss().catch(() => undefined); });
    page.on('close', () => {
      this.tabs.delete(tab.id);
      if (this.current === tab.id) this.current = [...this.tabs.keys()].pop();
    });
    page.setDefaultTimeout(this.engine.limits.actionTimeoutMs);
    page.setDefaultNavigationTimeout(this.engine.limits.actionTimeoutMs);
    this.tabs.set(tab.id, tab);
    this.current = tab.id;
    return tab;
  }

  async closeTab(id: string): Promise<void> {
    const tab = this.tabs.get(id);
    if (!tab) throw new Error(`There is no tab ${id}: ${this.list()}`);
    await tab.page.close();
  }

  list(): string {
    if (this.tabs.size === 0) return 'no tabs are open';
    return [...this.tabs.values()].map((t) => `${t.id}${t.id === this.current ? ' (current)' : ''}: ${t.page.url()}`).join('; ');
  }
}

export class BrowserEngine {
  readonly limits: typeof BROWSER_LIMITS;
  readonly now: () => number;
  private readonly sessions = new Map<string, BrowserSession>();
  /** Hosts the pages asked for: a refusal is reported only when a page caused it (not Chromium's own update checks). */
  private pageHosts = new Set<string>();
  private sweeper?: NodeJS.Timeout;

  private constructor(
    private readonly browser: Browser | undefined,
    private readonly shared: BrowserContext | undefined,
    private readonly proxy: BrowserProxy,
    opts: BrowserEngineOptions,
    private readonly onClosed: () => void,
  ) {
    this.limits = { ...BROWSER_LIMITS, ...opts.limits };
    this.now = opts.now ?? Date.now;
    this.sweeper = setInterval(() => void this.closeIdle(), Math.min(60_000, this.limits.idleMs));
    this.sweeper.unref();
  }

  static async launch(opts: BrowserEngineOptions, onClosed: () => void): Promise<BrowserEngine> {
    const proxy = await startBrowserProxy(opts.policy);
    // Playwright sends loopback through the proxy too (it adds `<-loopback>` to the bypass list).
    const launch = { executablePath: opts.executablePath, headless: opts.headless, args: CHROMIUM_ARGS, proxy: { server: proxy.server }, timeout: 60_000 };
    const contextOptions = { acceptDownloads: false, serviceWorkers: 'block' as const, bypassCSP: false, javaScriptEnabled: true };
    try {
      if (opts.profile) {
        const shared = await chromium.launchPersistentContext(opts.profile, { ...launch, ...contextOptions });
        return new BrowserEngine(undefined, shared, proxy, opts, onClosed);
      }
      return new BrowserEngine(await chromium.launch(launch), undefined, proxy, opts, onClosed);
    } catch (e) {
      await proxy.close();
      throw new Error(`${opts.executablePath} could not be started: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  async session(key: string): Promise<BrowserSession> {
    let s = this.sessions.get(key);
    if (!s) {
      const context = this.shared ?? await this.browser!.newContext({ acceptDownloads: false, serviceWorkers: 'block' });
      s = new BrowserSession(context, this);
      const session = s;
      if (!this.shared || this.sessions.size === 0) context.on('request', (r) => this.notePageHost(r.url()));
      context.on('page', (page) => {
        // A popup opened by one of this session's pages (its opener is one of them).
        void page.opener().then((opener) => {
          if (opener && [...session.tabs.values()].some((t) => t.page === opener) && ![...session.tabs.values()].some((t) => t.page === page)) {
            try { session.adopt(page); } catch { /* closed: over the limit */ }
          }
        });
      });
      this.sessions.set(key, s);
    }
    return s;
  }

  existing(key: string): BrowserSession | undefined {
    return this.sessions.get(key);
  }

  /** Requests of the pages that the proxy refused since the last call. */
  refusals(): BrowserRefusal[] {
    return this.proxy.take().filter((r) => this.pageHosts.has(hostOf(r.url)));
  }

  private notePageHost(url: string): void {
    if (this.pageHosts.size >= 1000) this.pageHosts = new Set();
    this.pageHosts.add(hostOf(url));
  }

  async closeSession(key: string): Promise<void> {
    const s = this.sessions.get(key);
    if (!s) return;
    this.sessions.delete(key);
    if (this.shared) await Promise.all([...s.tabs.values()].map((t) => t.page.close().catch(() => undefined)));
    else await s.context.close().catch(() => undefined);
    if (this.sessions.size === 0) await this.close();
  }

  /** Closes pages idle longer than the limit, then sessions without pages, then the browser if none is left. */
  async closeIdle(): Promise<void> {
    const cutoff = this.now() - this.limits.idleMs;
    for (const [key, s] of [...this.sessions]) {
      await Promise.all([...s.tabs.values()].filter((t) => t.lastUsed < cutoff).map((t) => t.page.close().catch(() => undefined)));
      if (s.tabs.size === 0) await this.closeSession(key);
    }
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.sessions.clear();
    await (this.shared ?? this.browser)?.close().catch(() => undefined);
    await this.proxy.close();
    this.onClosed();
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
