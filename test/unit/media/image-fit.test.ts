// prepareImage's worker: a cancelled call ends its worker and rejects as cancelled (not as a refused
// image), and a signal aborted before the call starts no worker at all.
import assert from 'node:assert/strict';
import { ImageRefused, prepareImage } from '../../../src/core/media/image-fit';
import { makeNoise } from '../../support/make-images';

describe('prepareImage: cancelling', function () {
  this.timeout(60_000);

  it('a call cancelled while its worker decodes rejects as cancelled, not as a refused image', async () => {
    const big = await makeNoise('image/jpeg', 2400, 1800);
    const controller = new AbortController();
    const pending = prepareImage(big, 'photo.jpg', { signal: controller.signal });
    controller.abort();
    const error = await pending.then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof Error, 'it rejects');
    assert.ok(!(error instanceof ImageRefused), `not a refusal: ${(error as Error).message}`);
    assert.match(error.message, /cancelled/);
  });

  it('a signal aborted before the call rejects at once', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(prepareImage(await makeNoise('image/png', 8, 8), 'x.png', { signal: controller.signal }), /cancelled/);
  });
});
