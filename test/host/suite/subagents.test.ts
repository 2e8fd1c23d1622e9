// Subagents in a real window: a chat turn whose loopback model (OpenAI's Chat Completions through the
// real SDK) spawns two children in parallel and waits for them. Both appear in the Subagents view's
// tree and as cards in the chat; one finishes with its result, the other is held mid-answer by the
// server and cancelled through its card's Stop; the reopened session shows both cards again, and
// the view opens a child's transcript.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { MessageOf, ToWebview } from '../../../src/core/chat/chat-protocol';
import type { SubagentTreeNode } from '../../../src/host/subagents/subagents-view';
import { reply, text, toolCall, type ScriptRequest, type ScriptStep } from '../../support/model-script';
import { core, harness, suiteChatModel, waitFor } from './host-util';

type Msg = { role: string; content?: unknown };
const messages = (req: ScriptRequest) => req.body.messages as Msg[];
const isChild = (req: ScriptRequest) => String(messages(req)[0]?.content ?? '').includes('You are a subagent');
const toolResults = (req: ScriptRequest) => messages(req).filter((m) => m.role === 'tool').length;

/** Parent: spawn two children, wait for them, answer. Child A answers; child B never finishes its answer. */
function model(req: ScriptRequest): ScriptStep {
  if (isChild(req)) {
    const task = String(messages(req).find((m) => m.role === 'user')?.content ?? '');
    if (task.includes('Task A')) return { ...reply(text('A: the build is green.')), usage: { input: 300, output: 12 } };
    return { parts: [text('Working on B, this takes a while')], holdAfter: 2 };
  }
  const n = toolResults(req);
  if (n === 0) {
    return reply(toolCall('spawn', { action: 'spawn', task: 'Task A: check the build', label: 'alpha' }, 'sp1'),
      toolCall('spawn', { action: 'spawn', task: 'Task B: read every file', label: 'beta' }, 'sp2'));
  }
  if (n === 2) return reply(toolCall('spawn', { action: 'wait', timeoutSeconds: 600 }, 'w1'));
  return reply(text('Both children reported back.'));
}

type Card = MessageOf<ToWebview, 'subagent'>;

suite('subagents', () => {
  suiteChatModel(model, { 'subagents.askBeforeSpawn': 'never' });

  test('a turn spawns two children in parallel: both in the Subagents view and as cards; one finishes, one is stopped from its card', async function () {
    this.timeout(180_000);
    const c = await core();
    const { chat } = c;
    await chat.models.choose({ provider: 'openai', model: 'test-model' });
    await vscode.commands.executeCommand('pincer.chat.new');
    await chat.view.resolved;
    const key = chat.view.controller.currentSession!;
    assert.ok(key, 'New Chat made a session');
    const turn = chat.view.controller.send({ type: 'send', text: 'Check A and B with two subagents.', chips: [] });

    // Both children in the view's tree, under this session.
    const view = c.subagentsView;
    const rows = await waitFor('both children in the Subagents view', async () => {
      const sessions = await view.getChildren();
      const mine = sessions.find((s) => s.kind === 'session' && s.sessionKey === key);
      const kids = mine ? await view.getChildren(mine) : [];
      return kids.length === 2 ? kids : undefined;
    });
    const label = (n: SubagentTreeNode) => String(view.getTreeItem(n).label);
    const byLabel = new Map(rows.map((n) => [label(n), n]));
    assert.deepStrictEqual([...byLabel.keys()].sort(), ['alpha', 'beta']);
    const idOf = (n: SubagentTreeNode | undefined) => (n?.kind === 'child' ? n.id : '');
    const [a, b] = [idOf(byLabel.get('alpha')), idOf(byLabel.get('beta'))];

    // Both as cards in the running turn; A finishes with its result while B runs.
    const cards = () => chat.view.posted.filter((m): m is Card => m.type === 'subagent');
    await waitFor('a card per child in the turn', () => [a, b].every((id) => cards().some((m) => m.child.id === id && m.turnId)));
    const doneA = await waitFor('child A done on its card', () => cards().find((m) => m.child.id === a && m.child.status === 'done'));
    assert.strictEqual(doneA.child.result, 'A: the build is green.');
    await waitFor('child B running', () => cards().some((m) => m.child.id === b && m.child.status === 'running'));
    assert.strictEqual(view.getTreeItem(byLabel.get('beta')!).contextValue, 'pincer.subagent.live', 'a running child offers cancel');
    if (harness) {
      await vscode.commands.executeCommand('pincer.subagents.focus');
      await harness.screenshot('subagents-running');
    }

    // Stop on B's card cancels B (only B), and the parent's wait returns.
    await chat.view.controller.handle({ type: 'subagent-stop', id: b });
    await turn;
    const end = chat.view.posted.find((m) => m.type === 'turn-end');
    assert.ok(end?.type === 'turn-end' && end.stopReason === 'end', JSON.stringify(end));
    const manager = await chat.loadedSubagents();
    assert.strictEqual(manager.get(a)!.status, 'done');
    assert.strictEqual(manager.get(b)!.status, 'cancelled');
    assert.match(manager.get(b)!.result ?? '', /Stop on its card/);
    await waitFor('the tree refreshed', () => view.getTreeItem(byLabel.get('beta')!).contextValue === 'pincer.subagent.resumable' || undefined);
    assert.match(String(view.getTreeItem(byLabel.get('alpha')!).description), /^done · \d[\d,]* tokens · /);
    assert.ok(cards().some((m) => m.child.id === b && m.child.status === 'cancelled'), 'the card says cancelled');

    // The session opened again (as after a reload): both cards in the turn, with their outcome.
    const page = await waitFor('the stored cards', async () => {
      await chat.view.controller.switchTo(key);
      const p = chat.view.posted.filter((m) => m.type === 'session').at(-1);
      const ms = p?.type === 'session' ? p.session.messages : [];
      return ms.filter((m) => m.role === 'subagent').length === 2 ? ms : undefined;
    });
    assert.deepStrictEqual(page.flatMap((m) => (m.role === 'subagent' ? [[m.child.id, m.child.status]] : [])).sort(), [[a, 'done'], [b, 'cancelled']].sort());
    assert.ok(page.findIndex((m) => m.role === 'subagent') < page.findIndex((m) => m.role === 'turn-end'), 'inside the turn, before its footer');

    // The child's transcript opens as a read-only document.
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('pincer.subagents.open', a);
    const doc = editor.document.getText();
    assert.match(doc, /^# Subagent alpha/);
    assert.match(doc, /> A: the build is green\./);
    assert.strictEqual(editor.document.uri.scheme, 'pincer-result');
    if (harness) {
      await vscode.commands.executeCommand('pincer.chat.focus');
      // The page renders what the host posts after it says it is ready: wait for the cards themselves
      // in the webview, not for a time, or the screenshot shows an empty chat.
      await waitFor('the cards drawn in the chat webview', async () => /alpha[\s\S]*beta|beta[\s\S]*alpha/.test(await harness!.webviewText('.transcript').catch(() => '')) || undefined);
      await harness.screenshot('subagents-chat-and-view');
    }
  });
});
