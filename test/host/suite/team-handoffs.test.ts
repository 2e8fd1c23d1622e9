// A Copilot custom agent's handoffs in a real window: its answers end with one button per handoff whose
// agent is defined; taking one hands the session to that agent (the next message runs as it, with the
// whole history) and writes its prompt into the input; a handoff back to the chat's own agent ends the
// handoff; a button the definition does not offer is refused. A reopened session brings the buttons
// of its last answer back while the agent that gave it has the chat, and says who has it after a handoff.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToWebview } from '../../../src/core/chat/chat-protocol';
import { reply, text, type ScriptRequest, type ScriptStep } from '../../support/model-script';
import { core, harness, suiteChatModel, waitFor } from './host-util';

const PLANNER = [
  '---', 'name: Planner', 'description: Plans, never edits', 'handoffs:',
  '  - label: Start Implementation', '    agent: implementer', '    prompt: Implement the plan above.', '    send: false',
  '  - label: Ask a ghost', '    agent: nobody-here', '    prompt: never shown',
  '---', 'You plan. You never edit.', '',
].join('\n');

type Msg = { role: string; content?: unknown };
const systemOf = (req: ScriptRequest) => String((req.body.messages as Msg[]).find((m) => m.role === 'system')?.content ?? '');

function model(req: ScriptRequest): ScriptStep {
  return reply(text(/You plan\. You never edit\./.test(systemOf(req)) ? 'Step 1: write the parser.' : 'Implementing now.'));
}

const lastPage = (posted: readonly ToWebview[]) => [...posted].reverse().find((m): m is Extract<ToWebview, { type: 'session' }> => m.type === 'session')?.session;

suite('Teams: handoff buttons of a Copilot custom agent', () => {
  suiteChatModel(model, { agents: { implementer: { name: 'Implementer', description: 'Writes the code' } } });

  test('the answer carries its handoffs as buttons; one taken hands the session over with its prompt written in', async function () {
    this.timeout(120_000);
    const { chat, memory } = await core();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const file = vscode.Uri.joinPath(folder, '.github', 'agents', 'planner.agent.md');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, '.github', 'agents'));
    await vscode.workspace.fs.writeFile(file, Buffer.from(PLANNER));
    try {
      const agents = memory.agents.registry;
      await waitFor('the planner and the implementer', () => agents.get('planner')?.handoffs?.length === 2 && agents.get('implementer'));
      await chat.models.choose({ provider: 'openai', model: 'test-model' });
      await chat.view.reveal();
      await chat.view.controller.pickAgent('planner');
      const from = chat.view.posted.length;
      await chat.view.controller.send({ type: 'send', text: 'Plan a parser.', chips: [] });
      const key = chat.view.controller.currentSession!;
      const end = chat.view.posted.slice(from).find((m): m is Extract<ToWebview, { type: 'turn-end' }> => m.type === 'turn-end');
      assert.strictEqual(end?.stopReason, 'end', JSON.stringify(end));
      // The ghost's button is not shown: its agent is not defined.
      assert.deepStrictEqual(end.handoffs, [{ label: 'Start Implementation', agent: 'implementer', agentName: 'Implementer', prompt: 'Implement the plan above.', send: false }]);
      if (harness) assert.match(await harness.webviewText('.handoffs'), /Start Implementation/);
      // Reopened: the page brings the same buttons back, with the chat still the planner's.
      await chat.view.controller.switchTo(key);
      assert.deepStrictEqual(lastPage(chat.view.posted)?.handoffs, end.handoffs);
      assert.strictEqual(lastPage(chat.view.posted)?.handedTo, undefined);

      // A button the definition does not offer is refused, and nothing is handed over.
      await chat.view.controller.handle({ type: 'handoff', agent: 'nobody-here', label: 'Ask a ghost' });
      assert.match(JSON.stringify(chat.view.posted.at(-1)), /"type":"error".*not offered by planner/);
      const handoffs = (await chat.handoffs())!;
      assert.strictEqual(await handoffs.get(key), undefined);

      // The person takes the offered one: the session is the implementer's now, the prompt is in the input.
      await chat.view.controller.handle({ type: 'handoff', agent: 'implementer', label: 'Start Implementation' });
      assert.deepStrictEqual(chat.view.posted.at(-1), { type: 'prefill', text: 'Implement the plan above.', send: false });
      assert.deepStrictEqual(chat.view.posted.at(-2), { type: 'handed', key, to: { agent: 'implementer', name: 'Implementer' } });
      // Reopened now: the header's word comes with the page; the planner's buttons do not (the row was done).
      await chat.view.controller.switchTo(key);
      assert.deepStrictEqual(lastPage(chat.view.posted)?.handedTo, { agent: 'implementer', name: 'Implementer' });
      assert.strictEqual(lastPage(chat.view.posted)?.handoffs, undefined);
      assert.strictEqual((await handoffs.get(key))?.agent, 'implementer');
      assert.strictEqual((await handoffs.get(key))?.from, 'planner');
      const next = chat.view.posted.length;
      await chat.view.controller.send({ type: 'send', text: 'Implement the plan above.', chips: [] });
      const second = chat.view.posted.slice(next).find((m) => m.type === 'turn-end');
      assert.ok(second?.type === 'turn-end' && second.stopReason === 'end' && second.handoffs === undefined, 'the implementer offers no handoffs');
      const texts = chat.view.posted.slice(next).flatMap((m) => (m.type === 'text-delta' ? [m.text] : [])).join('');
      assert.match(texts, /Implementing now\./, 'the next message ran as the implementer');
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });
});
