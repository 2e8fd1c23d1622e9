// The MCP Servers view in a real window: a server configured in user settings (server-everything over
// stdio) is listed with its source, transport, state and tools; Disable stops it and lists it as
// disabled, Enable starts it again; Show Output opens its scrubbed output. A server that is down shows in
// the status bar; Browse Tools runs the tool picked; a resource is attached to the chat's composer. Add
// MCP Server… writes `.vscode/mcp.json` in VS Code's format.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ContextChip } from '../../../src/core/chat/chat-protocol';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, EXT_ID, waitFor } from './host-util';

suite('MCP Servers view', () => {
  test('lists a configured server with its state and tools; Disable, Enable, Show Output', async () => {
    const pincer = await core();
    const ext = vscode.extensions.getExtension(EXT_ID)!;
    const everything = path.join(ext.extensionPath, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    const cfg = vscode.workspace.getConfiguration('pincer');
    await cfg.update('mcp.servers', { viewsrv: { type: 'stdio', command: process.execPath, args: [everything] } }, vscode.ConfigurationTarget.Global);
    const row = () => pincer.mcpView.rows().find((r) => r.name === 'viewsrv');
    try {
      const connected = await waitFor('viewsrv connected with its tools', () => (row()?.state === 'connected' && row()!.tools.length > 0 ? row() : undefined));
      assert.match(connected.file, /user settings/);
      assert.strictEqual(connected.transport, 'stdio');
      const item = pincer.mcpView.getTreeItem({ kind: 'server', name: 'viewsrv' });
      assert.match(String(item.description), /^connected · \d+ tools · stdio · user settings/);
      assert.strictEqual(item.contextValue, 'pincer.mcpServer.connected');
      assert.ok(pincer.mcpView.getChildren({ kind: 'server', name: 'viewsrv' }).some((n) => n.kind === 'tool' && n.tool === 'mcp_viewsrv__echo'));
      const out = await vscode.commands.executeCommand<vscode.Uri>('pincer.mcp.showServerOutput', 'viewsrv');
      const doc = await vscode.workspace.openTextDocument(out);
      assert.match(doc.getText(), /Output of the MCP server "viewsrv"/);
      await vscode.commands.executeCommand('pincer.mcp.disableServer', { kind: 'server', name: 'viewsrv' });
      await waitFor('viewsrv disabled', () => row()?.state === 'disabled');
      assert.strictEqual(pincer.services.rt.registry.get('mcp_viewsrv__echo'), undefined, 'its tools are gone');
      await vscode.commands.executeCommand('pincer.mcp.enableServer', 'viewsrv');
      await waitFor('viewsrv connected again', () => row()?.state === 'connected' && pincer.services.rt.registry.get('mcp_viewsrv__echo'));
    } finally {
      await cfg.update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('viewsrv gone', () => !row());
  });

  test('a server that is down shows in the status bar; Browse Tools runs the tool picked; a resource attached to the chat', async function () {
    this.timeout(90_000);
    const pincer = await core();
    const ext = vscode.extensions.getExtension(EXT_ID)!;
    const everything = path.join(ext.extensionPath, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    const cfg = vscode.workspace.getConfiguration('pincer');
    const row = (name: string) => pincer.mcpView.rows().find((r) => r.name === name);
    await cfg.update('mcp.servers', {
      // Only its get-env tool (no arguments): Browse Tools then offers exactly one.
      good: { type: 'stdio', command: process.execPath, args: [everything], tools: { allow: ['get-env'] } },
      broken: { type: 'stdio', command: process.execPath, args: ['-e', 'process.stderr.write("broken on purpose\\n"); process.exit(3)'] },
    }, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('good connected', () => row('good')?.state === 'connected' && row('good')!.tools.length === 1);
      await waitFor('broken down', () => row('broken')?.state === 'disconnected');
      const shown = await waitFor('the status bar warning', () => pincer.mcpStatus.shown);
      assert.strictEqual(shown.text, '$(warning) MCP: broken is down');
      assert.match(shown.tooltip, /^broken: MCP server "broken"/);

      // Browse Tools: its quick pick lists the one tool; accepting it runs it through Run Tool.
      let settled = false;
      const browsed = Promise.resolve(vscode.commands.executeCommand<ToolResult>('pincer.mcp.browseTools', 'good')).finally(() => (settled = true));
      const result = await waitFor('Browse Tools to run the picked tool', async () => {
        if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return settled && browsed;
      });
      assert.strictEqual(result.isError, false, result.forLLM);
      assert.match(result.forLLM, /^<<<EXTERNAL_UNTRUSTED_CONTENT source="mcp:good\/get-env">>>/);

      // Attach to Chat: the resource is read through the bridge and lands in the chat's composer.
      const resources = await pincer.mcp.manager.resources('good');
      const listed = resources?.find((r) => r.mimeType?.startsWith('text/'));
      assert.ok(listed, 'server-everything lists a text resource');
      const chip = await vscode.commands.executeCommand<ContextChip>('pincer.mcp.attachResource', 'good', listed.uri);
      assert.strictEqual(chip.kind, 'resource');
      assert.strictEqual(chip.server, 'good');
      assert.strictEqual(chip.path, listed.uri);
      assert.ok(chip.text && chip.text.length > 0);
      const attached = await waitFor('the chip posted to the chat', () => pincer.chat.view.posted.find((m) => m.type === 'attach'));
      assert.ok(attached.type === 'attach');
      assert.deepStrictEqual(attached.chips.map((c) => [c.kind, c.server, c.path]), [['resource', 'good', listed.uri]]);

      // The broken server leaves: nothing is down, the warning goes.
      await cfg.update('mcp.servers', { good: { type: 'stdio', command: process.execPath, args: [everything], tools: { allow: ['get-env'] } } }, vscode.ConfigurationTarget.Global);
      await waitFor('the status bar warning to go', () => !row('broken') && pincer.mcpStatus.shown === undefined);
    } finally {
      await cfg.update('mcp.servers', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('good gone', () => !row('good'));
  });

  test('Add MCP Server… writes .vscode/mcp.json in VS Code\'s format', async () => {
    const pincer = await core();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const file = vscode.Uri.joinPath(folder, '.vscode', 'mcp.json');
    const before = await vscode.workspace.fs.readFile(file).then((b) => b, () => undefined);
    try {
      const where = await vscode.commands.executeCommand<string>('pincer.mcp.addServer', {
        name: 'added', transport: 'stdio', commandLine: 'npx -y "@modelcontextprotocol/server-everything" stdio', target: 'workspace',
      });
      assert.strictEqual(where, file.fsPath);
      const written = JSON.parse(Buffer.from(await vscode.workspace.fs.readFile(file)).toString('utf8'));
      assert.deepStrictEqual(written.servers.added, { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'] });
      // A workspace server asks before its first start: it is listed, and nothing runs until the answer.
      await waitFor('the start prompt for "added"', () => pincer.mcp.prompt.waiting().includes('added'));
      assert.ok(pincer.mcp.prompt.answer('added', false));
      await waitFor('"added" listed as not started', () => pincer.mcpView.rows().find((r) => r.name === 'added')?.state === 'not started');
      // Don't Start stands for reloads, but Restart is the person asking again: the question comes back.
      const restarted = vscode.commands.executeCommand('pincer.mcp.restartServer', 'added');
      await waitFor('the start prompt for "added" again', () => pincer.mcp.prompt.waiting().includes('added'));
      assert.ok(pincer.mcp.prompt.answer('added', false));
      await restarted;
    } finally {
      if (before) await vscode.workspace.fs.writeFile(file, before);
      else await vscode.workspace.fs.delete(file);
    }
  });
});
