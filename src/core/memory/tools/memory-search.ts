// memory_search: finds memory by words (BM25 over the full-text index) and, when an embeddings
// endpoint is configured, by meaning (vectors, fused by reciprocal rank). Returns L1 hits: short
// abstracts with ids, paths and line ranges; memory_expand gives a hit's full text (L2).
import { z } from 'zod';
import { defineTool, ok, type Tool } from '../../tools/types';
import type { MemoryApi, SearchResult } from '../memory-store';
import { levelLabel, type MemoryToolEnv } from '../memory-tools';
import { type Scope, type SearchHit } from '../types';

const parameters = z.object({
  query: z.string().min(1).describe('What to look for: a few distinctive words (names, terms, dates) work best.'),
  path: z.string().optional().describe('Only documents under this folder or matching this glob (e.g. "memory/projects" or "memory/**/2026-*.md").'),
  scope: z.enum(['user', 'agent', 'all']).optional().describe('user: only your own documents; agent: only the shared ones; all (default): both, your copy of a document replacing the shared one.'),
  limit: z.number().int().min(1).max(50).optional().describe('Most hits to return (default 8, at most 50).'),
}).strict();

const description =
  'Searches this agent\'s memory (MEMORY.md, memory.md, memory/**) and returns the best-matching passages: id, path:lines, heading, a short abstract and why it matched. ' +
  'Use it first whenever you need something you may have noted before (decisions, preferences, facts about people or projects). ' +
  'Then call memory_expand with a hit\'s id for its full text, or memory_get with its path (and offset) for the lines around it.';

/** The result stays well inside a model's budget however long the abstracts are. */
const MAX_RESULT_CHARS = 12_000;
const KEYWORD_ONLY_NOTE = 'Note: memory search is keyword-only (BM25); set pincer.memory.embeddings.baseUrl and pincer.memory.embeddings.model to also search by meaning.';
/** Stores whose first keyword-only search already said so: the note is said once per store. */
const noted = new WeakSet<MemoryApi>();

function why(h: SearchHit): string {
  const parts: string[] = [];
  if (h.why.terms.length) parts.push(`matched: ${h.why.terms.join(', ')}`);
  if (h.why.bm25) parts.push(`bm25 #${h.why.bm25.rank}`);
  if (h.why.vector) parts.push(`vector #${h.why.vector.rank} (similarity ${h.why.vector.similarity.toFixed(2)})`);
  return parts.join(' · ');
}

function formatHit(n: number, h: SearchHit, scope: Scope): string {
  const range = h.startLine === h.endLine ? `${h.startLine}` : `${h.startLine}-${h.endLine}`;
  const level = h.userId === '' && scope.userId ? ' (shared)' : h.userId !== scope.userId ? ` (${levelLabel(h.userId, scope)})` : '';
  return `[${n}] id ${h.id} · ${h.path}:${range}${level}${h.heading ? ` · ${h.heading}` : ''}\n` +
    `    ${h.abstract}\n    score ${h.score.toPrecision(3)} · ${why(h)}`;
}

export function formatSearch(query: string, r: SearchResult, scope: Scope, keywordNote: boolean): { text: string; shown: number } {
  const notes = [r.note, keywordNote ? KEYWORD_ONLY_NOTE : undefined].filter(Boolean).join('\n');
  if (!r.hits.length) {
    const words = r.terms.length ? ` (searched for: ${r.terms.join(', ')})` : ' (it has no searchable words)';
    return {
      text: `No memory matches "${query.slice(0, 200)}"${words}. Try other or fewer words, a synonym or a broader term, or drop the path/scope filter; ` +
        `memory_get MEMORY.md reads the main memory file.${notes ? `\n${notes}` : ''}`,
      shown: 0,
    };
  }
  const mode = r.mode === 'hybrid' ? 'keyword + vector search' : 'keyword search';
  const out: string[] = [];
  let size = 0;
  for (const [i, h] of r.hits.entries()) {
    const block = formatHit(i + 1, h, scope);
    if (size + block.length > MAX_RESULT_CHARS && out.length) break;
    out.push(block);
    size += block.length + 1;
  }
  const cut = out.length < r.hits.length ? `\n[${r.hits.length - out.length} more hits were left out to keep this short; narrow the query or the path.]` : '';
  const head = `${r.hits.length} memory hit${r.hits.length === 1 ? '' : 's'} for "${query.slice(0, 200)}" (${mode}):`;
  const next = '\nUse memory_expand with a hit\'s id for its full text, or memory_get with its path and offset for the lines around it.';
  return { text: `${head}\n${out.join('\n')}${cut}${next}${notes ? `\n${notes}` : ''}`, shown: out.length };
}

export function createMemorySearchTool(env: MemoryToolEnv): Tool {
  return defineTool({
    name: 'memory_search',
    description,
    parameters,
    group: 'memory',
    capability: 'read-only',
    async execute(args, ctx) {
      const scope = env.scope(ctx);
      const store = await env.store();
      const r = await store.search(scope, args.query, { limit: args.limit ?? 8, path: args.path, scope: args.scope, signal: ctx.signal });
      const keywordNote = r.mode === 'bm25' && !store.embeddingsEnabled && !noted.has(store);
      if (keywordNote) noted.add(store);
      const { text, shown } = formatSearch(args.query, r, scope, keywordNote);
      return ok(text, { details: { mode: r.mode, hits: r.hits.length, shown, ids: r.hits.map((h) => h.id), terms: r.terms } });
    },
  });
}
