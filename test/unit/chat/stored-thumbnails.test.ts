// Images stored before the chat kept small copies (stored-thumbnails.ts): a large one had no
// thumbnail, so the reopened chat said "too large to keep a preview" though the full image is in the
// database. On the first reopen its small copy is made from the stored image (real PNGs through the
// image worker, a real workspace database closed and opened again), shown, and stored, so a second
// reopen makes none; a small image and a WebP are left as they were, and a failing store still shows it.
import assert from 'node:assert/strict';
import { imageSize } from 'image-size';
import type { MessagePart } from '../../../src/core/agent/model-types';
import { toChatMessages } from '../../../src/core/chat/chat-history';
import { pastedImageSource } from '../../../src/core/chat/chat-protocol';
import { fillStoredThumbnails } from '../../../src/core/chat/stored-thumbnails';
import { prepareImage } from '../../../src/core/media/image-fit';
import { THUMBNAIL_LIMITS } from '../../../src/core/media/image-part';
import { SESSION_MIGRATIONS, SessionStore } from '../../../src/core/sessions/session-store';
import { Database } from '../../../src/core/storage/database';
import { makeImage, makeNoise, webpHeader } from '../../support/make-images';
import { STORAGE_WORKER, removeTempDirs, tempDir } from '../../support/storage-fixtures';

after(removeTempDirs);

describe('stored images without a thumbnail get one on reopen', function () {
  this.timeout(60_000);

  it('a large image stored without its small copy gets one from the stored image, kept for the next reopen', async () => {
    const dir = tempDir('stored-thumbs');
    const open = async () => {
      const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: SESSION_MIGRATIONS });
      return { db, store: new SessionStore(db, { now: () => 1 }) };
    };
    // As stored before thumbnails: prepared for the model, no small copy asked for.
    const old = await prepareImage(await makeNoise('image/png', 600, 400, 3), pastedImageSource('old.png'));
    assert.equal(old.thumbnail, undefined);
    assert.ok(old.bytes > THUMBNAIL_LIMITS.maxBytes, 'large enough to need a small copy');
    const small = await prepareImage(await makeImage('image/png', 40, 30), pastedImageSource('small.png'));
    const webp = await prepareImage(webpHeader(800, 600, 40_000), pastedImageSource('large.webp'));
    let { db, store } = await open();
    const s = await store.create('default');
    await store.append(s.key, [{ role: 'user', parts: [{ type: 'text', text: 'Look' }, old, small, webp] }, { role: 'assistant', parts: [{ type: 'text', text: 'Seen.' }] }]);
    try {
      const before = toChatMessages(await store.messages(s.key))[0];
      assert.ok(before.role === 'user');
      assert.deepEqual(before.thumbnails?.map((t) => t?.mimeType ?? null), [null, 'image/png', null], 'the old image showed "too large to keep a preview"');

      const msgs = await store.messages(s.key);
      const kept: number[] = [];
      const made = await fillStoredThumbnails(msgs, async (seq, parts) => {
        kept.push(seq);
        await store.replaceParts(s.key, seq, parts);
      });
      assert.equal(made, 1, 'one small copy made: the small image is its own, the WebP cannot be decoded here');
      assert.deepEqual(kept, [1], 'only the changed message is stored again');
      const shown = toChatMessages(msgs)[0];
      assert.ok(shown.role === 'user' && shown.thumbnails?.[0]);
      const thumb = Buffer.from(shown.thumbnails[0].data, 'base64');
      assert.ok(thumb.length <= THUMBNAIL_LIMITS.maxBytes, `${thumb.length} bytes`);
      const size = imageSize(new Uint8Array(thumb));
      assert.equal(Math.max(size.width, size.height), THUMBNAIL_LIMITS.maxEdge, 'the send path\'s downscale: longest side at the limit');
      assert.equal(size.width / size.height, 600 / 400);
      assert.deepEqual(shown.thumbnails.slice(1).map((t) => t?.mimeType ?? null), ['image/png', null]);
      await db.close();

      ({ db, store } = await open());
      const again = await store.messages(s.key);
      const image = again[0].parts.find((p) => p.type === 'image');
      assert.ok(image?.type === 'image');
      assert.deepEqual(image.thumbnail, shown.thumbnails[0], 'the small copy is stored with the message');
      assert.equal(image.data, old.data, 'and the image itself is unchanged');
      assert.equal(await fillStoredThumbnails(again, () => assert.fail('nothing to store again')), 0, 'a second reopen makes none');
    } finally {
      await db.close();
    }
  });

  it('a store that fails does not stop the page: the copy is shown now; an image that no longer decodes stays by name', async () => {
    const old = await prepareImage(await makeNoise('image/png', 400, 300, 5), pastedImageSource('a.png'));
    const broken = { ...old, source: pastedImageSource('broken.png'), data: Buffer.from('\x89PNG\r\n\x1a\n not a png at all').toString('base64') };
    const parts: MessagePart[] = [broken, old];
    const msgs = [{ seq: 4, role: 'user' as const, parts, createdAt: 1 }];
    const made = await fillStoredThumbnails(msgs, () => Promise.reject(new Error('database closed')));
    assert.equal(made, 1);
    const [shown] = toChatMessages(msgs);
    assert.ok(shown.role === 'user');
    assert.deepEqual(shown.thumbnails?.map((t) => t === null), [true, false], 'the broken image by name, the other with its new copy');
  });
});
