// The review flow end to end in a real window: a tool proposes, VS Code's diff editor shows it, the
// person accepts, rejects, edits the proposal or reverts one hunk, and the tool result says so.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, harness, waitFor } from './host-util';

const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
const run = (tool: string, args: unknown) =>
  vscode.commands.executeCommand<ToolResult>('pincer.runTool', tool, args, { show: false }) as Promise<ToolResult>;

async function pendingFor(rel: string) {
  const { review } = await core();
  return waitFor(`a pending review of ${rel}`, () => [...review.diff.pending.values()].find((p) => p.change.path.rel === rel));
}

async function setEdits(key: string, value: unknown) {
  await vscode.workspace.getConfiguration('pincer.edits').update(key, value, vscode.ConfigurationTarget.Workspace);
}

suite('diff review', () => {
  teardown(async () => {
    await setEdits('review', undefined);
    await setEdits('autoApprove', undefined);
    await vscode.commands.executeCommand('pincer.review.rejectAll', 'test teardown');
  });

  test('a new file waits in the diff editor and lands only when accepted', async function () {
    this.timeout(60_000);
    const result = run('write_file', { path: 'review/new-note.md', content: '# New\n\nhello\n' });
    const p = await pendingFor('review/new-note.md');
    assert.ok(!fs.existsSync(path.join(root(), 'review/new-note.md')), 'nothing is written before the decision');
    const tab = await waitFor('the diff editor', () => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t?.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === p.proposedUri.toString() ? t : undefined;
    });
    assert.match(tab.label, /review\/new-note\.md \(new file by write_file\)/);
    await harness?.screenshot('review-diff');
    await vscode.commands.executeCommand('pincer.review.accept', p.proposedUri);
    const r = await result;
    assert.strictEqual(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /review\/new-note\.md: created/);
    assert.strictEqual(fs.readFileSync(path.join(root(), 'review/new-note.md'), 'utf8'), '# New\n\nhello\n');
  });

  test('a rejected edit leaves the file alone and the model hears the reason', async function () {
    this.timeout(60_000);
    const file = path.join(root(), 'review/keep.txt');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'alpha\nbeta\n');
    const result = run('edit', { path: 'review/keep.txt', old_string: 'beta', new_string: 'BETA' });
    const p = await pendingFor('review/keep.txt');
    await vscode.commands.executeCommand('pincer.review.reject', p.proposedUri, 'keep lowercase');
    const r = await result;
    assert.match(r.forLLM, /rejected/i);
    assert.match(r.forLLM, /keep lowercase/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'alpha\nbeta\n');
  });

  test('the person can edit the proposal; the model is told what changed', async function () {
    this.timeout(60_000);
    const result = run('write_file', { path: 'review/edited.txt', content: 'one\ntwo\n' });
    const p = await pendingFor('review/edited.txt');
    const doc = await vscode.workspace.openTextDocument(p.proposedUri);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(p.proposedUri, new vscode.Range(1, 0, 1, 3), 'TWO (by the person)');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.match(doc.getText(), /TWO \(by the person\)/);
    await vscode.commands.executeCommand('pincer.review.accept', p.proposedUri);
    const r = await result;
    assert.match(r.forLLM, /modified|edited/i);
    assert.match(r.forLLM, /TWO \(by the person\)/);
    assert.strictEqual(fs.readFileSync(path.join(root(), 'review/edited.txt'), 'utf8'), 'one\nTWO (by the person)\n');
  });

  test('one hunk reverted, the other accepted', async function () {
    this.timeout(60_000);
    const file = path.join(root(), 'review/hunks.txt');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    fs.writeFileSync(file, lines.join('\n') + '\n');
    const result = run('edit', { path: 'review/hunks.txt', edits: [
      { old_string: 'line 2\n', new_string: 'line two\n' },
      { old_string: 'line 18\n', new_string: 'line eighteen\n' },
    ] });
    const p = await pendingFor('review/hunks.txt');
    await vscode.workspace.openTextDocument(p.proposedUri);
    assert.ok(await vscode.commands.executeCommand('pincer.review.revertHunk', p.proposedUri, 0));
    await vscode.commands.executeCommand('pincer.review.accept', p.proposedUri);
    await result;
    const now = fs.readFileSync(file, 'utf8');
    assert.match(now, /^line 1\nline 2\n/);
    assert.match(now, /line eighteen\n/);
  });

  test('a move whose new file is rejected keeps the old file, even if its removal was accepted', async function () {
    this.timeout(60_000);
    const file = path.join(root(), 'review/old-name.txt');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'a\nb\n');
    const result = run('apply_patch', { input: '*** Begin Patch\n*** Update File: review/old-name.txt\n*** Move to: review/new-name.txt\n@@\n a\n-b\n+B\n*** End Patch\n' });
    const removal = await pendingFor('review/old-name.txt');
    const creation = await pendingFor('review/new-name.txt');
    await vscode.commands.executeCommand('pincer.review.accept', removal.proposedUri);
    await vscode.commands.executeCommand('pincer.review.reject', creation.proposedUri, 'wrong name');
    const r = await result;
    assert.match(r.forLLM, /rejected/i);
    assert.ok(fs.existsSync(file), 'the old file is still there');
    assert.ok(!fs.existsSync(path.join(root(), 'review/new-name.txt')));
  });

  test('auto-approved globs land at once; sensitive files still ask', async function () {
    this.timeout(60_000);
    await setEdits('review', 'auto-approve-globs');
    await setEdits('autoApprove', ['docs/**']);
    const r = await run('write_file', { path: 'docs/auto.md', content: 'auto\n' });
    assert.strictEqual(r.isError, false, r.forLLM);
    assert.strictEqual(fs.readFileSync(path.join(root(), 'docs/auto.md'), 'utf8'), 'auto\n');
    await setEdits('review', 'never');
    const sensitive = run('write_file', { path: '.vscode/tasks.json', content: '{}\n' });
    const p = await pendingFor('.vscode/tasks.json');
    await vscode.commands.executeCommand('pincer.review.reject', p.proposedUri, 'no');
    assert.match((await sensitive).forLLM, /rejected/i);
  });
});
