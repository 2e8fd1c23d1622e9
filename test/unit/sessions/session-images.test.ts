// Pasted images in a stored session, through a real workspace database closed and opened again: the
// small copy made beside a large image (real PNGs decoded by the image worker) is kept with its message
// and comes back as the message's thumbnail; a small image is its own thumbnail (no second copy); an
// image that could not be made small (a large WebP, which is not decoded here) comes back as null,
// the page's "too large to keep a preview". The image itself is kept whole either way.
import assert from 'node:assert/strict';
import { imageSize } from 'image-size';
import { toChatMessages } from '../../../src/core/chat/chat-history';
import { parseToWebview, pastedImageSource } from '../../../src/core/chat/chat-protocol';
import { prepareImage } from '../../../src/core/media/image-fit';
import { THUMBNAIL_LIMITS, thumbnailOf } from '../../../src/core/media/image-part';
import { Scrubber } from '../../../src/core/guard/scrubber';
import { SESSION_MIGRATIONS, SessionStore } from '../../../src/core/sessions/session-store';
import { Database } from '../../../src/core/storage/database';
import { makeImage, makeNoise, webpHeader } from '../../support/make-images';
import { STORAGE_WORKER, removeTempDirs, tempDir } from '../../support/storage-fixtures';

after(removeTempDirs);

describe('session images: thumbnails kept with the session', function () {
  this.timeout(60_000);
  const SECRET = 'sk-live-0123456789abcdefABCDEF';
  const scrubber = new Scrubber();
  scrubber.register(SECRET);

  it('a large pasted image gets a small copy within the limits; a small one is its own; a WebP none', async () => {
    const noise = await makeNoise('image/png', 600, 400);
    const big = await prepareImage(noise, pastedImageSource('noise.png'), { thumbnail: true });
    assert.ok(big.thumbnail, 'a thumbnail was made');
    const bytes = Buffer.from(big.thumbnail.data, 'base64');
    assert.ok(bytes.length <= THUMBNAIL_LIMITS.maxBytes, `${bytes.length} bytes`);
    const size = imageSize(new Uint8Array(bytes));
    assert.equal(Math.max(size.width, size.height), THUMBNAIL_LIMITS.maxEdge);
    assert.equal(size.width / size.height, 600 / 400, 'the proportions are kept');
    assert.equal(big.data, noise.toString('base64'), 'the image itself is kept whole');

    const small = await prepareImage(await makeImage('image/png', 40, 30), pastedImageSource('small.png'), { thumbnail: true });
    assert.equal(small.thumbnail, undefined, 'no second copy of a small image');
    assert.deepEqual(thumbnailOf(small), { mimeType: 'image/png', data: small.data });

    const webp = await prepareImage(webpHeader(800, 600, 40_000), pastedImageSource('large.webp'), { thumbnail: true });
    assert.equal(webp.thumbnail, undefined);
    assert.equal(thumbnailOf(webp), undefined, 'too large to show, and not decodable here to make smaller');

    const tool = await prepareImage(noise, 'read_image', {});
    assert.equal(tool.thumbnail, undefined, 'only asked-for thumbnails are made');
  });

  it('round trip: stored with the message, back after the database is reopened, as the transcript\'s thumbnails', async () => {
    const dir = tempDir('session-images');
    const open = async () => {
      const db = await Database.open({ dir, workerPath: STORAGE_WORKER, migrations: SESSION_MIGRATIONS });
      return { db, store: new SessionStore(db, { now: () => 1 }, (t) => scrubber.scrub(t)) };
    };
    const big = await prepareImage(await makeNoise('image/png', 300, 200, 7), pastedImageSource(`shot ${SECRET}.png`), { thumbnail: true });
    const small = await prepareImage(await makeImage('image/gif', 20, 10), pastedImageSource('dot.gif'), { thumbnail: true });
    const webp = await prepareImage(webpHeader(800, 600, 40_000), pastedImageSource('large.webp'), { thumbnail: true });
    let { db, store } = await open();
    const s = await store.create('default');
    await store.append(s.key, [{ role: 'user', parts: [{ type: 'text', text: 'Which is which?' }, big, small, webp] }]);
    await db.close();

    ({ db, store } = await open());
    try {
      const [stored] = await store.messages(s.key);
      const parts = stored.parts.filter((p) => p.type === 'image');
      assert.equal(parts.length, 3);
      assert.deepEqual(parts[0].type === 'image' && parts[0].thumbnail, big.thumbnail, 'the small copy is stored as it was made');
      assert.equal(parts[0].type === 'image' && parts[0].data, big.data, 'and the image itself, whole');
      assert.doesNotMatch(JSON.stringify(stored), new RegExp(SECRET), 'the source is scrubbed, as before');

      const [shown] = toChatMessages([stored]);
      assert.ok(shown.role === 'user');
      assert.equal(shown.images?.length, 3);
      assert.deepEqual(shown.thumbnails, [big.thumbnail, { mimeType: 'image/gif', data: small.data }, null]);
      const page = parseToWebview({ type: 'session', session: { key: s.key, title: 't', hasOlder: false, messages: [shown] } });
      assert.ok(page.ok, page.ok ? '' : page.error);
    } finally {
      await db.close();
    }
  });

  it('a page carries thumbnails up to its budget, newest first; older messages then name their images only', () => {
    const image = (name: string) => ({ type: 'image' as const, mimeType: 'image/png' as const, data: 'A'.repeat(1000), width: 1, height: 1, bytes: 750, source: pastedImageSource(name) });
    const shown = toChatMessages([1, 2, 3].map((seq) => ({ seq, role: 'user' as const, parts: [image(`${seq}.png`)] })), { thumbnailChars: 2500 });
    assert.deepEqual(shown.map((m) => m.role === 'user' && m.thumbnails?.length), [undefined, 1, 1]);
    assert.deepEqual(shown.map((m) => m.role === 'user' && m.images), [['pasted image "1.png"'], ['pasted image "2.png"'], ['pasted image "3.png"']]);
  });

  it('the protocol refuses a thumbnail over the limit or of another type', () => {
    const send = (thumbnails: unknown) => parseToWebview({ type: 'session', session: { key: 's', title: 't', hasOlder: false, messages: [
      { role: 'user', id: 'm1', text: '', images: ['pasted image "a.png"'], thumbnails },
    ] } });
    assert.ok(send([{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }]).ok);
    assert.ok(send([null]).ok);
    const over = Buffer.alloc(THUMBNAIL_LIMITS.maxBytes + 3).toString('base64');
    assert.match(send([{ mimeType: 'image/png', data: over }]).ok ? '' : (send([{ mimeType: 'image/png', data: over }]) as { error: string }).error, /too long/);
    assert.equal(send([{ mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }]).ok, false, 'an SVG is not an image the page draws');
    assert.equal(send([{ mimeType: 'image/png', data: 'not base64!' }]).ok, false);
  });
});
