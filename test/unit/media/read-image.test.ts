// read_image on real images made by jimp in a temp workspace, through the pipeline: small images go
// as they are (the same bytes), large ones are shrunk (and still show what they showed), and the
// hostile cases are refused before anything reaches a provider: paths out of the workspace, a file
// too large to read, bytes that are not an image under an image's name, a PNG cut short, a header
// declaring billions of pixels, a WebP that is not whole, formats providers do not take, and a model
// that reads no images.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { IMAGE_LIMITS } from '../../../src/core/media/image-fit';
import { createReadImageTool, READ_IMAGE_LIMITS } from '../../../src/core/media/read-image-tool';
import type { ToolContext } from '../../../src/core/tools/types';
import { link, makeGuard, makeWorkspace, removeTempDirs, tempDir } from '../../support/fs-fixtures';
import { makeImage, makeNoise, pixelAt, pngDeclaring, webpHeader } from '../../support/make-images';
import { runtimeWith } from '../../support/test-tools';

after(removeTempDirs);

describe('read_image', function () {
  // jimp's codecs load once per process; on a loaded machine that takes a while.
  this.timeout(60_000);
  const ws = makeWorkspace({}, 'read-image');
  const rt = runtimeWith({ 'rateLimit.enabled': false, 'loopDetection.enabled': false }, [createReadImageTool({ guard: makeGuard([fs.realpathSync(ws.root)]), fs: new NodeWorkspaceFs() })]);
  const read = (args: Record<string, unknown>, extra: Partial<ToolContext> = {}) =>
    rt.registry.execute('read_image', args, rt.context({ channel: 'test', sessionKey: 'img', workspaceRoot: ws.root, ...extra }));

  it('shows a small PNG as it is: the same bytes, its type and size in words', async () => {
    const png = await makeImage('image/png', 40, 30);
    fs.mkdirSync(ws.path('shots'));
    fs.writeFileSync(ws.path('shots/small.png'), png);
    const r = await read({ path: 'shots/small.png' });
    assert.equal(r.isError, false, r.forLLM);
    assert.equal(r.forLLM, `shots/small.png: PNG, 40×30 pixels, ${png.length} bytes. The image follows.`);
    assert.equal(r.images?.length, 1);
    const [image] = r.images!;
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual([image.width, image.height, image.bytes, image.source], [40, 30, png.length, 'shots/small.png']);
    assert.ok(Buffer.from(image.data, 'base64').equals(png));
    assert.equal(image.original, undefined);
  });

  it('reads JPEG and GIF, and a PNG saved under another name', async () => {
    fs.writeFileSync(ws.path('photo.jpg'), await makeImage('image/jpeg', 64, 48));
    fs.writeFileSync(ws.path('anim.gif'), await makeImage('image/gif', 20, 10));
    fs.writeFileSync(ws.path('diagram.bin'), await makeImage('image/png', 12, 12));
    assert.equal((await read({ path: 'photo.jpg' })).images?.[0].mimeType, 'image/jpeg');
    assert.equal((await read({ path: 'anim.gif' })).images?.[0].mimeType, 'image/gif');
    const bin = await read({ path: 'diagram.bin' });
    assert.equal(bin.isError, false, bin.forLLM);
    assert.match(bin.forLLM, /PNG, 12×12 pixels/);
  });

  it('shrinks a large image to fit the limits and keeps what it shows (left red, right blue)', async () => {
    fs.writeFileSync(ws.path('wide.png'), await makeImage('image/png', 3000, 1000));
    const r = await read({ path: 'wide.png' });
    assert.equal(r.isError, false, r.forLLM);
    const [image] = r.images!;
    assert.equal(image.width, IMAGE_LIMITS.maxEdge);
    assert.equal(image.height, Math.round(1000 * IMAGE_LIMITS.maxEdge / 3000));
    assert.equal(image.mimeType, 'image/png');
    assert.equal(image.original?.width, 3000);
    assert.match(r.forLLM, /PNG, 1568×523 pixels, [\d,]+ bytes \(shrunk from 3000×1000, [\d,]+ bytes\)/);
    const bytes = Buffer.from(image.data, 'base64');
    assert.equal(await pixelAt(bytes, 10, 10), 0xff0000ff);
    assert.equal(await pixelAt(bytes, image.width - 10, 10), 0x0000ffff);
  });

  it('a photo too large in bytes even after shrinking its sides goes as a JPEG under the byte limit', async () => {
    fs.writeFileSync(ws.path('noise.png'), await makeNoise('image/png', 1500, 1500));
    assert.ok(fs.statSync(ws.path('noise.png')).size > IMAGE_LIMITS.maxBytes, 'the test image must start over the byte limit');
    const r = await read({ path: 'noise.png' });
    assert.equal(r.isError, false, r.forLLM);
    const [image] = r.images!;
    assert.equal(image.mimeType, 'image/jpeg');
    assert.ok(image.bytes <= IMAGE_LIMITS.maxBytes);
    assert.equal(Buffer.from(image.data, 'base64').length, image.bytes);
  });

  it('the path guard: outside the workspace, a link out of it, and a denied path (.git) are refused', async () => {
    const outside = tempDir('read-image-outside');
    fs.writeFileSync(path.join(outside, 'secret.png'), await makeImage('image/png', 8, 8));
    link(path.join(outside, 'secret.png'), ws.path('linked.png'));
    fs.mkdirSync(ws.path('.git'));
    fs.writeFileSync(ws.path('.git/inside.png'), await makeImage('image/png', 8, 8));
    for (const p of [path.join(outside, 'secret.png'), `../${path.basename(outside)}/secret.png`, 'linked.png', '.git/inside.png', '~/secret.png']) {
      const r = await read({ path: p });
      assert.equal(r.isError, true, `${p}: ${r.forLLM}`);
      assert.equal(r.images, undefined, p);
    }
  });

  it('refuses a file over the size it reads without reading it', async () => {
    const fd = fs.openSync(ws.path('huge.png'), 'w');
    fs.writeSync(fd, await makeImage('image/png', 4, 4));
    fs.ftruncateSync(fd, READ_IMAGE_LIMITS.maxFileBytes + 1);
    fs.closeSync(fd);
    const r = await read({ path: 'huge.png' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /huge\.png is 31,457,281 bytes; read_image reads image files up to 31,457,280 bytes/);
  });

  it('refuses bytes that are not an image under an image name, and a PNG cut short', async () => {
    fs.writeFileSync(ws.path('notes.png'), 'Just text with a .png name.\n');
    const text = await read({ path: 'notes.png' });
    assert.equal(text.isError, true);
    assert.match(text.forLLM, /notes\.png is not an image: its 28 bytes are not PNG, JPEG, GIF or WebP/);
    const whole = await makeNoise('image/png', 64, 64);
    fs.writeFileSync(ws.path('cut.png'), whole.subarray(0, Math.floor(whole.length / 2)));
    const cut = await read({ path: 'cut.png' });
    assert.equal(cut.isError, true);
    assert.match(cut.forLLM, /cut\.png starts like a PNG image but does not decode as one/);
    assert.equal(cut.images, undefined);
  });

  it('refuses a header declaring more pixels than it decodes, before decoding anything', async () => {
    fs.writeFileSync(ws.path('bomb.png'), await pngDeclaring(60_000, 60_000));
    const r = await read({ path: 'bomb.png' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /bomb\.png is 60000×60000 pixels \(3,600,000,000\), more than the 40,000,000 pixels/);
  });

  it('WebP: a whole one within the limits goes as it is; one cut short, or too large to shrink here, is refused', async () => {
    fs.writeFileSync(ws.path('ok.webp'), webpHeader(100, 50));
    const okay = await read({ path: 'ok.webp' });
    assert.equal(okay.isError, false, okay.forLLM);
    assert.equal(okay.images?.[0].mimeType, 'image/webp');
    fs.writeFileSync(ws.path('cut.webp'), webpHeader(100, 50).subarray(0, 30));
    assert.match((await read({ path: 'cut.webp' })).forLLM, /cut\.webp starts like a WebP image but its 30 bytes are not a whole one/);
    fs.writeFileSync(ws.path('big.webp'), webpHeader(4000, 3000));
    assert.match((await read({ path: 'big.webp' })).forLLM, /big\.webp is a WebP image of 4000×3000 pixels .* WebP cannot be shrunk here\. Convert it to PNG or JPEG first\./);
  });

  it('refuses image formats providers do not take, naming the format', async () => {
    fs.writeFileSync(ws.path('logo.svg.png'), '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    const r = await read({ path: 'logo.svg.png' });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /is a SVG image; images go to the model as PNG, JPEG, GIF or WebP/);
  });

  it('with a model that reads no images: an error naming models that do, and nothing read', async () => {
    const r = await read({ path: 'shots/small.png' }, { imageInput: false });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /does not take images/);
    assert.match(r.forLLM, /Claude model through Anthropic/);
    assert.equal(r.images, undefined);
  });

  it('a missing file and a folder are refused with what to do', async () => {
    assert.match((await read({ path: 'nope.png' })).forLLM, /File not found: nope\.png/);
    assert.match((await read({ path: 'shots' })).forLLM, /shots is not a file/);
  });
});
