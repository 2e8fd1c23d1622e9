// The sidebar view rendered in the browser: the tool list and the calls, live. The harness reads
// the webview's DOM from Chromium and keeps a screenshot as a CI artifact.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { core, harness, waitFor } from './host-util';

suite('sidebar view', () => {
  test('shows the effective tools and each new call, live', async function () {
    this.timeout(90_000);
    const pincer = await core();
    // Tools starts collapsed under the Chat: focusing it expands it.
    await vscode.commands.executeCommand('pincer.sidebar.focus');
    await pincer.sidebar.resolved;
    await waitFor('the webview script to say ready', () => pincer.sidebar.received.includes('ready'));
    const state = pincer.sidebar.state();
    assert.deepStrictEqual(state.allowed.map((t) => t.name),
      ['apply_patch', 'credentialed_exec', 'datetime', 'edit', 'exec', 'glob', 'grep', 'handoff', 'list_files', 'memory_expand', 'memory_get', 'memory_search', 'process', 'publish_skill', 'read_document', 'read_file', 'read_image', 'session_status', 'sessions_history', 'sessions_list', 'sessions_send', 'skill_search', 'spawn', 'use_skill', 'write_file']);
    await vscode.commands.executeCommand('pincer.runTool', 'session_status', {}, { show: false });
    if (!harness) return;
    assert.strictEqual(await harness.webviewText('#title'), 'Pincer tools');
    const tools = await harness.webviewText('#tools');
    assert.match(tools, /datetime/);
    assert.match(tools, /session_status/);
    const calls = await waitFor('the call to appear in the view', async () => {
      const t = await harness!.webviewText('#calls').catch(() => '');
      return /session_status/.test(t) ? t : undefined;
    });
    assert.match(calls, /ok/);
    await harness.screenshot('sidebar');
  });
});
