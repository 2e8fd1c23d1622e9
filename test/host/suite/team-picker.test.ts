// A team picked in the chat's own agent picker, in a real window: the picker lists the team beside the
// agents; the page's pick-agent with the team's entry makes the lead the chat's agent in a new session
// started for the team (TEAM.md is the lead's prompt there, nobody else's), and the picker then shows
// the team chosen; another session of the lead shows the lead again.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToWebview } from '../../../src/core/chat/chat-protocol';
import { core, harness, waitFor } from './host-util';

const TEAM = '---\nname: Picker Team\nlead: default\nmembers:\n  - agent: ann\n    description: reviews\n---\n';

type Pickers = Extract<ToWebview, { type: 'pickers' | 'init' }>;

suite('Teams: the chat agent picker', () => {
  test('a team chosen in the chat\'s agent picker makes its lead the chat\'s agent, with TEAM.md in its session only', async function () {
    this.timeout(180_000);
    const pincer = await core();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const file = vscode.Uri.joinPath(folder, '.pincer', 'teams', 'pickteam.md');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, '.pincer', 'teams'));
    await vscode.workspace.fs.writeFile(file, Buffer.from(TEAM));
    try {
      await waitFor('the team', () => pincer.teams.teams().some((t) => t.id === 'pickteam'));
      const { chat } = pincer;
      await vscode.commands.executeCommand('pincer.chat.new');
      await chat.view.resolved;
      const ordinary = chat.view.controller.currentSession;
      assert.ok(ordinary);
      const lists = () => chat.view.posted.filter((m): m is Pickers => m.type === 'pickers' || m.type === 'init');
      const listed = await waitFor('the team in the agent picker', () => lists().find((m) => m.agents.some((a) => a.id === 'team:pickteam')));
      assert.deepStrictEqual(listed.agents.find((a) => a.id === 'team:pickteam'), { id: 'team:pickteam', name: 'Team: Picker Team', description: 'lead default; members ann' });
      assert.ok(listed.agents.some((a) => a.id === 'default'), 'beside the agents');
      if (harness) assert.match(await harness.webviewText('vscode-option[value="team:pickteam"]'), /Team: Picker Team/);

      // The page's message when the person chooses the team.
      const from = chat.view.posted.length;
      await chat.view.controller.handle({ type: 'pick-agent', id: 'team:pickteam' });
      const leadSession = pincer.teams.service()?.leadSession('pickteam');
      assert.ok(leadSession, 'a session was started for the team');
      assert.strictEqual(chat.view.controller.currentSession, leadSession, 'the chat is on it');
      assert.notStrictEqual(leadSession, ordinary);
      assert.strictEqual(pincer.teams.picked(), 'pickteam', 'remembered as the team picked last');
      assert.match((await pincer.teams.teamMd(leadSession, 'default')) ?? '', /^# TEAM\.md — team Picker Team \(pickteam\)/);
      assert.strictEqual(await pincer.teams.teamMd(leadSession, 'ann'), undefined, 'only the lead gets TEAM.md');
      assert.strictEqual(await pincer.teams.teamMd(ordinary, 'default'), undefined, 'and only in the team\'s session');
      await waitFor('the picker to show the team', () => chat.view.posted.slice(from).some((m) => m.type === 'pickers' && m.agent === 'team:pickteam'));
      if (harness) await harness.webviewText('vscode-option[value="team:pickteam"][selected]');

      // The lead's other session is an ordinary chat: the picker shows the lead there.
      const back = chat.view.posted.length;
      await chat.view.controller.switchTo(ordinary);
      await waitFor('the picker to show the lead', () => chat.view.posted.slice(back).some((m) => m.type === 'pickers' && m.agent === 'default'));
      // A team that is not defined is refused, and the chat stays where it was.
      await chat.view.controller.handle({ type: 'pick-agent', id: 'team:nosuchteam' });
      assert.strictEqual(chat.view.controller.currentSession, ordinary);
    } finally {
      await vscode.workspace.fs.delete(file);
    }
  });
});
