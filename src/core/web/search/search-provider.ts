// What every web search provider answers with, and how it fails. A provider that fails (a refused
// key, a rate limit, a timeout, an answer in a shape it never sends) throws SearchFailure, and
// web_search moves on to the next one.
import type { SearchProviderId } from '../web-config';

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
  /** How old the page is, when the provider says ("3 days ago", an ISO date). */
  age?: string;
}

export interface SearchRequest {
  query: string;
  count: number;
  /** The provider's API key; absent for a provider that needs none. */
  key?: string;
  signal: AbortSignal;
  /** The provider's endpoint; tests point it at a loopback server speaking the provider's format. */
  endpoint: string;
}

export interface SearchProvider {
  id: SearchProviderId;
  label: string;
  needsKey: boolean;
  defaultEndpoint: string;
  search(req: SearchRequest): Promise<SearchHit[]>;
}

export class SearchFailure extends Error {
  override readonly name = 'SearchFailure';
}

/** Sends the request and returns the body of a 2xx answer; anything else is a SearchFailure. */
export async function callProvider(label: string, url: string, init: RequestInit & { signal: AbortSignal }): Promise<string> {
  let res: Response;
  let body: string;
  try {
    res = await fetch(url, { ...init, redirect: 'error', headers: { 'User-Agent': 'Pincer web_search', ...init.headers } });
    body = await res.text();
  } catch (e) {
    // A timeout and a cancel both abort the signal; web_search tells them apart by its caller's signal.
    throw new SearchFailure(init.signal.aborted ? `${label} did not answer in time` : `${label} could not be reached: ${(e as Error).message}`);
  }
  if (!res.ok) throw new SearchFailure(`${label} answered HTTP ${res.status}${errorDetail(body)}`);
  return body;
}

/** The provider's own words for an error, from the JSON shapes they use, kept short. */
function errorDetail(body: string): string {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const e = j.error ?? j.detail ?? j.message;
    const text = typeof e === 'string' ? e : typeof e === 'object' && e ? String((e as Record<string, unknown>).detail ?? (e as Record<string, unknown>).error ?? (e as Record<string, unknown>).message ?? '') : '';
    return text ? `: ${text.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}

export function parseJson(label: string, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new SearchFailure(`${label} answered with something that is not JSON`);
  }
}

/**
 * linkedom's parseHTML, loaded by the first search that reads HTML: the runtime that every tool call
 * loads stays without a DOM (the build puts linkedom in dist/lazy-linkedom.js).
 */
export function parseHTML(html: string): ReturnType<typeof import('linkedom').parseHTML> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('linkedom') as typeof import('linkedom')).parseHTML(html);
}

/** Text of an HTML fragment (Brave marks matches with <strong>; entities decoded). */
export function htmlText(fragment: string): string {
  const { document } = parseHTML(`<!doctype html><html><body><p>${fragment}</p></body></html>`) as unknown as { document: { body: { textContent: string | null } } };
  return (document.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}
