// Exa: POST /search with the key in x-api-key; highlights are the snippets.
import { z } from 'zod';
import { callProvider, parseJson, SearchFailure, type SearchProvider } from './search-provider';

const answer = z.object({
  results: z.array(z.object({
    title: z.string().nullish(), url: z.string(), publishedDate: z.string().nullish(),
    highlights: z.array(z.string()).nullish(), text: z.string().nullish(), summary: z.string().nullish(),
  })),
});

export const exaProvider: SearchProvider = {
  id: 'exa', label: 'Exa', needsKey: true, defaultEndpoint: 'https://api.exa.ai/search',
  async search(req) {
    const body = await callProvider('Exa', req.endpoint, {
      method: 'POST', signal: req.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': req.key ?? '' },
      body: JSON.stringify({ query: req.query, numResults: req.count, type: 'auto', contents: { highlights: { maxCharacters: 500 } } }),
    });
    const parsed = answer.safeParse(parseJson('Exa', body));
    if (!parsed.success) throw new SearchFailure('Exa answered in an unexpected shape');
    return parsed.data.results.map((r) => ({
      title: r.title ?? r.url, url: r.url,
      snippet: (r.highlights?.join(' … ') || r.summary || r.text || '').slice(0, 500), age: r.publishedDate ?? undefined,
    }));
  },
};
