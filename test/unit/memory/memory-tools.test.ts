import * as assert from 'node:assert/strict';
import type { MemoryStore } from '../../../src/core/memory/memory-store';
import { createMemoryTools } from '../../../src/core/memory/memory-tools';
import type { Tool, ToolContext, ToolResult } from '../../../src/core/tools/types';
import { removeTempDirs } from '../../support/storage-fixtures';
import { ALICE, closeMemoryDbs, GLOBAL, openStore } from './memory-store-fixture';

function ctx(agentId = 'helper'): ToolContext {
  return { sessionKey: 's', agentId, channel: 'test', subagentDepth: 0, isOwner: true, signal: new AbortController().signal, deadline: Date.now() + 60_000, workspaceTrusted: true };
}

function toolsFor(store: MemoryStore | (() => Promise<MemoryStore | undefined>), user = 'alice') {
  const tools = createMemoryTools({ store, userId: () => user });
  const by = (name: string): Tool => tools.find((t) => t.name === name)!;
  const call = (name: string, args: Record<string, unknown>, agent?: string): Promise<ToolResult> => {
    const tool = by(name);
    const parsed = tool.parameters.safeParse(args);
    if (!parsed.success) throw new Error(`bad args for ${name}: ${parsed.error.message}`);
    return tool.execute(parsed.data, ctx(agent));
  };
  return { tools, by, call };
}

const DOC = ['# Project', '', '## Deploy', '', 'We deploy the staging server every Tuesday.', '', '## People', '', 'Ana owns the roadmap.'].join('\n');

describe('memory tools', () => {
  afterEach(closeMemoryDbs);
  after(removeTempDirs);

  it('are three read-only tools of the memory group, with descriptions that say when to use which', async () => {
    const { store } = await openStore();
    const { tools } = toolsFor(store);
    assert.deepEqual(tools.map((t) => [t.name, t.group, t.capability]), [
      ['memory_search', 'memory', 'read-only'], ['memory_get', 'memory', 'read-only'], ['memory_expand', 'memory', 'read-only'],
    ]);
    assert.match(tools[0].description, /memory_expand/);
    assert.match(tools[2].description, /after memory_search/);
    assert.equal(tools[0].parameters.safeParse({ query: 'x', limit: 51 }).success, false, 'limit is capped at 50');
    assert.equal(tools[0].parameters.safeParse({ query: 'x', extra: 1 }).success, false);
  });

  it('memory_search: numbered L1 hits with id, path:lines, heading, abstract and why, then how to go deeper', async () => {
    const { store } = await openStore();
    const w = await store.write(ALICE, 'MEMORY.md', DOC);
    await store.write(GLOBAL, 'memory/team.md', '# Team\n\nThe staging deploy checklist lives here.');
    const { call } = toolsFor(store);
    const r = await call('memory_search', { query: 'staging deploy' });
    assert.equal(r.isError, false);
    const lines = r.forLLM.split('\n');
    assert.equal(lines[0], '2 memory hits for "staging deploy" (keyword search):');
    assert.equal(lines[1], `[1] id ${w.chunks[0].id} · MEMORY.md:1-5 · Project > Deploy`);
    assert.equal(lines[2], '    We deploy the staging server every Tuesday.');
    assert.match(lines[3], /^ {4}score \d\.\d\d · matched: staging, deploy · bm25 #1$/);
    assert.match(lines[4], /^\[2\] id \d+ · memory\/team\.md:1-3 \(shared\) · Team$/);
    assert.match(r.forLLM, /Use memory_expand with a hit's id for its full text, or memory_get/);
    assert.match(r.forLLM, /Note: memory search is keyword-only \(BM25\); set pincer\.memory\.embeddings\.baseUrl and pincer\.memory\.embeddings\.model/);
    assert.deepEqual(r.details?.ids, [w.chunks[0].id, (r.details?.ids as number[])[1]]);
    const again = await call('memory_search', { query: 'roadmap' });
    assert.doesNotMatch(again.forLLM, /keyword-only/, 'the note is said once per store');
    // A second tool set over the same store does not repeat it either.
    assert.doesNotMatch((await toolsFor(store).call('memory_search', { query: 'roadmap' })).forLLM, /keyword-only/);
  });

  it('memory_search: no hits says so and suggests what to try; results are capped with a notice', async () => {
    const { store } = await openStore();
    const { call } = toolsFor(store);
    const none = await call('memory_search', { query: 'quantum "entanglement"' });
    assert.equal(none.isError, false);
    assert.match(none.forLLM, /^No memory matches "quantum "entanglement"" \(searched for: quantum, entanglement\)\. Try other or fewer words/);
    const long = Array.from({ length: 60 }, (_, i) => `## Section ${i}\n\nbulk ${'lorem ipsum dolor '.repeat(40)}`).join('\n\n');
    await store.write(GLOBAL, 'memory/bulk.md', long);
    const r = await call('memory_search', { query: 'bulk', limit: 50 });
    assert.ok(r.forLLM.length < 14_000, `${r.forLLM.length} chars`);
    assert.match(r.forLLM, /more hits were left out to keep this short/);
    assert.equal(r.details?.hits, 50);
    assert.ok((r.details?.shown as number) < 50);
    assert.equal((await call('memory_search', { query: 'bulk' })).details?.hits, 8, 'default limit');
  });

  it('memory_get: numbered lines, ranges, which level it came from, and what exists when missing', async () => {
    const { store } = await openStore();
    await store.write(ALICE, 'MEMORY.md', DOC);
    await store.write(GLOBAL, 'memory/projects/pincer.md', '# Pincer\n\nline two\nline three\n');
    const { call } = toolsFor(store);
    const whole = await call('memory_get', { path: 'MEMORY.md' });
    assert.equal(whole.forLLM.split('\n')[0], 'MEMORY.md (your own; 9 lines)');
    assert.equal(whole.forLLM.split('\n')[5], '5\tWe deploy the staging server every Tuesday.');
    const range = await call('memory_get', { path: './memory/projects/pincer.md', offset: 3, limit: 1 });
    assert.equal(range.forLLM, 'memory/projects/pincer.md (agent level, shared by every user; 4 lines)\n3\tline two\n[Showing lines 3-3 of 4. Use offset=4 to continue.]');
    const past = await call('memory_get', { path: 'MEMORY.md', offset: 50 });
    assert.equal(past.isError, true);
    assert.match(past.forLLM, /offset=50 is past the end of MEMORY\.md, which has 9 lines/);
    const missing = await call('memory_get', { path: 'memory/projects/pincr.md' });
    assert.equal(missing.isError, true);
    assert.match(missing.forLLM, /memory\/projects\/pincr\.md does not exist in memory\. Did you mean memory\/projects\/pincer\.md\?/);
    assert.match(missing.forLLM, /There are 2 documents: MEMORY\.md, memory\/projects\/pincer\.md/);
    const folder = await call('memory_get', { path: 'memory/projects' });
    assert.match(folder.forLLM, /^memory\/projects\/: 1 document\nmemory\/projects\/pincer\.md\t\d+ B\t1 chunk\t\(shared\)$/);
    const invalid = await call('memory_get', { path: '../../etc/passwd' });
    assert.equal(invalid.isError, true);
    assert.match(invalid.forLLM, /is not a memory path: "\.\." is not allowed/);
    const nothing = await toolsFor(store, 'bob').call('memory_get', { path: 'memory/x.md' }, 'empty-agent');
    assert.match(nothing.forLLM, /this agent has no memory documents yet/);
  });

  it('memory_expand: the full chunk with its lines; a stale or foreign id says to search again', async () => {
    const { store } = await openStore();
    const w = await store.write(ALICE, 'MEMORY.md', DOC);
    const { call } = toolsFor(store);
    const r = await call('memory_expand', { id: w.chunks[1].id });
    assert.equal(r.forLLM, [
      `MEMORY.md:7-9 · Project > People (chunk ${w.chunks[1].id}, your own)`,
      '7\t## People', '8\t', '9\tAna owns the roadmap.',
      '[To read around it: memory_get path="MEMORY.md" offset=1 limit=43.]',
    ].join('\n'));
    await store.write(ALICE, 'MEMORY.md', DOC.replace('Ana', 'Bo'));
    const stale = await call('memory_expand', { id: w.chunks[1].id });
    assert.equal(stale.isError, true);
    assert.match(stale.forLLM, /No memory chunk has id \d+ \(any more\).*Run memory_search again/);
    const foreign = await toolsFor(store, 'bob').call('memory_expand', { id: w.chunks[0].id });
    assert.equal(foreign.isError, true, 'another user cannot read Alice\'s chunk by id');
  });

  it('every tool says plainly when memory is not available', async () => {
    const { call } = toolsFor(async () => undefined);
    for (const [name, args] of [['memory_search', { query: 'x' }], ['memory_get', { path: 'MEMORY.md' }], ['memory_expand', { id: 1 }]] as const) {
      const r = await call(name, args);
      assert.equal(r.isError, true, name);
      assert.match(r.forLLM, /Memory is not available in this window/);
    }
  });
});
