// An MCP tool result's image blocks: a real image becomes an image part (named in the text by its
// place), bytes labelled as an image that are not one are named with the reason and never sent, and
// a result with more images than one result may send names the rest.
import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MCP_IMAGES, toToolResult } from '../../../src/core/mcp/mcp-result';
import { makeImage } from '../../support/make-images';

const SOURCE = 'mcp:shots/capture';

describe('MCP results: image blocks', function () {
  // The image worker loads its codecs per image; on a loaded machine that takes a while.
  this.timeout(60_000);

  it('a real PNG becomes an image part beside the text', async () => {
    const png = await makeImage('image/png', 30, 20);
    const r = await toToolResult(SOURCE, { content: [{ type: 'text', text: 'Here it is.' }, { type: 'image', data: png.toString('base64'), mimeType: 'image/png' }] });
    assert.equal(r.isError, false);
    assert.match(r.forLLM, /Here it is\.\n\n\[image 2 of mcp:shots\/capture: PNG, 30×20 pixels, [\d,]+ bytes, shown as an image\]/);
    assert.equal(r.images?.length, 1);
    assert.ok(Buffer.from(r.images![0].data, 'base64').equals(png));
    assert.equal(r.images![0].source, 'image 2 of mcp:shots/capture');
  });

  it('bytes labelled image/png that are not an image are named with the reason, not sent', async () => {
    const data = Buffer.from('<script>not a picture</script>').toString('base64');
    const r = await toToolResult(SOURCE, { content: [{ type: 'image', data, mimeType: 'image/png' }] });
    assert.equal(r.images, undefined);
    assert.match(r.forLLM, /\[image 1 of mcp:shots\/capture: image\/png, 30 bytes, not shown: image 1 of mcp:shots\/capture is not an image/);
  });

  it(`sends at most ${MAX_MCP_IMAGES} images of one result and names the rest`, async () => {
    const data = (await makeImage('image/png', 4, 4)).toString('base64');
    const content: CallToolResult['content'] = Array.from({ length: MAX_MCP_IMAGES + 2 }, () => ({ type: 'image' as const, data, mimeType: 'image/png' }));
    const r = await toToolResult(SOURCE, { content });
    assert.equal(r.images?.length, MAX_MCP_IMAGES);
    assert.equal((r.forLLM.match(/not shown: at most 4 images of one result are/g) ?? []).length, 2);
  });
});
