// DuckDuckGo's HTML endpoint: no key, so it is the fallback that always remains. The answer is a page:
// each result is an `a.result__a` (its href goes through DuckDuckGo's redirector, the real URL in
// `uddg`) and an `.result__snippet`; ads are marked `result--ad` and skipped. A bot check answers
// with a page without results (an "anomaly" form), which is a failure, not "nothing found".
import { callProvider, parseHTML, SearchFailure, type SearchHit, type SearchProvider } from './search-provider';

interface Element {
  querySelector(s: string): Element | null;
  querySelectorAll(s: string): Iterable<Element>;
  getAttribute(n: string): string | null;
  classList: { contains(c: string): boolean };
  textContent: string | null;
}

function realUrl(href: string): string | undefined {
  try {
    const u = new URL(href, 'https://duckduckgo.com/');
    const target = u.hostname.endsWith('duckduckgo.com') && u.pathname === '/l/' ? u.searchParams.get('uddg') : u.href;
    return target && /^https?:\/\//i.test(target) ? target : undefined;
  } catch {
    return undefined;
  }
}

export function parseDuckDuckGo(html: string, count: number): SearchHit[] {
  const { document } = parseHTML(html) as unknown as { document: Element };
  const hits: SearchHit[] = [];
  for (const result of document.querySelectorAll('.result')) {
    if (result.classList.contains('result--ad')) continue;
    const link = result.querySelector('a.result__a');
    const url = realUrl(link?.getAttribute('href') ?? '');
    if (!link || !url) continue;
    const text = (e: Element | null) => (e?.textContent ?? '').replace(/\s+/g, ' ').trim();
    hits.push({ title: text(link) || url, url, snippet: text(result.querySelector('.result__snippet')) });
    if (hits.length >= count) break;
  }
  if (hits.length === 0 && /anomaly|captcha/i.test(html)) throw new SearchFailure('DuckDuckGo asked for a bot check instead of answering');
  return hits;
}

export const duckDuckGoProvider: SearchProvider = {
  id: 'duckduckgo', label: 'DuckDuckGo', needsKey: false, defaultEndpoint: 'https://html.duckduckgo.com/html/',
  async search(req) {
    const body = await callProvider('DuckDuckGo', req.endpoint, {
      method: 'POST', signal: req.signal,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ q: req.query, kl: 'wt-wt' }).toString(),
    });
    return parseDuckDuckGo(body, req.count);
  },
};
