// Dropping on the chat and thumbnails of reopened sessions (real Chromium, the built bundle under the
// page's CSP). VS Code lets a drag into a webview through only while Shift is held, so the input says
// so. A drop from VS Code's Explorer carries URIs, not files (its full list in VS Code's own uri-list
// type, the first one alone in text/uri-list, or a JSON resource list): the page marks the drop zone,
// posts the URIs for the host, and adds the images the host posts back like pasted ones. A drop from
// the desktop carries the file itself and becomes an image chip, as before; a web link is left to the
// text box. A reopened session draws its stored thumbnails (blob: URLs made from them, revoked when
// the session leaves the screen) and says "too large to keep a preview" where none was kept.
import assert from 'node:assert/strict';
import { initMessage, page as sessionPage } from './chat-fixtures';
import { chatPerTest, chatSuite, type ChatPage } from './chat-page-driver';

/** A whole 1×1 PNG, which the browser can draw. */
const DOT = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const RECORD_REVOKES = `(() => { window.__revoked = []; const revoke = URL.revokeObjectURL.bind(URL);
  URL.revokeObjectURL = (u) => { window.__revoked.push(u); revoke(u); }; })()`;
/** In-page: whether every image matching `selector` is a drawn 1×1 blob: image. */
const drawn = (selector: string) => `(() => { const imgs = [...document.querySelectorAll(${JSON.stringify(selector)})];
  return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth === 1 && i.src.startsWith('blob:')); })()`;

/**
 * In-page: dispatches a `type` drag event on `target` with a DataTransfer of `data` (type → string) and
 * `files` (a DOT PNG each, by name); returns whether the page took it (preventDefault) and the zone mark.
 */
function drag(type: 'dragover' | 'drop', data: Record<string, string>, files: string[] = [], target = '#app'): string {
  return `(() => { const dt = new DataTransfer();
    for (const [k, v] of Object.entries(${JSON.stringify(data)})) dt.setData(k, v);
    const dot = Uint8Array.from(atob(${JSON.stringify(DOT)}), (c) => c.charCodeAt(0));
    for (const name of ${JSON.stringify(files)}) dt.items.add(new File([dot], name, { type: 'image/png' }));
    const e = new DragEvent(${JSON.stringify(type)}, { dataTransfer: dt, bubbles: true, cancelable: true });
    document.querySelector(${JSON.stringify(target)}).dispatchEvent(e);
    return { taken: e.defaultPrevented, zone: document.body.classList.contains('dropping') }; })()`;
}

chatSuite('chat webview: dropping files and reopened thumbnails', ({ browser, url }) => {
  const current = chatPerTest(browser, url, () => initMessage(sessionPage('s1', 2)));
  let chat: ChatPage;
  beforeEach(() => (chat = current()));

  it('the input tells the person to hold Shift to drop (VS Code takes the drop otherwise)', async () => {
    assert.match(await chat.page.locator('textarea.input').getAttribute('placeholder') ?? '', /hold Shift to drop files or images here/);
  });

  it('a drop from the Explorer posts its full URI list for the host, marking the drop zone while over it', async () => {
    const explorer = { 'application/vnd.code.uri-list': 'file:///ws/src/a.ts\r\nfile:///ws/docs/shot.png', 'text/uri-list': 'file:///ws/src/a.ts' };
    assert.deepEqual(await chat.js(drag('dragover', explorer)), { taken: true, zone: true });
    const n = (await chat.posted()).length;
    assert.deepEqual(await chat.js(drag('drop', explorer, [], '.composer')), { taken: true, zone: false });
    const sent = await chat.waitPosted('drop-uris', undefined, n);
    assert.deepEqual(sent.uris, ['file:///ws/src/a.ts', 'file:///ws/docs/shot.png']);
    // An editor tab or a tree gives a resource list only.
    await chat.js(drag('drop', { resourceurls: '["vscode-remote://ssh-remote+box/ws/b.ts"]' }));
    const remote = await chat.waitPosted('drop-uris', (m) => m.uris[0].startsWith('vscode-remote:'), n);
    assert.deepEqual(remote.uris, ['vscode-remote://ssh-remote+box/ws/b.ts']);
    assert.equal(await chat.js('document.querySelectorAll(".composer .chip-image").length'), 0, 'nothing attached before the host answers');
    // A drag VS Code took back (Shift let go) ends nowhere here: the next pointer over the page clears the mark.
    assert.deepEqual(await chat.js(drag('dragover', explorer)), { taken: true, zone: true });
    assert.equal(await chat.js('document.body.dispatchEvent(new PointerEvent("pointerover", { bubbles: true })), document.body.classList.contains("dropping")'), false);
  });

  it('a drop from the desktop (a file, with its uri-list) attaches the file itself; a web link is left to the text box', async () => {
    const n = (await chat.posted()).length;
    assert.equal((await chat.js<{ taken: boolean }>(drag('drop', { 'text/uri-list': 'file:///home/me/dot.png' }, ['dot.png']))).taken, true);
    await chat.until(drawn('.composer .chip-image img.thumb'));
    assert.match(await chat.page.locator('.composer .chip-image').innerText(), /dot\.png\s*image · 70 bytes/);
    assert.equal((await chat.js<{ taken: boolean }>(drag('drop', { 'text/uri-list': 'https://example.com/page' }))).taken, false, 'the browser inserts the link as text');
    assert.deepEqual((await chat.posted()).slice(n).filter((m) => m.type === 'drop-uris'), [], 'no URI went to the host');
  });

  it('images the host read for a drop join the composer as thumbnails and go out with the message', async () => {
    await chat.post({ type: 'attach-images', images: [{ name: 'docs/dot.png', mimeType: 'image/png', data: DOT }] });
    await chat.until(drawn('.composer .chip-image img.thumb'));
    assert.equal(await chat.page.locator('.composer img.thumb').getAttribute('alt'), 'docs/dot.png');
    const n = (await chat.posted()).length;
    await chat.page.locator('textarea.input').fill('This one');
    await chat.page.locator('textarea.input').press('Enter');
    const sent = await chat.waitPosted('send', undefined, n);
    assert.deepEqual(sent.images, [{ name: 'docs/dot.png', mimeType: 'image/png', data: DOT }]);
  });

  it('a reopened session draws its stored thumbnails, says which image was too large to keep, and revokes them when it leaves', async () => {
    await chat.js(RECORD_REVOKES);
    await chat.post({ type: 'session', session: { key: 's2', title: 'Pictures', hasOlder: false, messages: [
      { role: 'user', id: 'm1', text: 'Compare', images: ['pasted image "dot.png"', 'pasted image "huge.webp"'], thumbnails: [{ mimeType: 'image/png', data: DOT }, null] },
      { role: 'assistant', id: 'm2', text: 'Two pictures.' },
    ] } });
    await chat.until(drawn('.msg.user img.thumb'));
    const thumb = chat.page.locator('.msg.user img.thumb');
    assert.equal(await thumb.count(), 1);
    assert.equal(await thumb.getAttribute('alt'), 'pasted image "dot.png"');
    assert.match(await chat.page.locator('.msg.user .chip-image').innerText(), /^\s*pasted image "huge\.webp"\s*· too large to keep a preview$/);
    const src = await thumb.getAttribute('src');
    await chat.post({ type: 'session', session: sessionPage('s1', 2) });
    assert.deepEqual(await chat.js('window.__revoked'), [src]);
  });
});
