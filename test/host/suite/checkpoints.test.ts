// Checkpoints in a real window: a change lands, "Restore Checkpoint" brings the file back exactly.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, waitFor } from './host-util';

const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;

suite('checkpoints', () => {
  teardown(async () => {
    await vscode.workspace.getConfiguration('pincer.edits').update('review', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('restore brings back the original and removes files the turn created', async function () {
    this.timeout(60_000);
    const pincer = await core();
    await pincer.storageReady();
    await vscode.workspace.getConfiguration('pincer.edits').update('review', 'never', vscode.ConfigurationTarget.Workspace);
    await waitFor('review: never', () => pincer.services.rt.currentConfig.edits.review === 'never');
    const file = path.join(root(), 'cp', 'data.txt');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'original\r\nline two\r\n');
    const run = (tool: string, args: unknown) => vscode.commands.executeCommand<ToolResult>('pincer.runTool', tool, args, { show: false });
    assert.strictEqual((await run('edit', { path: 'cp/data.txt', old_string: 'original', new_string: 'changed once' })).isError, false);
    assert.strictEqual((await run('edit', { path: 'cp/data.txt', old_string: 'changed once', new_string: 'changed twice' })).isError, false);
    assert.strictEqual((await run('write_file', { path: 'cp/new.txt', content: 'new\n' })).isError, false);
    assert.match(fs.readFileSync(file, 'utf8'), /changed twice/);
    const store = pincer.checkpoints();
    assert.ok(store, 'the checkpoint store is open');
    // Each Run Tool is a turn of its own: three checkpoints, newest first.
    const three = await store.list(3);
    assert.deepStrictEqual(three.map((c) => c.files.map((f) => path.relative(root(), f))), [['cp/new.txt'], ['cp/data.txt'], ['cp/data.txt']]);
    for (const c of three) {
      const result = await vscode.commands.executeCommand<{ restored: string[]; deleted: string[] }>('pincer.restoreCheckpoint', c.id, { confirm: false });
      assert.ok(result, `checkpoint ${c.id} restored`);
    }
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'original\r\nline two\r\n', 'the bytes before the turn, CRLF and all');
    assert.ok(!fs.existsSync(path.join(root(), 'cp', 'new.txt')), 'a file the turn created is removed');
  });
});
