// MCP in a real window: a server the workspace defines in `.vscode/mcp.json` (server-everything over
// stdio) starts only after the person says yes to the prompt; its tools then appear and run through
// the same command as every tool. Removing the file stops it and its tools go.
import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ToolResult } from '../../../src/core/tools/types';
import { core, EXT_ID, waitFor } from './host-util';

suite('MCP servers', () => {
  test('a .vscode/mcp.json server: asked once, then its tools appear and run', async () => {
    const pincer = await core();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const ext = vscode.extensions.getExtension(EXT_ID)!;
    const everything = path.join(ext.extensionPath, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
    const file = vscode.Uri.joinPath(folder, '.vscode', 'mcp.json');
    const before = await vscode.workspace.fs.readFile(file).then((b) => b, () => undefined);
    const config = { servers: { everything: { type: 'stdio', command: process.execPath, args: [everything] } } };
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, '.vscode'));
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify(config)));
    try {
      await waitFor('the start prompt for "everything"', () => pincer.mcp.prompt.waiting().includes('everything'));
      assert.strictEqual(pincer.services.rt.registry.get('mcp_everything__echo'), undefined, 'nothing starts before the answer');
      assert.ok(pincer.mcp.prompt.answer('everything', true));
      await waitFor('the server tools', () => pincer.services.rt.registry.get('mcp_everything__echo'));
      const r = await vscode.commands.executeCommand<ToolResult>('pincer.runTool', 'mcp_everything__echo', { message: 'from the host' }, { show: false });
      assert.strictEqual(r.isError, false, r.forLLM);
      assert.match(r.forLLM, /Echo: from the host/);
      assert.match(r.forLLM, /^<<<EXTERNAL_UNTRUSTED_CONTENT/);
    } finally {
      if (before) await vscode.workspace.fs.writeFile(file, before);
      else await vscode.workspace.fs.delete(file);
    }
    await waitFor('the server tools to go', () => !pincer.services.rt.registry.get('mcp_everything__echo'));
  });
});
