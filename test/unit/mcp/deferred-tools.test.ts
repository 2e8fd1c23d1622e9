// Deferred MCP tools against a real server with 200 tools: past pincer.mcp.maxEagerTools they are not
// shown to the model, mcp_tool_search finds them by BM25, and the agent loop offers what it found for
// the rest of the turn (and not the next one).
import assert from 'node:assert/strict';
import { runAgentTurn } from '../../../src/core/agent/agent-loop';
import { McpManager } from '../../../src/core/mcp/mcp-manager';
import { ToolSearchIndex, tokens } from '../../../src/core/mcp/tool-search';
import type { PincerRuntime } from '../../../src/core/runtime';
import { answer, ScriptedProvider, toolCalls } from '../../support/scripted-provider';
import { runtimeWith } from '../../support/test-tools';
import { EVERYTHING, MANY_TOOLS, stdioServer } from './mcp-servers';

const req = (rt: PincerRuntime) => rt.registry.policyRequest(rt.context({ channel: 'chat', sessionKey: 's' }));
const shown = (rt: PincerRuntime) => rt.registry.definitions(req(rt)).tools.map((t) => t.name);
const call = (rt: PincerRuntime, name: string, args: unknown, over: Record<string, unknown> = {}) =>
  rt.registry.execute(name, args, rt.context({ channel: 'test', sessionKey: 'deferred', ...over }));

describe('MCP deferred tools behind mcp_tool_search', () => {
  let mcp: McpManager | undefined;
  afterEach(async () => {
    await mcp?.dispose();
    mcp = undefined;
  });

  function start(rt: PincerRuntime, maxEager?: number) {
    mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => [], ...(maxEager === undefined ? {} : { maxEagerTools: () => maxEager }) });
    return mcp;
  }

  it('200 tools: none shown, all registered and policed, the search tool shown; a search ranks and offers', async () => {
    const rt = runtimeWith();
    const m = start(rt);
    assert.deepEqual(await m.start([stdioServer('many', MANY_TOOLS, { args: ['200'] })]), []);
    const registered = rt.registry.list().filter((t) => t.mcpServer === 'many');
    assert.equal(registered.length, 200);
    assert.ok(registered.every((t) => t.deferred));
    const names = shown(rt);
    assert.ok(!names.some((n) => n.startsWith('mcp_many__')), 'deferred tools are not shown');
    assert.ok(names.includes('mcp_tool_search'));
    assert.match(rt.registry.get('mcp_tool_search')!.description, /"many" \(200 tools/);
    assert.equal(m.status()[0].deferred, true);

    const r = await call(rt, 'mcp_tool_search', { query: 'weather forecast for a city' });
    assert.equal(r.outcome, 'ok', r.forLLM);
    assert.equal(r.offerTools?.[0], 'mcp_many__getWeatherForecast', r.forLLM);
    assert.match(r.forLLM, /mcp_many__getWeatherForecast: Returns the weather forecast/);
    assert.ok(r.offerTools!.length <= 8);
    const issues = await call(rt, 'mcp_tool_search', { query: 'open a github issue', limit: 1 });
    assert.deepEqual(issues.offerTools, ['mcp_many__create_issue']);
    const none = await call(rt, 'mcp_tool_search', { query: 'zebra' });
    assert.equal(none.offerTools, undefined);
    assert.match(none.forLLM, /No MCP tool matches/);

    // A deferred tool runs when called by name where no offer list applies (the palette, the CLI) …
    assert.match((await call(rt, 'mcp_many__create_issue', { input: 'x' })).forLLM, /create_issue ran with x/);
    // … and is refused to a caller it was not offered to.
    const refused = await call(rt, 'mcp_many__create_issue', {}, { offeredTools: new Set(['mcp_tool_search']) });
    assert.equal(refused.outcome, 'denied');
  });

  it('the policy applies to search results: a denied tool is never found', async () => {
    const rt = runtimeWith({ 'tools.deny': ['mcp_many__getWeatherForecast'] });
    await start(rt).start([stdioServer('many', MANY_TOOLS, { args: ['200'] })]);
    const r = await call(rt, 'mcp_tool_search', { query: 'weather forecast' });
    assert.ok(!(r.offerTools ?? []).includes('mcp_many__getWeatherForecast'), r.forLLM);
    assert.ok(!r.forLLM.includes('getWeatherForecast'));
  });

  it('the agent loop offers what a search found for the rest of the turn, and not in the next turn', async () => {
    const rt = runtimeWith();
    await start(rt).start([stdioServer('many', MANY_TOOLS, { args: ['200'] })]);
    const provider = new ScriptedProvider([
      toolCalls([{ name: 'mcp_tool_search', args: { query: 'send an email' } }]),
      toolCalls([{ name: 'mcp_many__send_email', args: { input: 'hi' } }]),
      answer('sent'),
      toolCalls([{ name: 'mcp_many__send_email', args: { input: 'again' } }]),
      answer('done'),
    ]);
    const tools = rt.registry.definitions(req(rt)).tools;
    const turn = (turnId: string) => runAgentTurn({ provider, runtime: rt, model: 'scripted-1' }, {
      sessionKey: 's', agentId: 'main', turnId, history: [], user: 'go', system: 'test', tools, signal: new AbortController().signal,
    });
    const first = await turn('t1');
    assert.equal(first.stopReason, 'end');
    const offered = provider.requests.map((r) => r.tools.some((t) => t.name === 'mcp_many__send_email'));
    assert.deepEqual(offered, [false, true, true]);
    const results = first.messages.flatMap((msg) => msg.parts).filter((p) => p.type === 'tool-result');
    assert.match(results[1].type === 'tool-result' ? results[1].content : '', /send_email ran with hi/);

    const second = await turn('t2');
    assert.equal(provider.requests[3].tools.some((t) => t.name === 'mcp_many__send_email'), false);
    const refused = second.messages.flatMap((msg) => msg.parts).find((p) => p.type === 'tool-result');
    assert.ok(refused?.type === 'tool-result' && refused.isError && /was not offered to you/.test(refused.content));
  });

  it('few tools stay eager; a server may be deferred always (deferTools: true) or never (false)', async () => {
    const rt = runtimeWith();
    const m = start(rt, 40);
    await m.start([stdioServer('everything', EVERYTHING), stdioServer('small', MANY_TOOLS, { args: ['6'] })]);
    assert.ok(shown(rt).includes('mcp_everything__echo'));
    assert.ok(shown(rt).includes('mcp_small__send_email'));
    assert.equal(rt.registry.get('mcp_tool_search'), undefined);
    await m.dispose();

    const rt2 = runtimeWith();
    const m2 = start(rt2, 40);
    await m2.start([
      stdioServer('lazy', MANY_TOOLS, { args: ['6'], def: { deferTools: true } }),
      stdioServer('big', MANY_TOOLS, { args: ['60'], def: { deferTools: false } }),
    ]);
    const names = shown(rt2);
    assert.ok(!names.includes('mcp_lazy__send_email'));
    assert.ok(names.includes('mcp_big__send_email'), 'deferTools: false keeps a server eager past the limit');
    assert.match(rt2.registry.get('mcp_tool_search')!.description, /"lazy" \(6 tools/);
    assert.deepEqual(m2.status().map((s) => [s.name, s.deferred]), [['lazy', true], ['big', false]]);
  });
});

describe('ToolSearchIndex', () => {
  const index = new ToolSearchIndex([
    { name: 'mcp_a__read_file', description: 'Reads a file from disk.' },
    { name: 'mcp_a__list_dir', description: 'Lists a directory; to read a file use read_file.' },
    { name: 'mcp_b__fetchUrl', description: 'Fetches a web page.' },
  ]);

  it('splits names at punctuation and camelCase', () => {
    assert.deepEqual(tokens('mcp_b__fetchUrl'), ['mcp', 'fetch', 'url']);
  });

  it('a hit in the name ranks above the same words in a description; unmatched tools are left out', () => {
    assert.deepEqual(index.search('read file', 5).map((t) => t.name), ['mcp_a__read_file', 'mcp_a__list_dir']);
    assert.deepEqual(index.search('url', 5).map((t) => t.name), ['mcp_b__fetchUrl']);
    assert.deepEqual(index.search('nothing here', 5), []);
    assert.deepEqual(index.search('read file', 5, (n) => n !== 'mcp_a__read_file').map((t) => t.name), ['mcp_a__list_dir']);
  });
});
