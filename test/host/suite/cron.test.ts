// Scheduled work in a real window: a job the cron tool adds is in the Scheduled view, runs on its own
// at its time (a command through exec), runs again with Run Now, its run opens as a document, and
// pause and remove act on it from the view's commands. The view's commands are calls through the one
// pipeline: each is in the tool log, and the tool policy refuses them like any other palette call.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import type { CronNode } from '../../../src/host/automation/cron-view';
import { core, waitFor } from './host-util';

const KEYS = ['tools.alsoAllow', 'tools.deny', 'exec.host', 'exec.sandbox.mode', 'rateLimit.enabled'];

async function setUser(key: string, value: unknown) {
  await vscode.workspace.getConfiguration('pincer').update(key, value, vscode.ConfigurationTarget.Global);
}

suite('Scheduled', () => {
  suiteSetup(async () => {
    // cron is outside the coding profile, which is the model's menu: the person's own calls below
    // (Run Tool, the view's buttons) run it all the same.
    await setUser('exec.host', 'process');
    await setUser('exec.sandbox.mode', 'off');
    await setUser('rateLimit.enabled', false);
  });
  suiteTeardown(async () => {
    for (const k of KEYS) await setUser(k, undefined);
  });

  test('a job added by the tool is in the view, runs at its time and on Run Now, opens, pauses and goes', async function () {
    this.timeout(180_000);
    const pincer = await core();
    const marker = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'cron-host-ran.txt');
    fs.rmSync(marker, { force: true });
    const at = new Date(Date.now() + 4000).toISOString();
    const added = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'cron', {
      action: 'add', name: 'host cron', schedule: { at }, task: { command: 'touch cron-host-ran.txt' },
    }, { show: false });
    assert.strictEqual(added.isError, false, added.forLLM);
    const id = added.details!.id as string;

    const view = pincer.cron.view;
    const node = await waitFor('the job in the Scheduled view', async () => (await view.getChildren()).find((n): n is Extract<CronNode, { kind: 'job' }> => n.kind === 'job' && n.id === id));
    const item = await view.getTreeItem(node);
    assert.strictEqual(item.label, 'host cron');
    assert.strictEqual(item.contextValue, 'pincer.cron.active');

    // Its time comes while the window is open: the scheduler runs it.
    await waitFor('the job to run at its time', () => fs.existsSync(marker));
    const runs = await waitFor('the run in the view', async () => {
      const rows = await view.getChildren(node);
      const described = await Promise.all(rows.map(async (r) => String((await view.getTreeItem(r)).description)));
      return described.length === 1 && described[0].startsWith('ok') ? rows : undefined;
    });
    assert.strictEqual((await view.getTreeItem(node)).description?.toString().startsWith('done · ok'), true, 'a one-time job has no next run');

    fs.rmSync(marker);
    const now = await vscode.commands.executeCommand<ToolResult>('pincer.cron.runNow', id);
    assert.strictEqual(now.isError, false, now.forLLM);
    assert.ok(fs.existsSync(marker), 'Run Now ran the command');
    assert.strictEqual((await view.getChildren(node)).length, 2);
    // Run Now went through Registry.execute: its own row in the tool log, as the person's palette call.
    const logged = await waitFor('Run Now in the tool log', () => pincer.services.log.recent.find((c) =>
      c.tool === 'cron' && c.channel === 'palette' && c.args.includes('"run"') && c.args.includes(id)));
    assert.strictEqual(logged.outcome, 'ok');

    const first = runs[0] as Extract<CronNode, { kind: 'run' }>;
    const uri = await vscode.commands.executeCommand<string>('pincer.cron.openRun', first);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    assert.ok(doc, `the run opened as a document (${uri})`);
    assert.match(doc.getText(), /^# host cron — run of [\s\S]*- Task: command: touch cron-host-ran\.txt\n- Outcome: ok/);

    // Hostile to the view: with cron denied, its buttons are refused by the policy like any call.
    await setUser('tools.deny', ['cron']);
    await waitFor('the deny to apply', async () =>
      (await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'cron', { action: 'list' }, { show: false })).isError || undefined);
    const refused = await vscode.commands.executeCommand<ToolResult>('pincer.cron.pause', node);
    assert.strictEqual(refused.isError, true, refused.forLLM);
    assert.match(refused.forLLM, /not allowed by policy here \(deny: listed in pincer\.tools\.deny\)/);
    assert.strictEqual((await view.getTreeItem(node)).contextValue, 'pincer.cron.active', 'a refused pause changed nothing');
    const refusedRow = await waitFor('the refused pause in the tool log', () => pincer.services.log.recent.find((c) =>
      c.tool === 'cron' && c.args.includes('"pause"') && c.outcome === 'refused'));
    assert.strictEqual(refusedRow.channel, 'palette');
    await setUser('tools.deny', undefined);
    await waitFor('the deny to be lifted', async () =>
      !(await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'cron', { action: 'list' }, { show: false })).isError || undefined);

    await vscode.commands.executeCommand('pincer.cron.pause', node);
    assert.strictEqual((await view.getTreeItem(node)).contextValue, 'pincer.cron.paused');
    await vscode.commands.executeCommand('pincer.cron.remove', id, { confirm: false });
    assert.deepStrictEqual((await view.getChildren()).map((n) => n.kind), ['none']);
    fs.rmSync(marker, { force: true });
  });
});
