// The commands against the real API: Run Tool through the one pipeline, the result documents,
// Show Effective Tools, settings that take effect without a reload, the log and its database.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PolicyDecision } from '../../../src/core/policy/policy-engine';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, waitFor } from './host-util';

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('pincer').update(key, value, vscode.ConfigurationTarget.Workspace);
}

/** The result shown rendered: the active tab is VS Code's markdown preview of a pincer-result document whose text matches. */
async function rendered(text: RegExp): Promise<vscode.TextDocument> {
  await waitFor('the markdown preview', () => {
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputWebview && /markdown\.preview/.test(input.viewType) ? input : undefined;
  });
  return waitFor('the result document', () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'pincer-result' && text.test(d.getText())));
}

suite('commands', () => {
  teardown(async () => {
    await setSetting('tools.deny', undefined);
    await setSetting('tools.profile', undefined);
  });

  test('Run Tool runs a tool through the pipeline and returns its result', async () => {
    const r = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'datetime', { timezone: 'UTC' }, { show: false });
    assert.strictEqual(r.isError, false);
    assert.match(r.forLLM, /\(UTC\)\nUTC: \d{4}-/);
    const bad = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'datetime', { timezone: 42 }, { show: false });
    assert.strictEqual(bad.isError, true);
    assert.match(bad.forLLM, /Invalid arguments for datetime/);
  });

  test('Run Tool shows the result rendered (markdown preview)', async () => {
    await vscode.commands.executeCommand('pincer.runTool', 'session_status', {});
    const doc = await rendered(/^# session_status — result\n\nSession: palette:/);
    assert.match(doc.getText(), /Entry point: palette/);
  });

  test('Show Effective Tools explains every removed tool', async () => {
    const d = await vscode.commands.executeCommand<PolicyDecision>('pincer.showEffectiveTools', { profile: 'minimal', depth: 0 });
    assert.deepStrictEqual(d.allowed, ['session_status']);
    assert.ok(d.removed.every((r) => r.step === 'profile'));
    assert.ok(d.removed.some((r) => r.tool === 'read_file') && d.removed.some((r) => r.tool === 'datetime'));
    const doc = await rendered(/# Effective tools[\s\S]*Profile \*\*minimal\*\*/);
    assert.match(doc.getText(), /\| `datetime` \| profile \| not in profile "minimal" \(requested\) \|/);
    const sub = await vscode.commands.executeCommand<PolicyDecision>('pincer.showEffectiveTools', { depth: 1, show: false });
    assert.ok(sub.removed.some((r) => r.tool === 'session_status' && r.step === 'subagent deny'));
  });

  test('settings changes take effect without a reload', async () => {
    await setSetting('tools.deny', ['datetime']);
    const refused = await waitFor('the deny to apply', async () => {
      const r = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'datetime', {}, { show: false });
      return r.isError ? r : undefined;
    });
    assert.match(refused.forLLM, /not allowed by policy here \(deny: listed in pincer\.tools\.deny\)/);
    await setSetting('tools.deny', undefined);
    await waitFor('the deny to be lifted', async () =>
      !(await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'datetime', {}, { show: false })).isError);
    await setSetting('tools.profile', 'minimal');
    const d = await waitFor('the profile to apply', async () => {
      const x = await vscode.commands.executeCommand<PolicyDecision>('pincer.showEffectiveTools', { show: false });
      return x.profile.id === 'minimal' ? x : undefined;
    });
    assert.deepStrictEqual(d.allowed, ['session_status']);
  });

  test('every call is in the tool log and saved in the workspace database', async () => {
    const pincer = await core();
    await vscode.commands.executeCommand('pincer.runTool', 'datetime', { timezone: 'Europe/Berlin' }, { show: false });
    const last = pincer.services.log.recent.at(-1)!;
    assert.strictEqual(last.tool, 'datetime');
    assert.strictEqual(last.outcome, 'ok');
    assert.match(last.args, /Europe\/Berlin/);
    await pincer.storageReady();
    const db = await pincer.storage.database();
    assert.ok(db, 'database opened');
    const rows = await db.query<{ n: number }>('SELECT COUNT(*) AS n FROM tool_calls');
    assert.ok(rows[0].n >= 1);
    assert.ok(fs.existsSync(path.join(pincer.storage.dir, 'pincer.journal')) || fs.existsSync(path.join(pincer.storage.dir, 'pincer.db')));
    await vscode.commands.executeCommand('pincer.showToolLog');
  });
});
