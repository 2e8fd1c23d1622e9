// How the bridge reads a tools/call answer: every tool is called with the SDK's request() and its
// answer read by tool-answers.ts (the usual text answer by a short check, any other by the SDK's
// CallToolResultSchema), with the SDK's check of the structured content of a tool with an output
// schema, made from every page of the tool list. The same answers must be accepted, defaulted and
// refused as through the SDK's callTool alone.
import assert from 'node:assert/strict';
import path from 'node:path';
import { McpManager } from '../../../src/core/mcp/mcp-manager';
import { runtimeWith } from '../../support/test-tools';
import { stdioServer } from './mcp-servers';

const RAW = path.join(__dirname, 'fixtures', 'raw-answers-server.js');

describe('MCP call answers from a real server, through the bridge', () => {
  let mcp: McpManager | undefined;
  afterEach(async () => {
    await mcp?.dispose();
    mcp = undefined;
  });

  async function startRaw(args: string[] = []) {
    const rt = runtimeWith({});
    mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => [], clientVersion: 'test' });
    const failed = await mcp.start([stdioServer('raw', RAW, { args })]);
    assert.deepEqual(failed, []);
    return { rt, call: (tool: string) => rt.registry.execute(`mcp_raw__${tool}`, {}, rt.context({ channel: 'test', sessionKey: 'raw' })) };
  }

  async function callRaw(tool: string) {
    return (await startRaw()).call(tool);
  }

  it('text-only answers, an error among them, are read as before', async () => {
    const r = await callRaw('plain');
    assert.equal(r.outcome, 'ok', r.forLLM);
    assert.match(r.forLLM, /first\n\nsecond/);
    await mcp?.dispose();
    const e = await callRaw('plain-error');
    assert.equal(e.outcome, 'error');
    assert.match(e.forLLM, /The MCP server reported an error:[\s\S]*it broke/);
  });

  it('answers of other shapes are read by the SDK\'s schema, its default included', async () => {
    const a = await callRaw('annotated');
    assert.equal(a.outcome, 'ok', a.forLLM);
    assert.match(a.forLLM, /noted/);
    await mcp?.dispose();
    const n = await callRaw('no-content');
    assert.equal(n.outcome, 'ok', n.forLLM);
    assert.match(n.forLLM, /"n": 1/);
  });

  it('hostile: malformed answers are refused with the schema\'s complaint, not passed on', async () => {
    for (const tool of ['text-without-text', 'text-not-string', 'is-error-not-boolean']) {
      await mcp?.dispose();
      const r = await callRaw(tool);
      assert.equal(r.outcome, 'error', `${tool}: ${r.forLLM}`);
      assert.match(r.forLLM, /MCP server "raw"[\s\S]*(invalid|expected)/i, tool);
      // Refused, not rendered: nothing of the answer reaches the model as the server's content.
      assert.doesNotMatch(r.forLLM, /EXTERNAL_UNTRUSTED_CONTENT/, tool);
    }
  });

  it('a tool with an output schema is still checked by the SDK: a wrong structured answer is refused, a right one passes', async () => {
    const wrong = await callRaw('typed-wrong');
    assert.equal(wrong.outcome, 'error', wrong.forLLM);
    assert.match(wrong.forLLM, /output schema/i);
    await mcp?.dispose();
    const right = await callRaw('typed-right');
    assert.equal(right.outcome, 'ok', right.forLLM);
    assert.match(right.forLLM, /n is 7/);
  });

  it('a paginated tool list: every page\'s output schemas are checked, not only the last page\'s', async () => {
    // Pages of two: typed-wrong is on the fourth page, typed-right on the fifth (the last).
    const { call } = await startRaw(['2']);
    const wrong = await call('typed-wrong');
    assert.equal(wrong.outcome, 'error', wrong.forLLM);
    assert.match(wrong.forLLM, /output schema/i);
    const right = await call('typed-right');
    assert.equal(right.outcome, 'ok', right.forLLM);
    assert.match(right.forLLM, /n is 7/);
  });

  it('a paginated tool list that changes is listed again in full: a tool added on the last page appears, the first pages\' tools stay checked', async () => {
    const { rt, call } = await startRaw(['2']);
    const before = rt.registry.names().filter((n) => n.startsWith('mcp_raw__')).length;
    const appeared = new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (rt.registry.get('mcp_raw__added_1')) {
          clearInterval(t);
          resolve();
        }
      }, 10);
    });
    assert.match((await call('grow')).forLLM, /grown/);
    await appeared;
    // Every earlier tool is still there: none of the later pages was dropped by a first-page-only refresh.
    assert.equal(rt.registry.names().filter((n) => n.startsWith('mcp_raw__')).length, before + 1);
    assert.match((await call('added_1')).forLLM, /added_1 ran/);
    const wrong = await call('typed-wrong');
    assert.equal(wrong.outcome, 'error', wrong.forLLM);
    assert.match(wrong.forLLM, /output schema/i);
  });
});
