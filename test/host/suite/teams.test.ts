// Teams in a real window: a `.pincer/teams/*.md` file written while the window is open defines a team
// (the team tools appear, TEAM.md is the lead's), Pick Team… makes its lead the chat's agent, and the
// Team Board draws the board in its webview and follows it live: tasks the lead creates through the
// tool pipeline appear, a person approves one on the board (screenshot) and cancels another, and the
// lead hears of both (each click a team_tasks call through the pipeline: in the tool log on the palette
// channel, and refused like any call when the policy denies the tool); the lead's ask_user question
// waits on the board and is answered there. Deleting the file takes the team tools away again.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, harness, waitFor } from './host-util';

async function setDeny(value: string[] | undefined) {
  await vscode.workspace.getConfiguration('pincer').update('tools.deny', value, vscode.ConfigurationTarget.Global);
}

const TEAM = '---\nname: Host Team\nlead: default\nmembers:\n  - agent: ann\n    description: writes the API\n  - bob\n---\nKeep tasks small.\n';

suite('Teams', () => {
  test('a team file defines a team: tools, TEAM.md, Pick Team…, and a live Team Board a person approves and cancels on', async function () {
    this.timeout(180_000);
    const pincer = await core();
    const { rt } = pincer.services;
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const file = vscode.Uri.joinPath(folder, '.pincer', 'teams', 'hostteam.md');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, '.pincer', 'teams'));
    await vscode.workspace.fs.writeFile(file, Buffer.from(TEAM));
    try {
      await waitFor('the team', () => pincer.teams.teams().some((t) => t.id === 'hostteam'));
      await waitFor('the team tools', () => rt.registry.get('team_tasks') && rt.registry.get('team_message'));
      assert.strictEqual(await pincer.teams.teamMd('host-other-session', 'default'), undefined, 'the lead leads only in a session started for its team');
      const picked = await vscode.commands.executeCommand<{ id: string } | undefined>('pincer.teams.pick', 'hostteam');
      assert.strictEqual(picked?.id, 'hostteam');
      assert.strictEqual(pincer.teams.picked(), 'hostteam');
      // Pick Team… started a new chat session for the team: its lead leads there.
      const leadSession = pincer.teams.service()?.leadSession('hostteam');
      assert.ok(leadSession, 'Pick Team… starts a session for the team');
      const md = (await pincer.teams.teamMd(leadSession, 'default')) ?? '';
      assert.match(md, /^# TEAM\.md — team Host Team \(hostteam\)/);
      assert.match(md, /- \*\*ann\*\* — writes the API/);
      assert.match(md, /## Team instructions\nKeep tasks small\./);
      assert.strictEqual(await pincer.teams.teamMd(leadSession, 'ann'), undefined, 'only the lead gets TEAM.md');
      assert.strictEqual(await pincer.teams.teamMd('host-other-session', 'default'), undefined, 'and only in that session');

      // The lead plans through the real tool pipeline; the board panel is open and follows.
      await vscode.commands.executeCommand('pincer.teams.openBoard', 'hostteam');
      const lead = rt.context({ channel: 'chat', sessionKey: leadSession, agentId: 'default' });
      const create = async (args: Record<string, unknown>) => {
        const r = await rt.registry.execute('team_tasks', { action: 'create', ...args }, lead) as ToolResult;
        assert.strictEqual(r.isError, false, r.forLLM);
        return r.details!.id as number;
      };
      const api = await create({ subject: 'Write the API', require_review: true });
      const ui = await create({ subject: 'Build the UI', blocked_by: [api] });
      const board = (await pincer.teams.board())!;
      await board.claim('hostteam', api, undefined, { name: 'ann', at: Date.now() });
      await board.submitForReview('hostteam', api, 'GET /tasks returns the board', { name: 'ann', at: Date.now() });
      const panel = pincer.teamBoard;
      await waitFor('the task in review on the board', () => panel.last?.tasks.find((t) => t.id === api)?.status === 'in_review');
      if (harness) {
        await waitFor('the card in the webview', async () => /Write the API/.test((await harness!.webviewText('[data-column="in_review"]')) ?? ''));
        assert.match((await harness.webviewText(`[data-task="${ui}"] .blockers`)) ?? '', /Blocked by #\d+ \(open\)/);
      }

      // A person approves on the board: the same message the page's Approve button sends.
      await panel.handle({ type: 'action', action: 'approve', id: api, text: 'looks right' });
      assert.strictEqual(panel.lastResult?.ok, true, panel.lastResult?.text);
      assert.strictEqual((await board.get('hostteam', api))?.status, 'completed');
      await waitFor('the approved task under Done', () => panel.last?.tasks.find((t) => t.id === api)?.status === 'completed'
        && panel.last.tasks.find((t) => t.id === ui)?.openBlockers.length === 0);
      if (harness) {
        await waitFor('the card under Done in the webview', async () => /Write the API/.test((await harness!.webviewText('[data-column="done"]')) ?? ''));
        await harness.screenshot('team-board-approved');
      }
      // And cancels the other; a message that is not the board's protocol is dropped.
      await panel.handle({ type: 'action', action: 'cancel', id: ui });
      await panel.handle({ type: 'action', action: 'delete-everything', id: api });
      assert.strictEqual((await board.get('hostteam', ui))?.status, 'cancelled');
      assert.strictEqual((await board.get('hostteam', api))?.status, 'completed');
      const events = await board.events('hostteam');
      assert.deepStrictEqual(events.filter((e) => e.actor === 'person').map((e) => e.action), ['approve', 'cancel']);
      const mail = await rt.registry.execute('team_message', { action: 'read' }, lead) as ToolResult;
      assert.match(mail.forLLM, /\[person, on the Team Board\] Approved: #\d+ \[completed\]/);
      assert.match(mail.forLLM, /\[person, on the Team Board\] Cancelled #\d+ \[cancelled\]/);
      if (harness) await waitFor('the cancelled card under Failed', async () => /Build the UI/.test((await harness!.webviewText('[data-column="failed"]')) ?? ''));
      // The clicks went through Registry.execute: each has its row in the tool log, as the person's palette call.
      const approved = await waitFor('the approve click in the tool log', () => pincer.services.log.recent.find((c) =>
        c.tool === 'team_tasks' && c.channel === 'palette' && c.args.includes('"approve"') && c.args.includes('"hostteam"')));
      assert.strictEqual(approved.outcome, 'ok');

      // Hostile to the board: with team_tasks denied, its buttons are refused by the policy like any call.
      const personList = () => vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'team_tasks', { action: 'list', team: 'hostteam' }, { show: false });
      await setDeny(['team_tasks']);
      try {
        await waitFor('the deny to apply', async () => (await personList()).isError || undefined);
        await panel.handle({ type: 'action', action: 'retry', id: ui });
        assert.strictEqual(panel.lastResult?.ok, false, panel.lastResult?.text);
        assert.match(panel.lastResult?.text ?? '', /not allowed by policy here \(deny: listed in pincer\.tools\.deny/);
        assert.strictEqual((await board.get('hostteam', ui))?.status, 'cancelled', 'a refused retry changed nothing');
        const refusedRow = await waitFor('the refused retry in the tool log', () => pincer.services.log.recent.find((c) =>
          c.tool === 'team_tasks' && c.args.includes('"retry"') && c.outcome === 'refused'));
        assert.strictEqual(refusedRow.channel, 'palette');
      } finally {
        await setDeny(undefined);
      }
      await waitFor('the deny to be lifted', async () => !(await personList()).isError || undefined);

      // The lead's ask_user waits on the board (and in an input box); the person answers on the board.
      const asking = rt.registry.execute('team_tasks', { action: 'ask_user', text: 'Which port should the API use?' }, lead) as Promise<ToolResult>;
      await waitFor('the question on the board', () => panel.last?.questions.length === 1);
      if (harness) await waitFor('the question in the webview', async () => /Which port should the API use\?/.test((await harness!.webviewText('.questions')) ?? ''));
      await panel.handle({ type: 'answer', id: panel.last!.questions[0]!.id, text: '8080' });
      assert.strictEqual(panel.lastResult?.ok, true, panel.lastResult?.text);
      assert.strictEqual((await asking).forLLM, 'The person answered: 8080');
      await waitFor('the answered question to leave the board', () => panel.last?.questions.length === 0);
    } finally {
      await vscode.workspace.fs.delete(file);
    }
    await waitFor('the team tools to go', () => !rt.registry.get('team_tasks'));
  });
});
