// The chat in a real window: a loopback server speaking OpenAI's Chat Completions drives a scripted
// model through the real SDK; it reads a file, writes one through the diff review (accepted from the
// chat's inline card), runs a command, and answers. The answer is rendered in the real webview, and
// the session is stored.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { reply, text, toolCall, type ScriptRequest, type ScriptStep } from '../../support/model-script';
import { startOpenAiChatServer } from '../../support/openai-chat-server';
import type { ModelServer } from '../../support/model-server-base';
import { core, harness, waitFor } from './host-util';

type Msg = { role: string; content?: unknown };

/** read_file → write_file (reviewed) → exec → the answer. */
function model(req: ScriptRequest): ScriptStep {
  const results = (req.body.messages as Msg[]).filter((m) => m.role === 'tool').length;
  if (results === 0) return reply(text('Reading the notes.'), toolCall('read_file', { path: 'chat-notes.txt' }));
  if (results === 1) return reply(toolCall('write_file', { path: 'chat-out.txt', content: 'written from the chat\n' }));
  if (results === 2) return reply(toolCall('exec', { command: 'cat chat-out.txt && echo exec-from-chat' }));
  return { ...reply(text('All done: the **notes** say *pelican*, and `chat-out.txt` is written.')), usage: { input: 500, output: 40 } };
}

suite('chat', () => {
  let server: ModelServer | undefined;
  suiteSetup(async () => {
    server = await startOpenAiChatServer(model, { models: ['test-model'] });
    await vscode.workspace.getConfiguration('pincer').update('providers.openai.baseUrl', server.url, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('pincer').update('exec.host', 'process', vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('pincer').update('rateLimit.enabled', false, vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    for (const k of ['providers.openai.baseUrl', 'exec.host', 'rateLimit.enabled']) await vscode.workspace.getConfiguration('pincer').update(k, undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
  });

  test('a scripted model reads, edits through the review, runs a command and answers in the webview', async function () {
    this.timeout(120_000);
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    fs.writeFileSync(path.join(root, 'chat-notes.txt'), 'The bird of the day is pelican.\n');
    const { chat } = await core();
    await chat.models.choose({ provider: 'openai', model: 'test-model' });
    await vscode.commands.executeCommand('pincer.chat.new');
    await chat.view.resolved;
    const key = chat.view.controller.currentSession;
    assert.ok(key, 'New Chat made a session');
    const turn = chat.view.controller.send({ type: 'send', text: 'What bird do the notes name? Write chat-out.txt and check it.', chips: [] });
    // The edit waits for review; its card is in the chat, and its button answers it.
    const card = await waitFor('the inline review card', () => chat.view.posted.find((m) => m.type === 'review'));
    assert.ok(card.type === 'review' && card.path === 'chat-out.txt');
    assert.ok(!fs.existsSync(path.join(root, 'chat-out.txt')), 'nothing written before the review');
    await chat.view.controller.handle({ type: 'review', id: card.id, action: 'accept' });
    await turn;
    assert.strictEqual(fs.readFileSync(path.join(root, 'chat-out.txt'), 'utf8'), 'written from the chat\n');
    const end = chat.view.posted.find((m) => m.type === 'turn-end');
    assert.ok(end && end.type === 'turn-end' && end.stopReason === 'end', JSON.stringify(end));
    const tools = chat.view.posted.filter((m) => m.type === 'tool-call' && m.call.status !== 'running').map((m) => m.type === 'tool-call' ? `${m.call.name}:${m.call.status}` : '');
    assert.deepStrictEqual(tools, ['read_file:ok', 'write_file:ok', 'exec:ok']);
    const execCard = chat.view.posted.find((m) => m.type === 'tool-call' && m.call.name === 'exec' && m.call.status === 'ok');
    assert.ok(execCard?.type === 'tool-call' && /exec-from-chat/.test(execCard.call.result ?? ''), 'the command ran');
    assert.ok(chat.view.posted.some((m) => m.type === 'review-settled' && m.outcome === 'accepted'));
    // A page posted while the turn ran (the view opening mid-turn) ends at the turn's user message: its
    // cards come from the live replay only, never twice.
    const pages = chat.view.posted.flatMap((m) => (m.type === 'init' && m.session ? [m.session] : m.type === 'session' ? [m.session] : []));
    assert.ok(pages.every((p) => !p.messages.some((m) => m.role === 'tool' && /No result was recorded/.test(m.call.result ?? ''))), 'no half-stored tool card');
    if (harness) {
      // The page may still be loading (then its `ready` brings the stored session): wait for the text.
      let shown = '';
      await waitFor('the answer in the webview', async () => /All done: the notes say pelican/.test(shown = (await harness!.webviewText('.transcript')) ?? ''))
        .catch((e: Error) => { throw new Error(`${e.message}; the transcript shows: ${shown.slice(0, 500)}`); });
      await harness.screenshot('chat-answer');
    }
    const store = await chat.sessions();
    const msgs = await store!.messages(key!);
    assert.deepStrictEqual(msgs.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    const rec = await store!.find(key!);
    assert.match(rec!.title, /What bird/);
    assert.ok(rec!.usage.inputTokens >= 500);
    // Opened again (a reload): the review card with its outcome, the tool durations and the footer are there.
    const reopened = await waitFor('the stored marks', async () => {
      await chat.view.controller.switchTo(key!);
      const page = chat.view.posted.filter((m) => m.type === 'session').at(-1);
      const msgs = page?.type === 'session' ? page.session.messages : [];
      return msgs.some((m) => m.role === 'review' && m.review.outcome === 'accepted') ? msgs : undefined;
    });
    assert.deepStrictEqual(reopened.filter((m) => m.role === 'review').map((m) => m.role === 'review' && [m.review.path, m.review.outcome]), [['chat-out.txt', 'accepted']]);
    assert.ok(reopened.filter((m) => m.role === 'tool').every((m) => m.role === 'tool' && m.call.durationMs !== undefined), 'every card has its duration');
    const footer = reopened.at(-1);
    assert.ok(footer?.role === 'turn-end' && footer.end.stopReason === 'end' && footer.end.usage!.input >= 500, JSON.stringify(footer));
  });

  test('Connect to Ollama / LM Studio: the server found is written to the user settings and its first model chosen', async () => {
    const { chat } = await core();
    const cfg = () => vscode.workspace.getConfiguration('pincer').inspect<string>('providers.openai.baseUrl');
    await vscode.workspace.getConfiguration('pincer').update('providers.openai.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    const set = await vscode.commands.executeCommand<string>('pincer.connectLocalModel', { servers: [{ name: 'Test server', baseUrl: server!.url }], confirmed: true });
    assert.strictEqual(set, server!.url);
    assert.strictEqual(cfg()?.globalValue, server!.url, 'in the user settings');
    assert.strictEqual(cfg()?.workspaceValue, undefined, 'never in the workspace');
    assert.deepStrictEqual(chat.models.choice(), { provider: 'openai', model: 'test-model' });
  });

  test("VS Code's Language Model API: a model another extension provides reads a file through Pincer's tools and answers", async function () {
    this.timeout(90_000);
    const models = await waitFor('the test model (test/host/fixtures/lm-provider)', async () => {
      const m = await vscode.lm.selectChatModels({ vendor: 'pincer-test' });
      return m.length ? m : undefined;
    });
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    fs.writeFileSync(path.join(root, 'notes-lm.txt'), 'The secret word is albatross.\n');
    const { chat } = await core();
    const listed = await chat.models.models();
    const lm = listed.find((m) => m.provider === 'vscode-lm' && m.info?.id === models[0].id);
    assert.ok(lm, `Select Model lists it: ${JSON.stringify(listed.map((m) => m.info?.id))}`);
    await chat.models.choose({ provider: 'vscode-lm', model: models[0].id });
    const store = (await chat.sessions())!;
    const s = await store.create('default');
    const r = await chat.service.turn({ sessionKey: s.key, agentId: 'default', text: 'What is the secret word?', signal: new AbortController().signal });
    assert.strictEqual(r.stopReason, 'end', r.message);
    assert.match(r.text, /Through VS Code's LM API: the word is albatross/);
    assert.deepStrictEqual((await store.messages(s.key)).map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
  });
});
