// tool-answers.ts reads the usual answer (text blocks, perhaps isError) without the SDK's schema: it
// must accept exactly what CallToolResultSchema accepts and yield what it yields, and leave every
// other answer to the schema, whose complaint is the error. Compared here answer by answer.
import assert from 'node:assert/strict';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { NO_CHECKS, readAnswer, refusedCall, toolChecks } from '../../../src/core/mcp/tool-answers';

/** What the SDK's schema makes of `raw`: its result, or its complaint. */
function bySchema(raw: unknown): { value?: unknown; error?: string } {
  const parsed = CallToolResultSchema.safeParse(raw);
  return parsed.success ? { value: parsed.data } : { error: parsed.error.message };
}

function byReader(raw: unknown): { value?: unknown; error?: string } {
  try {
    return { value: readAnswer('t', raw, NO_CHECKS) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const text = (t: unknown) => ({ type: 'text', text: t });

describe('MCP answers read without the schema where it would yield them unchanged', () => {
  it('benign: text answers, empty or with isError, read as the schema reads them', () => {
    const answers: unknown[] = [
      { content: [text('Echo: m1')] },
      { content: [text('a'), text(''), text('c\nd')] },
      { content: [] },
      { content: [text('it broke')], isError: true },
      { isError: false, content: [text('fine')] },
      JSON.parse('{"content":[{"type":"text","text":"from JSON"}]}'),
    ];
    for (const raw of answers) {
      assert.deepEqual(byReader(raw), bySchema(raw), JSON.stringify(raw));
      assert.equal(byReader(raw).error, undefined);
    }
  });

  it('answers of other shapes are the schema\'s: defaults, stripped fields, loose extras', () => {
    const answers: unknown[] = [
      {},
      { structuredContent: { n: 1 } },
      { content: [{ ...text('x'), annotations: { priority: 0.5 } }] },
      { content: [{ ...text('x'), extra: 'stripped by the schema' }] },
      { content: [text('x')], somethingElse: { kept: true } },
      { content: [text('x')], _meta: { progressToken: 3 } },
      { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
    ];
    for (const raw of answers) assert.deepEqual(byReader(raw), bySchema(raw), JSON.stringify(raw));
  });

  it('hostile: malformed answers are refused with the schema\'s own complaint', () => {
    const inherited = Object.create({ injected: 'from a prototype' }) as Record<string, unknown>;
    inherited.content = [text('x')];
    const oddBlock = Object.create({ type: 'text' }) as Record<string, unknown>;
    oddBlock.text = 'a block whose type is inherited';
    const answers: unknown[] = [
      null, 'a string', 42, [text('an array, not a result')],
      { content: 'not a list' },
      { content: [text(42)] },
      { content: [{ type: 'text' }] },
      { content: [null] },
      { content: [text('x')], isError: 'yes' },
      { content: [text('x')], _meta: 'not an object' },
      { content: [{ type: 'text', text: 'x', annotations: { priority: 7 } }] },
      JSON.parse('{"content":[{"type":"text","text":"x"}],"__proto__":{"isError":true}}'),
      inherited,
      { content: [oddBlock] },
    ];
    for (const raw of answers) assert.deepEqual(byReader(raw), bySchema(raw), String(JSON.stringify(raw)));
    assert.ok(byReader({ content: [text(42)] }).error);
  });

  it('a tool\'s checks come from the whole list: output schemas checked, task-only tools refused before sending', () => {
    const checks = toolChecks([
      { name: 'typed', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
      { name: 'tasky', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
      { name: 'plain', inputSchema: { type: 'object' } },
    ]);
    assert.deepEqual(readAnswer('typed', { content: [], structuredContent: { n: 7 } }, checks).structuredContent, { n: 7 });
    assert.throws(() => readAnswer('typed', { content: [text('n is a word')], structuredContent: { n: 'one' } }, checks), /does not match the tool's output schema/);
    assert.throws(() => readAnswer('typed', { content: [text('no structure')] }, checks), /has an output schema but did not return structured content/);
    // An error answer needs no structured content.
    assert.equal(readAnswer('typed', { content: [text('failed')], isError: true }, checks).isError, true);
    assert.match(refusedCall('tasky', checks)?.message ?? '', /requires task-based execution/);
    assert.equal(refusedCall('plain', checks), undefined);
    assert.equal(toolChecks([{ name: 'plain', inputSchema: { type: 'object' } }]), NO_CHECKS);
  });
});
