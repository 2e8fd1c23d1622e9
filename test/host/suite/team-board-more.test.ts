// The Team Board in a real window, beyond the basics in teams.test.ts: a task's own quality gates set
// by the lead through the tool pipeline (a member may not set them) show on its card; the team's
// mailbox shows on the board without marking anything read; and the board remembers the team picked
// last in the workspace's state, so a board opened again (as after a reload) shows that team, not the first.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, harness, waitFor } from './host-util';

const TEAM = (name: string) => `---\nname: ${name}\nlead: default\nmembers: [ann, bob]\n---\n`;

suite('Team Board: task gates, mailbox, the team picked last', () => {
  test('a gated task\'s card, the mailbox, and the team picked last outlives the panel', async function () {
    this.timeout(180_000);
    const pincer = await core();
    const { rt } = pincer.services;
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const dir = vscode.Uri.joinPath(folder, '.pincer', 'teams');
    const files = [vscode.Uri.joinPath(dir, 'alpha.md'), vscode.Uri.joinPath(dir, 'beta.md')];
    await vscode.workspace.fs.createDirectory(dir);
    await vscode.workspace.fs.writeFile(files[0]!, Buffer.from(TEAM('Alpha')));
    await vscode.workspace.fs.writeFile(files[1]!, Buffer.from(TEAM('Beta')));
    try {
      await waitFor('both teams', () => ['alpha', 'beta'].every((id) => pincer.teams.teams().some((t) => t.id === id)));
      await vscode.commands.executeCommand('pincer.teams.pick', 'alpha');
      const leadSession = pincer.teams.service()?.leadSession('alpha');
      assert.ok(leadSession);
      const lead = rt.context({ channel: 'chat', sessionKey: leadSession, agentId: 'default' });
      const call = (args: Record<string, unknown>, ctx = lead) => rt.registry.execute('team_tasks', args, ctx) as Promise<ToolResult>;

      await vscode.commands.executeCommand('pincer.teams.openBoard', 'alpha');
      const panel = pincer.teamBoard;
      const made = await call({ action: 'create', subject: 'Ship the parser', gates: [{ name: 'unit tests', command: 'npm test' }, { agent: 'rev', block_on_failure: false }] });
      assert.strictEqual(made.isError, false, made.forLLM);
      const id = made.details!.id as number;
      // A gate's reviewer on the team is refused, and nothing is made.
      assert.match((await call({ action: 'create', subject: 'Self-reviewed', gates: [{ agent: 'ann' }] })).forLLM, /^Refused: reviewer ann is on team alpha/);
      await waitFor('the gated task on the board', () => panel.last?.tasks.find((t) => t.id === id)?.gates.length === 2);
      assert.deepStrictEqual(panel.last!.tasks.map((t) => t.subject), ['Ship the parser']);

      // A member's message and the lead's answer show in the board's mailbox; nothing is marked read by it
      // (written to the store: a message through team_message would start the member, which needs a model).
      const board = (await pincer.teams.board())!;
      await board.send('alpha', 'ann', ['default'], '[ann] parser needs a grammar file', Date.now());
      await board.send('alpha', 'default', ['ann'], 'use docs/grammar.md', Date.now());
      await waitFor('both messages in the mailbox', () => panel.last?.messages.length === 2);
      assert.deepStrictEqual(panel.last!.messages.map((m) => [m.sender, m.recipient]), [['ann', 'default'], ['default', 'ann']]);
      assert.strictEqual(panel.last!.leadUnread, 1);
      if (harness) {
        await waitFor('the gates on the card', async () => /Gates: unit tests \(command\), reviewer rev \(agent\)/.test((await harness!.webviewText(`[data-task="${id}"]`)) ?? ''));
        await waitFor('the mailbox in the webview', async () => /ann → default \(unread\): \[ann\] parser needs a grammar file/.test((await harness!.webviewText('.mailbox')) ?? ''));
        await harness.screenshot('team-board-gates-mailbox');
      }

      // The person picks the other team on the board; closed and opened again, the board shows it.
      await panel.handle({ type: 'pick-team', team: 'beta' });
      assert.strictEqual(panel.last?.team?.id, 'beta');
      assert.strictEqual(pincer.teams.picked(), 'beta');
      await panel.handle({ type: 'pick-team', team: 'no-such-team' });
      assert.strictEqual(pincer.teams.picked(), 'beta', 'a team that is not defined is not remembered');
      panel.dispose();
      await vscode.commands.executeCommand('pincer.teams.openBoard');
      await waitFor('the board of the team picked last', () => panel.last?.team?.id === 'beta');
      panel.dispose();
    } finally {
      for (const f of files) await vscode.workspace.fs.delete(f);
    }
  });
});
