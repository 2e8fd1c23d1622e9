// Skills in a real window: a SKILL.md written while the window is open is listed in use_skill's
// description and in the Skills view without a reload, loads through Run Tool, a broken one is in the
// view with its file and field, turning a skill off takes it out of what the model sees, and deleting
// the folder removes it.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, waitFor } from './host-util';

suite('Skills', () => {
  test('a skill appears without a reload, loads, can be turned off, and goes when deleted', async () => {
    const pincer = await core();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const dir = vscode.Uri.joinPath(folder, '.claude', 'skills', 'host-greeting');
    const broken = vscode.Uri.joinPath(folder, '.github', 'skills', 'host-broken');
    const description = () => pincer.services.rt.registry.get('use_skill')?.description ?? '';
    await vscode.workspace.fs.createDirectory(dir);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'SKILL.md'), Buffer.from('---\nname: host-greeting\ndescription: Greets in the house style.\n---\nSay hello twice.\n'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'style.md'), Buffer.from('Warm.\n'));
    await vscode.workspace.fs.createDirectory(broken);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(broken, 'SKILL.md'), Buffer.from('---\nname: host-broken\n---\n'));
    try {
      await waitFor('the skill in use_skill\'s description', () => description().includes('- host-greeting: Greets in the house style.'));
      const r = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'use_skill', { name: 'host-greeting' }, { show: false });
      assert.strictEqual(r.isError, false, r.forLLM);
      assert.match(r.forLLM, /Say hello twice\.[\s\S]*- style\.md/);
      const file = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'use_skill', { name: 'host-greeting', file: 'style.md' }, { show: false });
      assert.strictEqual(file.forLLM, 'Warm.\n');

      const rows = pincer.skills.view.getChildren();
      assert.ok(rows.some((n) => n.kind === 'skill' && n.name === 'host-greeting'));
      const problem = rows.find((n) => n.kind === 'problem');
      assert.ok(problem?.kind === 'problem' && /host-broken\/SKILL\.md: description: is missing/.test(problem.text), JSON.stringify(rows));
      assert.deepStrictEqual(await vscode.commands.executeCommand('pincer.skills.search', 'greets house style'), ['host-greeting']);

      await vscode.commands.executeCommand('pincer.skills.disable', 'host-greeting');
      assert.ok(!description().includes('host-greeting'), 'a skill turned off is not listed');
      const off = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'use_skill', { name: 'host-greeting' }, { show: false });
      assert.strictEqual(off.isError, true);
      await vscode.commands.executeCommand('pincer.skills.enable', 'host-greeting');
      assert.ok(description().includes('host-greeting'));
    } finally {
      await vscode.workspace.fs.delete(dir, { recursive: true });
      await vscode.workspace.fs.delete(broken, { recursive: true });
    }
    await waitFor('the skill to go', () => !description().includes('host-greeting'));
  });
});
