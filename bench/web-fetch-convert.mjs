// web-fetch-convert: what web_fetch costs on a 1 MB article page served from loopback.
//  - web-fetch-convert: HTML → markdown (htmlparser2 read once, main content chosen, markdown written),
//    median; goal <= 50 ms. Reference in the same run: htmlparser2 reading the same HTML with handlers
//    that do nothing (the floor of any converter built on it), so a loaded machine shows as such.
//    Beside it: the same conversion through web_fetch's worker (src/core/web/html-converter.ts) and
//    the longest the calling thread (the extension host's, in the editor) was blocked meanwhile.
//  - web-fetch-overhead: the guarded download (SSRF check, pinned connection, byte cap) against a plain
//    fetch() of the same page; goal ratio <= 1.5. The whole tool call (download + convert) is recorded beside.
// Code from `${PINCER_OUT:-out}` (compiled by `npm run compile`, or a helper's own outDir).
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { articlePage } from './lib/article-page.mjs';
import { median, record } from './lib/record.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(here, '..', process.env.PINCER_OUT ?? 'out');
const require = createRequire(import.meta.url);
const { htmlToMarkdown } = require(path.join(OUT, 'src', 'core', 'web', 'html-to-markdown.js'));
const { guardedFetch } = require(path.join(OUT, 'src', 'core', 'web', 'guarded-fetch.js'));
const { createWebFetchTool } = require(path.join(OUT, 'src', 'core', 'web', 'web-fetch.js'));
const { HtmlConverter } = require(path.join(OUT, 'src', 'core', 'web', 'html-converter.js'));
const { Parser } = require('htmlparser2');

const ROUNDS = 15;
const WARMUP = 3;

async function timed(fn) {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function rounds(fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const xs = [];
  for (let i = 0; i < ROUNDS; i++) xs.push(await timed(fn));
  return xs;
}

const html = articlePage(1024 * 1024);
const bytes = Buffer.byteLength(html);
const server = http.createServer((_q, res) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(html); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
const url = `http://127.0.0.1:${port}/article`;
const loadBefore = os.loadavg();

// Conversion, and htmlparser2 alone as the same-run reference, interleaved so both see the same load.
let chars = 0;
const convert = [];
const convertCpu = []; // CPU time beside wall time: on a loaded machine the wall clock counts others' turns
const parseOnly = [];
const parseAlone = () => new Parser({ onopentag() {}, ontext() {}, onclosetag() {} }).end(html);
for (let i = 0; i < WARMUP; i++) { htmlToMarkdown(html, url); parseAlone(); }
for (let i = 0; i < ROUNDS; i++) {
  const cpu = process.cpuUsage();
  convert.push(await timed(() => { chars = htmlToMarkdown(html, url).markdown.length; }));
  const used = process.cpuUsage(cpu);
  convertCpu.push((used.user + used.system) / 1000);
  parseOnly.push(await timed(parseAlone));
}
// Through the worker, as web_fetch converts: the caller's event loop delay is sampled every 5 ms.
const converter = new HtmlConverter();
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const viaWorker = await rounds(() => converter.convert(html, url));
delay.disable();
converter.dispose();

// Download: guarded vs plain fetch, interleaved so both see the same load.
const signal = new AbortController().signal;
const opts = { signal, maxBytes: 5 * 1024 * 1024, maxRedirects: 5, allowLoopback: { ports: [port] } };
const plain = [];
const guarded = [];
for (let i = 0; i < WARMUP; i++) { await (await fetch(url)).text(); await guardedFetch(url, opts); }
for (let i = 0; i < ROUNDS; i++) {
  plain.push(await timed(async () => (await fetch(url)).text()));
  guarded.push(await timed(() => guardedFetch(url, opts)));
}
const tool = createWebFetchTool({ config: () => ({ allowLocalhost: false, allowDomains: [], denyDomains: [], searchProviders: ['duckduckgo'] }), loopbackPorts: [port] });
const ctx = { sessionKey: 'bench', agentId: 'bench', channel: 'bench', subagentDepth: 0, isOwner: true, signal, deadline: Date.now() + 600_000, workspaceTrusted: true };
const whole = await rounds(async () => { const r = await tool.execute({ url, fresh: true }, ctx); if (r.isError) throw new Error(r.forLLM); });
server.close();

const corpus = `a generated 1 MB article page (${bytes.toLocaleString('en-US')} bytes → ${chars.toLocaleString('en-US')} chars of markdown), served from loopback`;
const convertMs = median(convert);
record({
  name: 'web-fetch-convert', unit: 'ms', value: convertMs, reference: 'htmlparser2 reading the page, handlers doing nothing', referenceValue: median(parseOnly),
  goal: 'median <= 50 ms', pass: convertMs <= 50, runs: ROUNDS, statistic: 'median', corpus, loadBefore,
  extra: { convertCpuMs: Math.round(median(convertCpu) * 10) / 10, viaWorkerMs: Math.round(median(viaWorker) * 10) / 10, callerBlockedMaxMs: Math.round(delay.max / 1e5) / 10 },
});
record({
  name: 'web-fetch-overhead', unit: 'ms', value: median(guarded), reference: 'plain fetch() of the same loopback page', referenceValue: median(plain),
  goal: 'ratio <= 1.5', pass: median(guarded) / median(plain) <= 1.5, runs: ROUNDS, statistic: 'median', corpus, loadBefore,
  extra: { wholeToolCallMs: Math.round(median(whole) * 1000) / 1000 },
});
