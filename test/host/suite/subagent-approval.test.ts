// A child's approval in a real window: a chat turn whose loopback model runs a child (`run`), and the
// child runs a command that writes outside the workspace, which needs the person's approval. The
// approval the person is shown — inline in the chat turn that started the child, and the label the
// dialog or notification would carry — names the child; answering it in the chat lets the child run
// the command and finish, and the parent gets its answer.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { MessageOf, ToWebview } from '../../../src/core/chat/chat-protocol';
import { reply, text, toolCall, type ScriptRequest, type ScriptStep } from '../../support/model-script';
import { core, harness, suiteChatModel, waitFor } from './host-util';

type Msg = { role: string; content?: unknown };
const messages = (req: ScriptRequest) => req.body.messages as Msg[];
const isChild = (req: ScriptRequest) => String(messages(req)[0]?.content ?? '').includes('You are a subagent');
const toolResults = (req: ScriptRequest) => messages(req).filter((m) => m.role === 'tool');

const marker = path.join(os.tmpdir(), `pincer-child-approved-${process.pid}-${Date.now()}`);

/** Parent: run one child and answer with its result. Child: touch the marker (asks), then report. */
function model(req: ScriptRequest): ScriptStep {
  const results = toolResults(req);
  if (isChild(req)) {
    if (!results.length) return reply(toolCall('exec', { command: `touch ${marker}` }, 'ex1'));
    return reply(text('Child: the marker file is there.'));
  }
  if (!results.length) return reply(toolCall('spawn', { action: 'run', task: 'Task C: create the marker file', label: 'marker-maker' }, 'sp1'));
  return reply(text('The child reported back.'));
}

type ApprovalCard = MessageOf<ToWebview, 'approval'>;

suite('subagent approvals', () => {
  suiteChatModel(model, {
    'subagents.askBeforeSpawn': 'never', 'exec.host': 'process', 'exec.sandbox.mode': 'off', 'exec.approvalPrompt': 'notification',
  });
  suiteTeardown(() => fs.rmSync(marker, { force: true }));

  test("a child's command approval names the child, and answering it in the chat lets the child go on", async function () {
    this.timeout(120_000);
    const c = await core();
    const { chat, exec } = c;
    await chat.models.choose({ provider: 'openai', model: 'test-model' });
    await vscode.commands.executeCommand('pincer.chat.new');
    await chat.view.resolved;
    const key = chat.view.controller.currentSession!;
    assert.ok(key, 'New Chat made a session');
    const turn = chat.view.controller.send({ type: 'send', text: 'Have a subagent create the marker file.', chips: [] });

    // The child's request waits for the person; nothing ran yet.
    const req = await waitFor("the child's approval request", () => exec.approvals.waiting().find((r) => r.command === `touch ${marker}`));
    const manager = await chat.loadedSubagents();
    const child = manager.childOfSession(req.sessionKey);
    assert.ok(child, `the request comes from a child's session (${req.sessionKey}), not the chat's`);
    assert.strictEqual(child.parentSessionKey, key);
    assert.strictEqual(child.label, 'marker-maker');
    assert.ok(!fs.existsSync(marker), 'nothing runs before the answer');

    // What the person sees names the child: the card in the chat turn, and the dialog's label.
    const card = await waitFor('the approval card in the chat', () =>
      chat.view.posted.find((m): m is ApprovalCard => m.type === 'approval' && m.id === req.id));
    assert.strictEqual(card.command, `touch ${marker}`);
    assert.match(card.from ?? '', /"marker-maker"/, JSON.stringify(card));
    assert.ok(card.from?.includes(child.id), `the card names the child's id: ${card.from}`);
    assert.strictEqual(exec.approvals.origin?.(req.sessionKey), card.from, 'the dialog or notification carries the same label');
    assert.strictEqual(exec.approvals.origin?.(key), undefined, "the person's own chat is no child");
    if (harness) {
      await vscode.commands.executeCommand('pincer.chat.focus');
      await waitFor('the card drawn in the chat webview', async () => /marker-maker/.test(await harness!.webviewText('.transcript').catch(() => '')) || undefined);
      await harness.screenshot('subagent-approval');
    }

    // The person's "once" in the chat: the command runs, the child finishes, the parent answers.
    await chat.view.controller.handle({ type: 'approve', id: req.id, answer: 'once' });
    await waitFor('the answer settled in the chat', () =>
      chat.view.posted.some((m) => m.type === 'approval-settled' && m.id === req.id && m.answer === 'once') || undefined);
    await turn;
    assert.ok(fs.existsSync(marker), 'approved once: the child ran the command');
    const done = manager.get(child.id)!;
    assert.strictEqual(done.status, 'done', JSON.stringify(done));
    assert.strictEqual(done.result, 'Child: the marker file is there.');
    const end = chat.view.posted.filter((m) => m.type === 'turn-end').at(-1);
    assert.ok(end?.type === 'turn-end' && end.stopReason === 'end', JSON.stringify(end));
    assert.strictEqual(exec.approvals.waiting().length, 0);
  });
});
