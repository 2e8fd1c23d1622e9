// How the bridge reads a tools/call answer: text-only answers by a direct check, every other one by
// the SDK's CallToolResultSchema, and tools with an output schema through the SDK's callTool and its
// check. The same answers must be accepted, defaulted and refused as the SDK alone would.
import assert from 'node:assert/strict';
import path from 'node:path';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { CallResultSchema, isPlainTextResult } from '../../../src/core/mcp/call-result-schema';
import { McpManager } from '../../../src/core/mcp/mcp-manager';
import { runtimeWith } from '../../support/test-tools';
import { stdioServer } from './mcp-servers';

const RAW = path.join(__dirname, 'fixtures', 'raw-answers-server.js');

/** Answers to read both ways: valid ones of every shape, and malformed ones. */
const SAMPLES: unknown[] = [
  { content: [{ type: 'text', text: 'a' }] },
  { content: [{ type: 'text', text: 'a' }, { type: 'text', text: '' }], isError: false },
  { content: [], isError: true },
  { content: [{ type: 'text', text: 'a', annotations: { priority: 1 } }] },
  { content: [{ type: 'text', text: 'a', _meta: { x: 1 } }] },
  { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
  { content: [{ type: 'resource_link', uri: 'file:///a', name: 'a' }] },
  { structuredContent: { n: 1 } },
  { content: [{ type: 'text', text: 'a' }], _meta: { progressToken: 1 } },
  { content: [{ type: 'text', text: 'a' }], extra: 'kept by the loose schema' },
  {},
  // Malformed.
  { content: [{ type: 'text' }] },
  { content: [{ type: 'text', text: 1 }] },
  { content: [{ type: 'texts', text: 'a' }] },
  { content: 'a' },
  { content: [null] },
  { content: [['text', 'a']] },
  { content: [{ type: 'text', text: 'a' }], isError: 'yes' },
  null,
  'text',
  [{ type: 'text', text: 'a' }],
];

function outcome(schema: { parse(v: unknown): unknown }, v: unknown): { ok: unknown } | { error: string } {
  try {
    return { ok: schema.parse(v) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

describe('MCP call answers: CallResultSchema', () => {
  it('takes text-only answers directly and nothing else', () => {
    assert.equal(isPlainTextResult({ content: [{ type: 'text', text: 'a' }] }), true);
    assert.equal(isPlainTextResult({ content: [], isError: true }), true);
    assert.equal(isPlainTextResult({ content: [{ type: 'text', text: 'a', annotations: {} }] }), false);
    assert.equal(isPlainTextResult({ content: [{ type: 'text', text: 'a' }], structuredContent: {} }), false);
    assert.equal(isPlainTextResult({ content: [{ type: 'text', text: 'a' }], isError: 1 }), false);
    assert.equal(isPlainTextResult({ content: [{ type: 'text' }] }), false);
    assert.equal(isPlainTextResult([{ type: 'text', text: 'a' }]), false);
  });

  it('accepts, defaults and refuses every sample exactly as CallToolResultSchema does', () => {
    for (const v of SAMPLES) {
      const mine = outcome(CallResultSchema, v);
      const sdk = outcome(CallToolResultSchema, v);
      assert.deepEqual(mine, sdk, JSON.stringify(v));
    }
    // The samples cover both ways and both answers.
    assert.ok(SAMPLES.some((v) => isPlainTextResult(v)) && SAMPLES.some((v) => !isPlainTextResult(v) && 'ok' in outcome(CallToolResultSchema, v)));
    assert.ok(SAMPLES.some((v) => 'error' in outcome(CallToolResultSchema, v)));
  });
});

describe('MCP call answers: through the bridge from a real server', () => {
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
