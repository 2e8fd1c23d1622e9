// A GET that follows redirects itself, so that every hop — not only the URL the model gave — passes the
// SSRF check and connects to the address that check approved. A page that redirects to 127.0.0.1 or
// the metadata service is refused at that hop.
import type http from 'node:http';
import { requestOnce } from './pinned-request';
import { checkUrl, WebRefusal, type CheckedUrl, type SsrfOptions } from './ssrf-guard';

export const PINCER_USER_AGENT = 'Mozilla/5.0 (compatible; Pincer/0.1; +agent tool runtime for VS Code) web_fetch';

export interface GuardedFetchOptions extends SsrfOptions {
  signal: AbortSignal;
  maxBytes: number;
  maxRedirects: number;
  /** What the caller accepts (sent as the Accept header). */
  accept?: string;
}

export interface FetchedPage {
  /** The URL of the last hop, the one whose body this is. */
  finalUrl: string;
  status: number;
  contentType: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
  /** Every URL requested, the first one included. */
  chain: string[];
}

export async function guardedFetch(rawUrl: string, opts: GuardedFetchOptions): Promise<FetchedPage> {
  const chain: string[] = [];
  let next: string | URL = rawUrl;
  for (let hop = 0; ; hop++) {
    const checked: CheckedUrl = await checkUrl(next, opts).catch((e: unknown) => {
      if (hop === 0 || !(e instanceof WebRefusal)) throw e;
      throw new WebRefusal(`${chain[chain.length - 1]} redirected to ${String(next)}, which is refused: ${e.message}`);
    });
    chain.push(checked.url.href);
    // No cookies and no credentials of the person's: only what any anonymous reader would send.
    const res = await requestOnce(checked, {
      signal: opts.signal, maxBytes: opts.maxBytes,
      headers: {
        'User-Agent': PINCER_USER_AGENT, Accept: opts.accept ?? '*/*', 'Accept-Encoding': 'gzip, deflate, br',
        'Accept-Language': 'en;q=0.9, *;q=0.5',
      },
    });
    const location = res.status >= 300 && res.status < 400 ? res.headers.location : undefined;
    if (location === undefined) {
      return {
        finalUrl: checked.url.href, status: res.status, contentType: String(res.headers['content-type'] ?? ''),
        headers: res.headers, body: res.body, truncated: res.truncated, chain,
      };
    }
    if (hop >= opts.maxRedirects) {
      throw new WebRefusal(`Too many redirects (more than ${opts.maxRedirects}): ${[...chain, location].join(' → ')}`);
    }
    try {
      next = new URL(location, checked.url);
    } catch {
      throw new WebRefusal(`${checked.url.href} redirected to "${location}", which is not a valid URL.`);
    }
  }
}
