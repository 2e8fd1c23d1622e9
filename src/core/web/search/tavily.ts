// Tavily: POST /search with the key as a bearer token; `content` is the snippet.
import { z } from 'zod';
import { callProvider, parseJson, SearchFailure, type SearchProvider } from './search-provider';

const answer = z.object({
  results: z.array(z.object({ title: z.string().nullish(), url: z.string(), content: z.string().nullish(), published_date: z.string().nullish() })),
});

export const tavilyProvider: SearchProvider = {
  id: 'tavily', label: 'Tavily', needsKey: true, defaultEndpoint: 'https://api.tavily.com/search',
  async search(req) {
    const body = await callProvider('Tavily', req.endpoint, {
      method: 'POST', signal: req.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${req.key ?? ''}` },
      body: JSON.stringify({ query: req.query, max_results: req.count, search_depth: 'basic', include_answer: false }),
    });
    const parsed = answer.safeParse(parseJson('Tavily', body));
    if (!parsed.success) throw new SearchFailure('Tavily answered in an unexpected shape');
    return parsed.data.results.map((r) => ({ title: r.title ?? r.url, url: r.url, snippet: (r.content ?? '').slice(0, 500), age: r.published_date ?? undefined }));
  },
};
