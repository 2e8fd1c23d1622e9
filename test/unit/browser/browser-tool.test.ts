// The browser tool driving a real headless Chromium against loopback servers. Benign: forms, clicks,
// selects, tabs, console, screenshots, evaluate after approval. Hostile: navigations and redirects to
// loopback, metadata and private addresses, a name that resolves to a private address, scripts, images
// and location changes that reach for private addresses or file:, a page that never finishes loading,
// a cancelled call. The test servers are loopback too, so they are reachable only through the explicit
// test allowance (loopbackPorts: their own ports, nothing else on loopback).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createBrowserTool, type BrowserToolDeps } from '../../../src/core/browser/browser-tool';
import type { ToolContext, ToolResult } from '../../../src/core/tools/types';
import type { Resolver } from '../../../src/core/web/ssrf-guard';
import { readWebConfig } from '../../../src/core/web/web-config';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
interface Site { port: number; base: string; requests: string[]; stop(): Promise<void> }

async function serve(handler: Handler): Promise<Site> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => { requests.push(req.url ?? ''); handler(req, res); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { port, base: `http://127.0.0.1:${port}`, requests, stop: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

const html = (body: string, title = 'Crab shop') => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

function browserContext(sessionKey: string, signal: AbortSignal = new AbortController().signal): ToolContext {
  return { sessionKey, agentId: 'default', channel: 'test', subagentDepth: 0, isOwner: true, signal, deadline: Date.now() + 120_000, workspaceTrusted: true };
}

/** The ref of the first snapshot line matching `line` (e.g. /button "Order"/). */
function ref(r: ToolResult, line: RegExp): string {
  const m = r.forLLM.split('\n').find((l) => line.test(l))?.match(/\[ref=(\w+)\]/);
  assert.ok(m, `no element matching ${line} in:\n${r.forLLM}`);
  return m[1];
}

describe('browser: a real Chromium behind the SSRF policy', function () {
  this.timeout(90_000);
  const ports: number[] = [];
  const sites: Site[] = [];
  const sessions = new Set<string>();
  const asked: string[] = [];
  let allowEvaluate = false;
  // Made-up names: one public-looking (mapped to the test server), one resolving to a private address.
  let publicPort = 0;
  const resolve: Resolver = async (h) => (h === 'crabs.example' ? [{ address: '127.0.0.1', family: 4 }] : h === 'intranet.example' ? [{ address: '10.1.2.3', family: 4 }] : []);
  const deps: BrowserToolDeps = {
    config: () => readWebConfig((k) => (k === 'browser.executablePath' ? CHROMIUM : undefined), () => undefined),
    loopbackPorts: ports, resolve, limits: { actionTimeoutMs: 4_000 },
    screenshotDir: fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-browser-test-')),
    askEvaluate: async (expression) => { asked.push(expression); return allowEvaluate ? undefined : 'The user did not allow it.'; },
  };
  const tool = createBrowserTool(deps);
  const run = (session: string, args: Record<string, unknown>, signal?: AbortSignal) => {
    sessions.add(session);
    return tool.execute(args as never, browserContext(session, signal));
  };
  const open = async (h: Handler, allowed = true) => {
    const s = await serve(h);
    sites.push(s);
    if (allowed) ports.push(s.port);
    return s;
  };
  afterEach(async () => { await Promise.all(sites.splice(0).map((s) => s.stop())); ports.length = 0; });
  after(async () => { for (const s of sessions) await tool.execute({ action: 'close' } as never, browserContext(s)); });

  it('fills and submits a form by refs, selects an option, and reads the next page', async () => {
    const site = await open((req, res) => {
      res.setHeader('content-type', 'text/html');
      if (req.url!.startsWith('/order?')) { const q = new URL(req.url!, 'http://x').searchParams; res.end(html(`<h1>Ordered ${q.get('qty')} ${q.get('crab')} for ${q.get('name')}</h1>`, 'Thanks')); return; }
      res.end(html(`<h1>Order a crab</h1><form action="/order"><label>Name <input name="name"></label>
        <label>Crab <select name="crab"><option value="shore">Shore crab</option><option value="edible">Edible crab</option></select></label>
        <label>Quantity <input name="qty" value="1"></label><button type="submit">Order</button></form>`));
    });
    const first = await run('s-form', { action: 'navigate', url: `${site.base}/` });
    assert.equal(first.isError, false, first.forLLM);
    assert.match(first.forLLM, /^<<<EXTERNAL_UNTRUSTED_CONTENT/);
    assert.match(first.forLLM, /Title: Crab shop/);
    assert.match(first.forLLM, /heading "Order a crab"/);
    await run('s-form', { action: 'type', ref: ref(first, /textbox "Name"/), text: 'Ada' });
    await run('s-form', { action: 'select', ref: ref(first, /combobox "Crab"/), values: ['Edible crab'] });
    await run('s-form', { action: 'type', ref: ref(first, /textbox "Quantity"/), text: '3' });
    const done = await run('s-form', { action: 'click', ref: ref(first, /button "Order"/) });
    assert.equal(done.isError, false, done.forLLM);
    assert.match(done.forLLM, /Title: Thanks/);
    assert.match(done.forLLM, /heading "Ordered 3 edible for Ada"/);
  });

  it('opens a public-looking name through the proxy, which resolves it itself (the injected resolver) and connects to that address', async () => {
    const site = await open((_q, res) => { res.setHeader('content-type', 'text/html'); res.end(html('<p>public page</p>', 'Public')); });
    publicPort = site.port;
    const r = await run('s-public', { action: 'navigate', url: `http://crabs.example:${publicPort}/` });
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /Title: Public/);
    assert.equal(site.requests[0], '/');
  });

  it('refuses loopback, metadata, private, file: and credential URLs before the browser opens them', async () => {
    const internal = await open((_q, res) => res.end('internal admin'), false);
    for (const url of [`http://127.0.0.1:${internal.port}/`, `http://localhost:${internal.port}/`, 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:127.0.0.1]/',
      'http://0x7f000001/', 'http://10.0.0.1/', 'http://intranet.example/', 'file:///etc/passwd', 'http://user:pw@crabs.example/', 'chrome://settings']) {
      const r = await run('s-hostile', { action: 'navigate', url });
      assert.equal(r.outcome, 'denied', `${url}: ${r.forLLM}`);
    }
    assert.equal(internal.requests.length, 0);
  });

  it('refuses a redirect to metadata, to another loopback port and to a name resolving to a private address', async () => {
    const internal = await open((_q, res) => res.end('internal admin'), false);
    const targets = ['http://169.254.169.254/latest/meta-data/', `http://127.0.0.1:${internal.port}/admin`, 'http://intranet.example/'];
    const site = await open((req, res) => { res.writeHead(302, { location: targets[Number(req.url!.slice(1))] }); res.end(); });
    for (let i = 0; i < targets.length; i++) {
      const r = await run('s-redirect', { action: 'navigate', url: `${site.base}/${i}` });
      assert.equal(r.outcome, 'denied', `${targets[i]}: ${r.forLLM}`);
      assert.match(r.forLLM, /led to .*which was refused/);
    }
    assert.equal(internal.requests.length, 0);
  });

  it('blocks what a page\'s own scripts, images and location changes reach for, and says so', async () => {
    const internal = await open((_q, res) => res.end('secret'), false);
    const site = await open((_q, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(html(`<p id="out">waiting</p><img src="http://10.0.0.1/pixel.png" alt="">
        <button onclick="location.href='http://169.254.169.254/latest/meta-data/'">Metadata</button>
        <button onclick="location.href='file:///etc/passwd'">Passwd</button>
        <script>Promise.allSettled([fetch('http://127.0.0.1:${internal.port}/secret'), fetch('http://intranet.example/')])
          .then((r) => { document.getElementById('out').textContent = 'fetches: ' + r.map((x) => x.status).join(','); });</script>`));
    });
    const r = await run('s-scripts', { action: 'navigate', url: `${site.base}/` });
    assert.equal(r.isError, false, r.forLLM);
    const again = await run('s-scripts', { action: 'snapshot' });
    assert.match(r.forLLM + again.forLLM, /fetches: rejected,rejected/);
    assert.match(r.forLLM + again.forLLM, /Blocked request: http:\/\/10\.0\.0\.1\/pixel\.png — .*private-network/);
    const meta = await run('s-scripts', { action: 'click', ref: ref(r, /button "Metadata"/) });
    assert.match(meta.forLLM, /Blocked request: http:\/\/169\.254\.169\.254\/latest\/meta-data\//);
    const back = await run('s-scripts', { action: 'navigate', url: `${site.base}/` });
    const passwd = await run('s-scripts', { action: 'click', ref: ref(back, /button "Passwd"/) });
    assert.doesNotMatch(passwd.forLLM, /root:x:0:0/);
    assert.doesNotMatch(passwd.forLLM, /Tab t\d+: file:/);
    assert.equal(internal.requests.length, 0);
  });

  it('returns what a page that never finishes loading shows, and a cancelled call stops at once', async () => {
    let arrived!: () => void;
    const requested = new Promise<void>((r) => { arrived = r; });
    const site = await open((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write(html('<h1>Still loading</h1>').replace('</body></html>', ''));
      if (req.url === '/cancel') arrived();
    });
    const slow = await run('s-slow', { action: 'navigate', url: `${site.base}/never` });
    assert.equal(slow.isError, false, slow.forLLM);
    assert.match(slow.forLLM, /had not finished loading/);
    assert.match(slow.forLLM, /heading "Still loading"/);
    const abort = new AbortController();
    const pending = run('s-slow', { action: 'navigate', url: `${site.base}/cancel` }, abort.signal);
    await requested;
    abort.abort();
    assert.equal((await pending).outcome, 'cancelled');
  });

  it('asks before evaluate: refused, the script does not run; allowed, its value comes back', async () => {
    const site = await open((_q, res) => { res.setHeader('content-type', 'text/html'); res.end(html('<p>x</p>', 'Before')); });
    await run('s-eval', { action: 'navigate', url: `${site.base}/` });
    allowEvaluate = false;
    const no = await run('s-eval', { action: 'evaluate', expression: 'document.title = "ran"' });
    assert.equal(no.outcome, 'rejected-by-user');
    assert.match((await run('s-eval', { action: 'snapshot' })).forLLM, /Title: Before/);
    allowEvaluate = true;
    const yes = await run('s-eval', { action: 'evaluate', expression: '({ title: document.title, sum: 2 + 3 })' });
    assert.equal(yes.isError, false, yes.forLLM);
    assert.match(yes.forLLM, /"title": "Before"[\s\S]*"sum": 5/);
    assert.deepEqual(asked, ['document.title = "ran"', '({ title: document.title, sum: 2 + 3 })']);
  });

  it('keeps tabs per session (at most five), console messages, screenshots to a file, and a fresh context per session', async () => {
    const site = await open((req, res) => {
      res.setHeader('content-type', 'text/html');
      if (req.url === '/set') res.setHeader('set-cookie', 'crab=1');
      res.end(html(`<p>cookies: <span id="c"></span></p><script>console.log('hello from ' + location.pathname); document.getElementById('c').textContent = document.cookie || 'none';</script>`));
    });
    await run('s-tabs', { action: 'navigate', url: `${site.base}/set` });
    const console1 = await run('s-tabs', { action: 'console' });
    assert.match(console1.forLLM, /\[log\] hello from \/set/);
    const shot = await run('s-tabs', { action: 'screenshot' });
    assert.equal(shot.isError, false, shot.forLLM);
    assert.ok(fs.statSync(String(shot.details?.file)).size > 100);
    assert.equal(fs.readFileSync(String(shot.details?.file)).subarray(1, 4).toString(), 'PNG');
    // The model sees it as an image: the saved file's bytes (a viewport is within the limits).
    assert.match(shot.forLLM, /The image follows\.$/);
    assert.equal(shot.images?.length, 1);
    assert.ok(Buffer.from(shot.images![0].data, 'base64').equals(fs.readFileSync(String(shot.details?.file))));
    for (let i = 2; i <= 5; i++) assert.equal((await run('s-tabs', { action: 'tabs', tabAction: 'open' })).isError, false);
    const sixth = await run('s-tabs', { action: 'tabs', tabAction: 'open' });
    assert.match(sixth.forLLM, /already has 5 pages open/);
    await run('s-tabs', { action: 'tabs', tabAction: 'close', tab: 't5' });
    assert.doesNotMatch((await run('s-tabs', { action: 'tabs' })).forLLM, /t5/);
    // Another session shares nothing: the cookie set above is not there.
    const other = await run('s-other', { action: 'navigate', url: `${site.base}/read` });
    assert.match(other.forLLM, /cookies: none/);
    const same = await run('s-tabs', { action: 'navigate', url: `${site.base}/read` });
    assert.match(same.forLLM, /cookies: crab=1/);
  });

  it('says how to install a browser, and which setting to set, when none is found', async () => {
    const missing = createBrowserTool({ ...deps, config: () => readWebConfig((k) => (k === 'browser.executablePath' ? '/nonexistent/chrome' : undefined), () => undefined) });
    const r = await missing.execute({ action: 'snapshot' } as never, browserContext('s-missing'));
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /\/nonexistent\/chrome.*not an executable file/);
    assert.match(r.forLLM, /install Chromium.*pincer\.browser\.executablePath/);
  });
});
