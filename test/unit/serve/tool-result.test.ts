// A pipeline result as an MCP result: the text as the pipeline left it, isError, and the outcome with
// the tool's details — scrubbed here (the pipeline does not scrub details) and left out over the cap.
import assert from 'node:assert/strict';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { toCallToolResult } from '../../../src/core/serve/tool-server';

const SECRET = 'ghp_R8fK2mQx7ZpL4vN9sT1wY6bH3cJ5dG0aE8uW';
const scrubber = new Scrubber();
const scrub = (t: string) => scrubber.scrub(t);

describe('pincer mcp: results', () => {
  it('carries the text, isError and the outcome with the details', () => {
    const r = toCallToolResult({ forLLM: 'done', isError: false, outcome: 'ok', details: { path: 'a.txt', bytes: 9 } }, scrub, 1000);
    assert.deepEqual(r, { content: [{ type: 'text', text: 'done' }], isError: false, structuredContent: { outcome: 'ok', details: { path: 'a.txt', bytes: 9 } } });
    const denied = toCallToolResult({ forLLM: 'no', isError: true, outcome: 'denied' }, scrub, 1000);
    assert.deepEqual(denied.structuredContent, { outcome: 'denied' });
    assert.equal(denied.isError, true);
  });

  it('scrubs secrets anywhere inside the details, keeping their shape', () => {
    const r = toCallToolResult({ forLLM: 'x', isError: false, outcome: 'ok', details: { env: { GITHUB_TOKEN: SECRET }, lines: [`token=${SECRET}`, 3], nested: [[{ v: SECRET }]] } }, scrub, 10_000);
    assert.ok(!JSON.stringify(r).includes(SECRET));
    const d = (r.structuredContent as { details: { env: { GITHUB_TOKEN: string }; lines: unknown[] } }).details;
    assert.equal(typeof d.env.GITHUB_TOKEN, 'string');
    assert.equal(d.lines[1], 3);
  });

  it('leaves out details larger than the result cap and says so', () => {
    const r = toCallToolResult({ forLLM: 'x', isError: false, outcome: 'ok', details: { big: 'y'.repeat(500) } }, scrub, 100);
    const d = (r.structuredContent as { details: { omitted: string } }).details;
    assert.match(d.omitted, /over pincer\.tools\.maxResultChars \(100\)/);
    assert.ok(!JSON.stringify(r).includes('y'.repeat(50)));
  });
});
