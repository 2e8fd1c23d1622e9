// Custom tools in a real window: a `.pincer/tools/*.json` file written while the window is open becomes a
// tool without a reload and runs through Run Tool (its argument one argv element, no shell); a broken
// file registers nothing; Reload Custom Tools says how many there are; deleting the file removes it.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, waitFor } from './host-util';

suite('Custom tools', () => {
  test('a tool file appears without a reload, runs, and goes when deleted', async () => {
    const pincer = await core();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const dir = vscode.Uri.joinPath(folder, '.pincer', 'tools');
    const file = vscode.Uri.joinPath(dir, 'host-hello.json');
    const broken = vscode.Uri.joinPath(dir, 'host-broken.json');
    const tool = {
      name: 'host_hello', description: 'Prints a greeting.', command: ['printf', 'hello <%s>', '{{who}}'],
      parameters: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
    };
    await vscode.workspace.fs.createDirectory(dir);
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify(tool)));
    await vscode.workspace.fs.writeFile(broken, Buffer.from(JSON.stringify({ ...tool, name: 'host_broken', command: 'printf' })));
    try {
      await waitFor('the custom tool', () => pincer.services.rt.registry.get('host_hello'));
      const r = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'host_hello', { who: 'a; b $(c)' }, { show: false });
      assert.strictEqual(r.isError, false, r.forLLM);
      assert.match(r.forLLM, /hello <a; b \$\(c\)>/);
      assert.strictEqual(pincer.services.rt.registry.get('host_broken'), undefined, 'a broken file registers nothing');
      const reloaded = await vscode.commands.executeCommand<{ tools: number; problems: string[] }>('pincer.customTools.reload');
      assert.ok(reloaded.tools >= 1);
      assert.ok(reloaded.problems.some((p) => /host-broken\.json: command: /.test(p)), reloaded.problems.join('\n'));
    } finally {
      await vscode.workspace.fs.delete(file);
      await vscode.workspace.fs.delete(broken);
    }
    await waitFor('the custom tool to go', () => !pincer.services.rt.registry.get('host_hello'));
  });
});
