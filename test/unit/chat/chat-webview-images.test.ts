// Images pasted or dropped into the chat input (real Chromium, the built bundle under the page's CSP):
// a pasted PNG becomes a chip with its name and size and goes out with `send` as base64; a drop of
// several files keeps the image and refuses, in words, a text file and one over 20 MB; a removed chip
// is not sent, a sent one is gone from the composer and shown (named) on the sent message
// (a stored one is named). Thumbnails: a real PNG shows as a loaded image (a blob: URL, allowed by the
// page's CSP) in the composer and on the sent message, also when a new session's first page repeats
// that message; its URL is revoked when the image is removed or its message leaves the screen. An
// image alone (no text) can be sent; an empty input with no image sends nothing.
import assert from 'node:assert/strict';
import { initMessage, page as sessionPage } from './chat-fixtures';
import { chatPerTest, chatSuite, type ChatPage } from './chat-page-driver';

const PNG_BYTES = [137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4];
/** A whole 1×1 PNG, which the browser can draw. */
const DOT = [...Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')];
/** In-page: every URL revoked from now on is recorded in window.__revoked. */
const RECORD_REVOKES = `(() => { window.__revoked = []; const revoke = URL.revokeObjectURL.bind(URL);
  URL.revokeObjectURL = (u) => { window.__revoked.push(u); revoke(u); }; })()`;
/** In-page: whether every thumbnail matching `selector` is a drawn blob: image. */
const drawn = (selector: string) => `(() => { const imgs = [...document.querySelectorAll(${JSON.stringify(selector)})];
  return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth === 1 && i.src.startsWith('blob:')); })()`;

/** In-page JavaScript: a DataTransfer holding the files described by `files` (name, type, bytes or a size of zeros). */
function transfer(files: { name: string; type: string; bytes?: number[]; size?: number }[]): string {
  return `(() => { const dt = new DataTransfer();
    for (const f of ${JSON.stringify(files)}) dt.items.add(new File([f.bytes ? new Uint8Array(f.bytes) : new Uint8Array(f.size)], f.name, { type: f.type }));
    return dt; })()`;
}

chatSuite('chat webview: pasted and dropped images', ({ browser, url }) => {
  const current = chatPerTest(browser, url, () => initMessage(sessionPage('s1', 2)));
  let chat: ChatPage;
  beforeEach(() => (chat = current()));

  it('a pasted PNG becomes an image chip (name, size) and the send message carries it as base64; then the chip is gone', async () => {
    await chat.js(`document.querySelector('textarea.input').dispatchEvent(new ClipboardEvent('paste', {
      clipboardData: ${transfer([{ name: 'shot.png', type: 'image/png', bytes: PNG_BYTES }])}, bubbles: true, cancelable: true }))`);
    await chat.until('document.querySelector(".composer .chip-image")');
    const chip = chat.page.locator('.composer .chip-image');
    assert.match(await chip.innerText(), /shot\.png\s*image · 12 bytes/);
    assert.equal(await chip.getAttribute('role'), 'listitem');
    const n = (await chat.posted()).length;
    await chat.page.locator('textarea.input').fill('What is in this?');
    await chat.page.locator('textarea.input').press('Enter');
    const sent = await chat.waitPosted('send', undefined, n);
    assert.equal(sent.text, 'What is in this?');
    assert.deepEqual(sent.images, [{ name: 'shot.png', mimeType: 'image/png', data: Buffer.from(PNG_BYTES).toString('base64') }]);
    assert.equal(await chat.page.locator('.composer .chip-image').count(), 0, 'sent images leave the composer');
    assert.equal(await chat.page.locator('.msg.user').last().locator('img.thumb').getAttribute('alt'), 'pasted image "shot.png"', 'the sent message shows its image, named');
  });

  it('a drop keeps the images, refuses a text file and an SVG and one over 20 MB with the reason; a removed image is not sent', async () => {
    await chat.js(`document.querySelector('.composer').dispatchEvent(new DragEvent('drop', {
      dataTransfer: ${transfer([
        { name: 'photo.jpg', type: 'image/jpeg', bytes: [255, 216, 255, 224, 0, 16] },
        { name: 'notes.txt', type: 'text/plain', bytes: [104, 105] },
        { name: 'logo.svg', type: 'image/svg+xml', bytes: [60, 115, 118, 103, 62] },
        { name: 'huge.png', type: 'image/png', size: 25_000_000 },
      ])}, bubbles: true, cancelable: true }))`);
    await chat.until('document.querySelector(".composer .chip-image") && !document.querySelector(".error-bar").hidden');
    assert.equal(await chat.page.locator('.composer .chip-image').count(), 1);
    assert.match(await chat.page.locator('.composer .chip-image').innerText(), /photo\.jpg\s*image · 6 bytes/);
    const error = await chat.page.locator('.error-bar').innerText();
    assert.match(error, /notes\.txt is not an image Pincer can send: paste or drop PNG, JPEG, GIF or WebP\./);
    assert.match(error, /logo\.svg is not an image Pincer can send/);
    assert.match(error, /huge\.png is 25\.0 MB; an image may have at most 20 MB\./);
    await chat.page.locator('.composer .chip-image vscode-toolbar-button[label="Remove photo.jpg"]').click();
    assert.equal(await chat.page.locator('.composer .chip-image').count(), 0);
    const n = (await chat.posted()).length;
    await chat.page.locator('textarea.input').fill('No image after all');
    await chat.page.locator('textarea.input').press('Enter');
    const sent = await chat.waitPosted('send', undefined, n);
    assert.equal(sent.text, 'No image after all');
    assert.equal(sent.images, undefined);
  });

  it('a stored message shows its images by their source, as text', async () => {
    await chat.post({ type: 'session', session: { key: 's2', title: 'Pictures', hasOlder: false, messages: [
      { role: 'user', id: 'm1', text: 'Look', images: ['pasted image "a<b>x</b>.png"', 'pasted image "two.png"'] },
    ] } });
    await chat.until('document.querySelectorAll(".msg.user .chip-image").length === 2');
    assert.deepEqual((await chat.page.locator('.msg.user .chip-image').allInnerTexts()).map((t) => t.trim()), ['pasted image "a<b>x</b>.png"', 'pasted image "two.png"']);
    assert.equal(await chat.page.locator('.msg.user b').count(), 0, 'a name is text, never markup');
  });

  const pasteDot = (name = 'dot.png') => chat.js(`document.querySelector('textarea.input').dispatchEvent(new ClipboardEvent('paste', {
    clipboardData: ${transfer([{ name, type: 'image/png', bytes: DOT }])}, bubbles: true, cancelable: true }))`);

  it('a pasted image shows as a thumbnail in the composer and on the sent message; removing one revokes its URL', async () => {
    await chat.js(RECORD_REVOKES);
    await pasteDot('first.png');
    await chat.until(drawn('.composer .chip-image img.thumb'));
    const removed = await chat.js('document.querySelector(".composer .chip-image img.thumb").src') as string;
    await chat.page.locator('.composer .chip-image vscode-toolbar-button[label="Remove first.png"]').click();
    assert.deepEqual(await chat.js('window.__revoked'), [removed]);
    await pasteDot();
    await chat.until(drawn('.composer .chip-image img.thumb'));
    assert.equal(await chat.page.locator('.composer img.thumb').getAttribute('alt'), 'dot.png');
    await chat.page.locator('textarea.input').fill('And this?');
    await chat.page.locator('textarea.input').press('Enter');
    await chat.until(drawn('.msg.user img.thumb'));
    assert.equal(await chat.page.locator('.msg.user').last().locator('img.thumb').getAttribute('alt'), 'pasted image "dot.png"');
    assert.deepEqual(await chat.js('window.__revoked'), [removed], 'the sent image\'s URL lives on in the transcript');
  });

  it('an image alone is sent (text empty), shown as a thumbnail with no text; an empty input with no image sends nothing', async () => {
    await chat.js(RECORD_REVOKES);
    const n = (await chat.posted()).length;
    await chat.page.locator('textarea.input').press('Enter');
    await pasteDot();
    await chat.until(drawn('.composer img.thumb'));
    await chat.page.locator('textarea.input').press('Enter');
    const sent = await chat.waitPosted('send', undefined, n);
    assert.equal((await chat.posted()).slice(n).filter((m) => m.type === 'send').length, 1, 'only the message with the image was sent');
    assert.equal(sent.text, '');
    assert.deepEqual(sent.images, [{ name: 'dot.png', mimeType: 'image/png', data: Buffer.from(DOT).toString('base64') }]);
    const mine = chat.page.locator('.msg.user').last();
    assert.equal(await mine.locator('.user-text').count(), 0);
    await chat.until(drawn('.msg.user img.thumb'));
    const url = await mine.locator('img.thumb').getAttribute('src');
    // The new session's first page repeats the message just sent: its thumbnail stays.
    await chat.post({ type: 'session', session: { key: 's9', title: 'pasted image "dot.png"', hasOlder: false, messages: [
      { role: 'user', id: 'pending', text: '', images: ['pasted image "dot.png"'] },
    ] } });
    await chat.until(drawn('.msg.user[data-id="pending"] img.thumb'));
    assert.equal(await chat.page.locator('.msg.user[data-id="pending"] img.thumb').getAttribute('src'), url);
    assert.deepEqual(await chat.js('window.__revoked'), []);
    // Another session replaces it: the URL is let go, and a stored image is named, not drawn.
    await chat.post({ type: 'session', session: { key: 's1', title: 'Other', hasOlder: false, messages: [
      { role: 'user', id: 'm1', text: '', images: ['pasted image "dot.png"'] },
    ] } });
    assert.deepEqual(await chat.js('window.__revoked'), [url]);
    assert.equal(await chat.page.locator('.msg.user img.thumb').count(), 0);
    assert.equal((await chat.page.locator('.msg.user .chip-image').innerText()).trim(), 'pasted image "dot.png"');
  });

  it('text pasted from the clipboard is pasted as text, with no chip', async () => {
    await chat.js(`(() => { const dt = new DataTransfer(); dt.setData('text/plain', 'hello');
      return document.querySelector('textarea.input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })); })()`);
    assert.equal(await chat.js('document.querySelectorAll(".composer .chip-image").length'), 0);
    assert.equal(await chat.js('document.querySelector(".error-bar").hidden'), true);
  });
});
