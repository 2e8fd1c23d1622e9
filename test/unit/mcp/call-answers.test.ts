// How the bridge reads a tools/call answer: most tools are called with the SDK's request() and their
// answers read by its CallToolResultSchema, tools with an output schema through the SDK's callTool
// and its check of the structured content. The same answers must be accepted, defaulted and refused
// as through callTool alone.
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

  async function callRaw(tool: string) {
    const rt = runtimeWith({});
    mcp = new McpManager({ registry: rt.registry, scrubber: rt.scrubber, roots: () => [], clientVersion: 'test' });
    const failed = await mcp.start([stdioServer('raw', RAW)]);
    assert.deepEqual(failed, []);
    return rt.registry.execute(`mcp_raw__${tool}`, {}, rt.context({ channel: 'test', sessionKey: 'raw' }));
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
});
