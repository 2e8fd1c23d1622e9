// Brave Search: GET /res/v1/web/search with the key in X-Subscription-Token; descriptions carry
// <strong> around the matched words, and `age` is given for dated pages.
import { z } from 'zod';
import { callProvider, htmlText, parseJson, SearchFailure, type SearchProvider } from './search-provider';

const answer = z.object({
  web: z.object({
    results: z.array(z.object({ title: z.string().nullish(), url: z.string(), description: z.string().nullish(), age: z.string().nullish(), page_age: z.string().nullish() })),
  }).optional(),
});

export const braveProvider: SearchProvider = {
  id: 'brave', label: 'Brave', needsKey: true, defaultEndpoint: 'https://api.search.brave.com/res/v1/web/search',
  async search(req) {
    const url = new URL(req.endpoint);
    url.searchParams.set('q', req.query);
    url.searchParams.set('count', String(req.count));
    const body = await callProvider('Brave', url.href, {
      method: 'GET', signal: req.signal, headers: { accept: 'application/json', 'x-subscription-token': req.key ?? '' },
    });
    const parsed = answer.safeParse(parseJson('Brave', body));
    if (!parsed.success) throw new SearchFailure('Brave answered in an unexpected shape');
    return (parsed.data.web?.results ?? []).map((r) => ({
      title: htmlText(r.title ?? r.url), url: r.url, snippet: htmlText(r.description ?? ''), age: r.age ?? r.page_age ?? undefined,
    }));
  },
};
