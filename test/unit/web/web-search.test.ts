// web_search against a loopback server that speaks each provider's real format (Exa, Tavily and
// Brave JSON, DuckDuckGo's HTML page) and their error answers: the order, the fall-through on 401,
// 429, a timeout and a bad answer, DuckDuckGo as the keyless last resort, and cancel.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolContext } from '../../../src/core/tools/types';
import { readWebConfig, type SearchProviderId } from '../../../src/core/web/web-config';
import { createWebSearchTool } from '../../../src/core/web/web-search';

interface Seen { path: string; headers: http.IncomingHttpHeaders; body: string }
type Reply = (res: http.ServerResponse) => void;

const json = (status: number, value: unknown): Reply => (res) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(value)); };
const never: Reply = () => undefined;

const EXA_OK = json(200, { requestId: 'r1', resolvedSearchType: 'neural', results: [
  { id: 'https://crabs.example/shore', title: 'Shore crabs', url: 'https://crabs.example/shore', publishedDate: '2026-03-01T00:00:00.000Z', author: null, highlights: ['Shore crabs live in rock pools.'], highlightScores: [0.4] },
] });
const EXA_401 = json(401, { requestId: 'r2', error: 'Invalid API key', tag: 'INVALID_API_KEY' });
const TAVILY_429 = json(429, { detail: { error: 'Rate limit exceeded. Please upgrade your plan.' } });
const BRAVE_OK = json(200, { type: 'search', query: { original: 'crabs' }, web: { type: 'search', family_friendly: true, results: [
  { type: 'search_result', title: 'The <strong>Crab</strong> Atlas', url: 'https://atlas.example/crabs', description: 'Every <strong>crab</strong> of the North Sea &amp; the Baltic.', age: '3 days ago', meta_url: { hostname: 'atlas.example' } },
  { type: 'search_result', title: 'Edible crab', url: 'https://fish.example/edible', description: 'Cancer pagurus.' },
] } });
const BRAVE_422 = json(422, { type: 'ErrorResponse', error: { id: 'x', status: 422, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' }, time: 1 });
const DDG_PAGE = `<!DOCTYPE html><html><body><div class="serp__results"><div id="links" class="results">
<div class="result results_links results_links_deep result--ad"><div class="links_main links_deep result__body">
<h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=shop.example">Buy crabs</a></h2>
<a class="result__snippet" href="#">Cheap crabs today</a></div></div>
${[1, 2, 3, 4, 5, 6, 7].map((i) => `<div class="result results_links results_links_deep web-result"><div class="links_main links_deep result__body">
<h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fwiki.example%2Fcrab${i}%3Fa%3D1%26b%3D2&amp;rut=abc">Crab <b>page</b> ${i}</a></h2>
<div class="result__extras"><div class="result__extras__url"><a class="result__url" href="#">wiki.example/crab${i}</a></div></div>
<a class="result__snippet" href="#">About <b>crabs</b>, part ${i}.</a></div></div>`).join('\n')}
</div></div></body></html>`;
const DDG_OK: Reply = (res) => { res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }); res.end(DDG_PAGE); };
const DDG_ANOMALY: Reply = (res) => { res.writeHead(202, { 'content-type': 'text/html' }); res.end('<html><body><form id="challenge-form" action="//duckduckgo.com/anomaly.js"></form></body></html>'); };

function ctx(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { sessionKey: 'test:web', agentId: 'default', channel: 'test', subagentDepth: 0, isOwner: true, signal, deadline: Date.now() + 60_000, workspaceTrusted: true };
}

describe('web: web_search', () => {
  let server: http.Server;
  let base = '';
  let replies: Partial<Record<string, Reply>> = {};
  let seen: Seen[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        const path = new URL(req.url!, 'http://x').pathname;
        seen.push({ path, headers: req.headers, body });
        (replies[path] ?? json(500, { error: 'no reply set' }))(res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => { server.closeAllConnections(); server.close(); });
  beforeEach(() => { replies = {}; seen = []; });

  function searchTool(keys: Partial<Record<SearchProviderId, string>>, settings: Record<string, unknown> = {}, providerTimeoutMs?: number) {
    return createWebSearchTool({
      config: () => readWebConfig((k) => settings[k], () => undefined), key: async (p) => keys[p], providerTimeoutMs,
      endpoints: { exa: `${base}/exa`, tavily: `${base}/tavily`, brave: `${base}/brave/res/v1/web/search`, duckduckgo: `${base}/ddg` },
    });
  }

  it('asks Exa first when it has a key, with the key in its header, and says Exa answered', async () => {
    replies = { '/exa': EXA_OK };
    const r = await searchTool({ exa: 'exa-key-1', brave: 'brave-key' }).execute({ query: 'crabs', count: 3 }, ctx());
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /^Results from Exa for "crabs":/);
    assert.match(r.forLLM, /1\. Shore crabs\n {3}https:\/\/crabs\.example\/shore\n {3}Shore crabs live in rock pools\.\n {3}Age: 2026-03-01/);
    assert.match(r.forLLM, /<<<EXTERNAL_UNTRUSTED_CONTENT source="web_search:Exa">>>/);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].headers['x-api-key'], 'exa-key-1');
    assert.deepEqual({ q: JSON.parse(seen[0].body).query, n: JSON.parse(seen[0].body).numResults }, { q: 'crabs', n: 3 });
    assert.equal(r.details?.provider, 'exa');
  });

  it('falls through a refused key (401) and a rate limit (429) to Brave, naming what failed and why', async () => {
    replies = { '/exa': EXA_401, '/tavily': TAVILY_429, '/brave/res/v1/web/search': BRAVE_OK };
    const r = await searchTool({ exa: 'bad', tavily: 'tvly-key', brave: 'brave-key' }).execute({ query: 'crabs' }, ctx());
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /^Results from Brave .*Exa answered HTTP 401: Invalid API key; Tavily answered HTTP 429: Rate limit exceeded/);
    assert.match(r.forLLM, /1\. The Crab Atlas\n {3}https:\/\/atlas\.example\/crabs\n {3}Every crab of the North Sea & the Baltic\.\n {3}Age: 3 days ago/);
    assert.match(r.forLLM, /2\. Edible crab/);
    assert.deepEqual(seen.map((s) => s.path), ['/exa', '/tavily', '/brave/res/v1/web/search']);
    assert.equal(seen[1].headers.authorization, 'Bearer tvly-key');
    assert.equal(seen[2].headers['x-subscription-token'], 'brave-key');
  });

  it('uses DuckDuckGo when no key is set: ads skipped, real URLs unwrapped, count kept', async () => {
    replies = { '/ddg': DDG_OK };
    const r = await searchTool({}).execute({ query: 'crab facts', count: 5 }, ctx());
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /^Results from DuckDuckGo .*Exa: no key set; Tavily: no key set; Brave: no key set/);
    assert.match(r.forLLM, /1\. Crab page 1\n {3}https:\/\/wiki\.example\/crab1\?a=1&b=2\n {3}About crabs, part 1\./);
    assert.doesNotMatch(r.forLLM, /Buy crabs|y\.js/);
    assert.match(r.forLLM, /5\. Crab page 5/);
    assert.doesNotMatch(r.forLLM, /6\. Crab page 6/);
    assert.equal(new URLSearchParams(seen[0].body).get('q'), 'crab facts');
  });

  it('moves on from a provider that does not answer in time, and from one that answers in the wrong shape', async () => {
    replies = { '/brave/res/v1/web/search': never, '/exa': json(200, { nothing: true }), '/ddg': DDG_OK };
    const r = await searchTool({ brave: 'k', exa: 'k' }, { 'web.searchProviders': ['brave', 'exa'] }, 300).execute({ query: 'crabs' }, ctx());
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /Brave did not answer in time; Exa answered in an unexpected shape/);
    assert.deepEqual(seen.map((s) => s.path), ['/brave/res/v1/web/search', '/exa', '/ddg']);
  });

  it('keeps DuckDuckGo last in every order, even when the setting leaves it out or puts it first', () => {
    const order = (v: unknown) => readWebConfig((k) => (k === 'web.searchProviders' ? v : undefined), () => undefined).searchProviders;
    assert.deepEqual(order(undefined), ['exa', 'tavily', 'brave', 'duckduckgo']);
    assert.deepEqual(order(['brave']), ['brave', 'duckduckgo']);
    assert.deepEqual(order(['duckduckgo', 'tavily']), ['tavily', 'duckduckgo']);
    const warnings: string[] = [];
    readWebConfig((k) => (k === 'web.searchProviders' ? ['google'] : undefined), (m) => warnings.push(m));
    assert.match(warnings[0], /pincer\.web\.searchProviders is invalid/);
  });

  it('fails, naming every provider, when none answers (DuckDuckGo\'s bot check included)', async () => {
    replies = { '/brave/res/v1/web/search': BRAVE_422, '/ddg': DDG_ANOMALY };
    const r = await searchTool({ brave: 'stale' }).execute({ query: 'crabs' }, ctx());
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /No search provider answered: .*Brave answered HTTP 422: The provided subscription token is invalid\.; DuckDuckGo asked for a bot check/);
  });

  it('stops when cancelled instead of asking the next provider', async () => {
    replies = { '/exa': never, '/ddg': DDG_OK };
    const abort = new AbortController();
    const pending = searchTool({ exa: 'k' }).execute({ query: 'crabs' }, ctx(abort.signal));
    await new Promise<void>((r) => { const poll = () => (seen.length ? r() : setImmediate(poll)); poll(); });
    abort.abort();
    const r = await pending;
    assert.equal(r.outcome, 'cancelled');
    assert.deepEqual(seen.map((s) => s.path), ['/exa']);
  });
});
