// Custom tools in a real window: a `.pincer/tools` folder moved in while the window is open makes its
// files tools without a reload, which run through Run Tool (the argument one argv element, no shell); a
// broken file registers nothing; Reload Custom Tools says how many there are; a change is seen;
// deleting the folder removes them.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, waitFor } from './host-util';

suite('Custom tools', () => {
  test('a tool file appears without a reload, runs, and goes when deleted', async () => {
    const pincer = await core();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const dir = vscode.Uri.joinPath(folder, '.pincer', 'tools');
    const file = vscode.Uri.joinPath(dir, 'host-hello.json');
    const tool = {
      name: 'host_hello', description: 'Prints a greeting.', command: ['printf', 'hello <%s>', '{{who}}'],
      parameters: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
    };
    // The folder arrives with its files in it, as a checkout or a move brings it: the workspace
    // watcher reports the folder alone.
    assert.ok(!fs.existsSync(dir.fsPath), '.pincer/tools is this test\'s to make');
    const staging = fs.mkdtempSync(path.join(path.dirname(folder.fsPath), 'tools-'));
    fs.writeFileSync(path.join(staging, 'host-hello.json'), JSON.stringify(tool));
    fs.writeFileSync(path.join(staging, 'host-broken.json'), JSON.stringify({ ...tool, name: 'host_broken', command: 'printf' }));
    fs.mkdirSync(path.dirname(dir.fsPath), { recursive: true });
    fs.renameSync(staging, dir.fsPath);
    try {
      await waitFor('the custom tool', () => pincer.services.rt.registry.get('host_hello'));
      const r = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'host_hello', { who: 'a; b $(c)' }, { show: false });
      assert.strictEqual(r.isError, false, r.forLLM);
      assert.match(r.forLLM, /hello <a; b \$\(c\)>/);
      assert.strictEqual(pincer.services.rt.registry.get('host_broken'), undefined, 'a broken file registers nothing');
      const reloaded = await vscode.commands.executeCommand<{ tools: number; problems: string[] }>('pincer.customTools.reload');
      assert.ok(reloaded.tools >= 1);
      assert.ok(reloaded.problems.some((p) => /host-broken\.json: command: /.test(p)), reloaded.problems.join('\n'));
      await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify({ ...tool, description: 'Prints a changed greeting.' })));
      await waitFor('the changed tool', () => pincer.services.rt.registry.get('host_hello')?.description.includes('changed'));
    } finally {
      // A deleted folder is reported alone too.
      await vscode.workspace.fs.delete(dir, { recursive: true });
    }
    await waitFor('the custom tool to go with its folder', () => !pincer.services.rt.registry.get('host_hello'));
  });
});
