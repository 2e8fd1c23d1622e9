// An image pasted into the chat in a real window: the webview's send message with an image goes
// through the chat controller and the turn to a loopback OpenAI-compatible model (the real SDK), which
// receives it as an image_url part of the user message; the reopened session still names the image.
// A message of an image alone, as the page sends it (checked by the protocol the view applies), reaches
// the model as a user message of that image only, titles the session and is shown when it is reopened:
// its thumbnail comes back from the workspace database with the page, and the chat webview draws it
// (an <img> of a blob: URL made from the stored bytes, checked in the real page through the harness).
// Files dropped from the Explorer arrive as URIs: looked up through VS Code's file system, an image of
// the workspace comes back to the page as an image, another file as a file chip, and a folder, a
// file outside the workspace or an image the toolset's path guard denies (a `.git` internal) is
// refused in words.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { parseToHost, parseToWebview, type ContextChip, type ToWebview } from '../../../src/core/chat/chat-protocol';
import { dropUris } from '../../../src/host/chat/chat-drop';
import { reply, text, type ScriptRequest, type ScriptStep } from '../../support/model-script';
import { core, harness, suiteChatModel, waitFor } from './host-util';

/** A valid 1×1 PNG: small enough to go as it is, real enough to decode. */
const DOT_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

type Part = { type: string; text?: string; image_url?: { url: string } };
type Msg = { role: string; content?: string | Part[] };

function model(_req: ScriptRequest): ScriptStep {
  return reply(text('A single dot.'));
}

/** A new chat session on the loopback model: the chat host and the session's key. */
async function newChatOnTestModel() {
  const { chat } = await core();
  await chat.models.choose({ provider: 'openai', model: 'test-model' });
  await vscode.commands.executeCommand('pincer.chat.new');
  await chat.view.resolved;
  return { chat, key: chat.view.controller.currentSession! };
}

suite('chat images', () => {
  const server = suiteChatModel(model);

  test('files dropped from the Explorer: an image read for the page, a file chip, a folder, an outside file and a denied image refused', async function () {
    this.timeout(60_000);
    const root = vscode.workspace.workspaceFolders![0].uri;
    const dir = vscode.Uri.joinPath(root, 'dropped-media');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'dot.png'), Buffer.from(DOT_PNG, 'base64'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'notes.ts'), Buffer.from('export const n = 1;\n'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, '.git', 'denied.png'), Buffer.from(DOT_PNG, 'base64'));
    const { exec } = await core();
    try {
      const posted: ToWebview[] = [];
      const attached: ContextChip[] = [];
      const outside = vscode.Uri.file('/etc/hostname').toString();
      const drops = [`${dir}/dot.png`, `${dir}/notes.ts`, dir.toString(), outside, `${dir}/../../etc/x.png`, `${dir}/.git/denied.png`];
      await dropUris(drops, exec.guard, (m) => posted.push(m), (c) => attached.push(...c));
      assert.deepEqual(posted.filter((m) => m.type === 'attach-images'), [{ type: 'attach-images', images: [{ name: 'dropped-media/dot.png', mimeType: 'image/png', data: DOT_PNG }] }]);
      assert.deepEqual(attached, [{ kind: 'file', path: 'dropped-media/notes.ts', origin: 'user' }]);
      const error = posted.find((m) => m.type === 'error');
      assert.ok(error?.type === 'error', JSON.stringify(posted));
      assert.match(error.message, /dropped-media is a folder/);
      assert.match(error.message, /\/etc\/hostname is outside this workspace/);
      assert.match(error.message, /x\.png is outside this workspace/);
      // Inside the workspace folder, but the path guard the file tools use hides `.git` internals.
      assert.match(error.message, /Not attached: .*denied\.png.* is hidden by the rule "\*\*\/\.git\/\*\*" of the setting pincer\.fs\.denyPaths/);
      // What the page gets passes the protocol it checks.
      assert.ok(posted.every((m) => parseToWebview(m).ok), 'every message fits the protocol');
    } finally {
      await vscode.workspace.fs.delete(dir, { recursive: true });
    }
  });

  test('a pasted image reaches the model as an image part of the message, and the session names it', async function () {
    this.timeout(120_000);
    const { chat, key } = await newChatOnTestModel();
    assert.ok(key, 'New Chat made a session');
    await chat.view.controller.send({ type: 'send', text: 'What is in this picture?', chips: [], images: [{ name: 'dot.png', mimeType: 'image/png', data: DOT_PNG }] });

    const sent = server().requests.at(-1)?.messages as Msg[] | undefined;
    const user = sent?.filter((m) => m.role === 'user').at(-1);
    assert.ok(Array.isArray(user?.content), `the user message has parts: ${JSON.stringify(user)}`);
    const parts = user.content as Part[];
    assert.ok(parts.some((p) => p.type === 'text' && /What is in this picture\?/.test(p.text ?? '')), JSON.stringify(parts).slice(0, 400));
    const image = parts.find((p) => p.type === 'image_url');
    assert.ok(image?.image_url?.url.startsWith('data:image/png;base64,'), 'the image goes as a data: URL');
    const end = chat.view.posted.filter((m) => m.type === 'turn-end').at(-1);
    assert.ok(end?.type === 'turn-end' && end.stopReason === 'end', JSON.stringify(end));

    // Opened again (as after a reload): the stored message still names its image.
    const page = await waitFor('the stored message with its image', async () => {
      await chat.view.controller.switchTo(key);
      const p = chat.view.posted.filter((m) => m.type === 'session').at(-1);
      const ms = p?.type === 'session' ? p.session.messages : [];
      return ms.some((m) => m.role === 'user' && JSON.stringify(m).includes('dot.png')) ? ms : undefined;
    });
    assert.ok(page.some((m) => m.role === 'assistant' && JSON.stringify(m).includes('A single dot.')), 'the reply is stored beside it');
  });

  test('an image sent without text reaches the model alone, titles the session and is shown when reopened', async function () {
    this.timeout(120_000);
    const { chat, key } = await newChatOnTestModel();
    const parsed = parseToHost({ type: 'send', text: '', chips: [], images: [{ name: 'alone.png', mimeType: 'image/png', data: DOT_PNG }] });
    assert.ok(parsed.ok && parsed.message.type === 'send', parsed.ok ? '' : parsed.error);
    await chat.view.controller.send(parsed.message);

    const user = (server().requests.at(-1)?.messages as Msg[] | undefined)?.filter((m) => m.role === 'user').at(-1);
    assert.ok(Array.isArray(user?.content), JSON.stringify(user));
    assert.deepEqual((user.content as Part[]).map((p) => p.type), ['image_url'], 'the image alone, no empty text part');
    const end = chat.view.posted.filter((m) => m.type === 'turn-end').at(-1);
    assert.ok(end?.type === 'turn-end' && end.stopReason === 'end', JSON.stringify(end));
    const listed = chat.view.posted.filter((m) => m.type === 'sessions').at(-1);
    assert.equal(listed?.type === 'sessions' ? listed.sessions.find((s) => s.key === key)?.title : undefined, 'pasted image "alone.png"');

    const page = await waitFor('the stored image-only message', async () => {
      await chat.view.controller.switchTo(key);
      const p = chat.view.posted.filter((m) => m.type === 'session').at(-1);
      const ms = p?.type === 'session' ? p.session.messages : [];
      return ms.find((m) => m.role === 'user') ? ms : undefined;
    });
    assert.deepEqual(page.filter((m) => m.role === 'user').map((m) => m.role === 'user' && { text: m.text, images: m.images }), [{ text: '', images: ['pasted image "alone.png"'] }]);
    // Its thumbnail is stored with it (a 1×1 image is its own) and drawn again in the reopened chat.
    assert.deepEqual(page.filter((m) => m.role === 'user').map((m) => m.role === 'user' && m.thumbnails), [[{ mimeType: 'image/png', data: DOT_PNG }]]);
    if (harness) {
      const drawn = await waitFor('the thumbnail drawn in the reopened chat', async () => {
        const imgs = await harness!.webviewImages('.msg.user img.thumb').catch(() => []);
        return imgs.find((i) => i.alt === 'pasted image "alone.png"' && i.complete && i.width === 1);
      });
      assert.deepEqual(drawn, { alt: 'pasted image "alone.png"', scheme: 'blob', complete: true, width: 1, height: 1 });
      await harness.screenshot('chat-reopened-thumbnail');
    }
  });
});
