// Images pasted or dropped into the chat input (real Chromium, the built bundle under the page's CSP):
// a pasted PNG becomes a chip with its name and size and goes out with `send` as base64; a drop of
// several files keeps the image and refuses, in words, a text file and one over 20 MB; a removed chip
// is not sent, a sent one is gone from the composer and named on the sent message
// (and on a stored one).
import assert from 'node:assert/strict';
import { initMessage, page as sessionPage } from './chat-fixtures';
import { chatPerTest, chatSuite, type ChatPage } from './chat-page-driver';

const PNG_BYTES = [137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4];

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
    assert.equal((await chat.page.locator('.msg.user').last().locator('.chip-image').innerText()).trim(), 'pasted image "shot.png"', 'the sent message names its image');
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

  it('text pasted from the clipboard is pasted as text, with no chip', async () => {
    await chat.js(`(() => { const dt = new DataTransfer(); dt.setData('text/plain', 'hello');
      return document.querySelector('textarea.input').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })); })()`);
    assert.equal(await chat.js('document.querySelectorAll(".composer .chip-image").length'), 0);
    assert.equal(await chat.js('document.querySelector(".error-bar").hidden'), true);
  });
});
