// Activation: on a view or a command only (never at start-up), fast, and with every contribution.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EXT_ID, api, recordFact } from './host-util';

suite('activation', () => {
  test('is not activated at start-up, activates on its command, quickly', async () => {
    const ext = vscode.extensions.getExtension(EXT_ID);
    assert.ok(ext, 'extension present');
    // The workbench has been up for seconds by now; nothing of ours has been touched yet.
    assert.strictEqual(ext.isActive, false, 'Pincer must not activate at start-up');
    const t0 = performance.now();
    await vscode.commands.executeCommand('pincer.showEffectiveTools', { show: false });
    const wall = performance.now() - t0;
    assert.strictEqual(ext.isActive, true);
    const a = (await api()).activation;
    recordFact('activation', { ...a, commandWallMs: wall });
    assert.ok(a.activateMs > 0 && a.sinceModuleLoadMs >= a.activateMs);
    assert.ok(a.coreLoadMs !== undefined && a.coreLoadMs > 0, 'the command loaded the runtime on first use');
  });

  test('contributes its commands under the Pincer category and its sidebar view', async () => {
    const cmds = await vscode.commands.getCommands(true);
    for (const c of ['pincer.runTool', 'pincer.showEffectiveTools', 'pincer.showToolLog']) assert.ok(cmds.includes(c), c);
    const pkg = vscode.extensions.getExtension(EXT_ID)!.packageJSON;
    assert.ok(pkg.contributes.commands.every((c: { category: string }) => c.category === 'Pincer'));
    assert.strictEqual(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.ok(cmds.includes('workbench.view.extension.pincer'), 'activity bar container');
  });
});
