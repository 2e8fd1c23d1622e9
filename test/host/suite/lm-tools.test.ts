// VS Code's own agent reaching Pincer's tools in a real host: the tools package.json contributes are
// in vscode.lm.tools, and vscode.lm.invokeTool runs them through Pincer's pipeline on channel `lm`:
// content comes back, a command the judge denies is denied, one it asks about waits for Pincer's own
// approval, VS Code's cancellation stops a running command, a tool pincer.lm.offeredTools leaves out
// is refused. The MCP server definition VS Code is given starts `pincer mcp` on the open folder, and
// Serve Tools over MCP… serves the window's tools to an MCP client with its token; the person answers
// that client's command approvals and reviews its edits in this window.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServeAnswer } from '../../../src/host/lm/mcp-serve-host';
import type { CallEnd, CallStart } from '../../../src/core/tools/call-record';
import { pincerMcpDefinitions } from '../../../src/host/lm/lm-register';
import { EXT_ID, core, waitFor } from './host-util';

const textOf = (r: vscode.LanguageModelToolResult) =>
  r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
const listed = (name: string) => vscode.lm.tools.some((t) => t.name === name);

suite('VS Code agent tools (lm.registerTool)', () => {
  const ends: CallEnd[] = [];
  const starts: CallStart[] = [];
  const subs: { dispose(): void }[] = [];

  suiteSetup(async () => {
    const { registry } = (await core()).services.rt;
    subs.push(registry.onCallEnd.on((e) => ends.push(e)), registry.onCallStart.on((s) => starts.push(s)));
  });
  suiteTeardown(async () => {
    subs.forEach((s) => s.dispose());
    await vscode.workspace.getConfiguration('pincer').update('lm.offeredTools', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('every contributed tool is in lm.tools, each with the when clause that applies pincer.lm.offeredTools', async () => {
    // lm.tools lists every registered tool, enabled or not: VS Code's chat applies the `when` clauses
    // when it offers tools to its model, and Pincer refuses a call to a tool the setting leaves out.
    await waitFor('pincer_read_file in vscode.lm.tools', () => listed('pincer_read_file'));
    const pkg = vscode.extensions.getExtension(EXT_ID)!.packageJSON as { contributes: { languageModelTools: { name: string; when: string }[] } };
    for (const t of pkg.contributes.languageModelTools) {
      assert.ok(listed(t.name), t.name);
      assert.match(t.when, /^config\.pincer\.lm\.offeredTools =~ /);
    }
    const info = vscode.lm.tools.find((t) => t.name === 'pincer_read_file')!;
    assert.ok(info.tags.includes('pincer'));
    assert.deepStrictEqual((info.inputSchema as { required?: string[] }).required, ['path']);
  });

  test('invokeTool runs read_file through the pipeline on channel lm', async () => {
    const r = await vscode.lm.invokeTool('pincer_read_file', { input: { path: 'package.json' }, toolInvocationToken: undefined });
    assert.match(textOf(r), /"name"/);
    const end = ends.find((e) => e.tool === 'read_file' && e.channel === 'lm');
    assert.ok(end, 'the tool log saw the call on channel lm');
    assert.strictEqual(end.outcome, 'ok');
  });

  test('a command the judge denies is denied', async () => {
    const r = await vscode.lm.invokeTool('pincer_exec', { input: { command: 'cat ~/.ssh/id_rsa' }, toolInvocationToken: undefined });
    assert.match(textOf(r), /data_exfiltration|credential/);
    const end = ends.find((e) => e.tool === 'exec' && e.channel === 'lm');
    assert.ok(end, 'the exec call went through the pipeline');
    assert.strictEqual(end.outcome, 'denied');
  });

  test('an exec the judge asks about waits for Pincer\'s one approval prompt; denied there, it does not run', async () => {
    const { exec } = await core();
    const call = vscode.lm.invokeTool('pincer_exec', { input: { command: 'npm install left-pad' }, toolInvocationToken: undefined });
    const req = await waitFor('Pincer\'s approval request', () => exec.approvals.waiting()[0]);
    assert.strictEqual(req.command, 'npm install left-pad');
    assert.ok(exec.approvals.answer(req.id, 'deny'));
    await call;
    const end = ends.find((e) => e.tool === 'exec' && e.channel === 'lm' && e.args.includes('left-pad'));
    assert.ok(end, 'the call went through the pipeline on channel lm');
    assert.strictEqual(end.outcome, 'rejected-by-user');
  });

  test('cancelling in VS Code stops a running command: the call ends cancelled', async () => {
    const before = ends.length;
    const startsBefore = starts.length;
    const cts = new vscode.CancellationTokenSource();
    const call = vscode.lm.invokeTool('pincer_exec', { input: { command: 'sleep 300' }, toolInvocationToken: undefined }, cts.token);
    await waitFor('the command to start', () => starts.slice(startsBefore).find((s) => s.tool === 'exec' && s.channel === 'lm'));
    cts.cancel();
    // VS Code may answer the cancelled invocation with a CancellationError; what matters is Pincer's end.
    await call.then(() => undefined, () => undefined);
    const end = await waitFor('the exec call to end', () => ends.slice(before).find((e) => e.tool === 'exec' && e.channel === 'lm'));
    assert.strictEqual(end.outcome, 'cancelled', end.message);
    cts.dispose();
  });

  test('the MCP server definition VS Code is given runs pincer mcp on the open folder, and its tools answer', async () => {
    const ext = vscode.extensions.getExtension(EXT_ID)!;
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const [def] = pincerMcpDefinitions(ext);
    assert.ok(def, 'a definition for the open folder');
    assert.strictEqual(def.label, 'Pincer');
    assert.deepStrictEqual(def.args.slice(1, 4), ['mcp', '--workspace', folder]);
    assert.ok(!def.args.includes('--untrusted'), 'the folder is trusted in this run');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...def.env })) if (typeof v === 'string') env[k] = v;
    const client = new Client({ name: 'host-test-definition', version: '1' });
    try {
      await client.connect(new StdioClientTransport({ command: def.command, args: def.args, env, cwd: def.cwd?.fsPath, stderr: 'ignore' }));
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'read_file'), tools.map((t) => t.name).join(','));
      const r = await client.callTool({ name: 'read_file', arguments: { path: 'package.json' } }) as CallToolResult;
      assert.match((r.content[0] as { text: string }).text, /"name"/);
      const up = await client.callTool({ name: 'read_file', arguments: { path: '../../../etc/passwd' } }) as CallToolResult;
      assert.strictEqual(up.isError, true, 'the path guard applies to this server too');
    } finally {
      await client.close();
    }
  });

  test('a tool the setting stops offering is refused by Pincer', async () => {
    await vscode.workspace.getConfiguration('pincer').update('lm.offeredTools', ['read_file'], vscode.ConfigurationTarget.Workspace);
    const before = ends.length;
    const text = textOf(await vscode.lm.invokeTool('pincer_exec', { input: { command: 'echo offered-no-more' }, toolInvocationToken: undefined }));
    assert.doesNotMatch(text, /^offered-no-more$/m, 'the command did not run');
    const ran = ends.slice(before).find((e) => e.tool === 'exec' && e.channel === 'lm');
    assert.ok(ran, 'the call reached Pincer');
    assert.strictEqual(ran.outcome, 'refused', 'the tool log records a call outside the offered tools as refused');
    const read = textOf(await vscode.lm.invokeTool('pincer_read_file', { input: { path: 'package.json' }, toolInvocationToken: undefined }));
    assert.match(read, /"name"/, 'a tool still offered runs');
  });

  test('Serve Tools over MCP serves the window\'s tools over HTTP with this run\'s token', async () => {
    const served = await vscode.commands.executeCommand<ServeAnswer>('pincer.serveToolsOverMcp', { quiet: true });
    assert.ok(served && served.url.startsWith('http://127.0.0.1:'), 'serving on loopback');
    assert.ok(served.config.includes(served.token), 'the copied configuration carries the token');
    const client = new Client({ name: 'host-test', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${served.token}` } } }));
      const r = await client.callTool({ name: 'read_file', arguments: { path: 'package.json' } }) as CallToolResult;
      assert.match((r.content[0] as { text: string }).text, /"name"/);
      assert.ok(ends.some((e) => e.tool === 'read_file' && e.channel === 'mcp'), 'the call went through the window\'s pipeline on channel mcp');
      const stranger = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.strictEqual(stranger.status, 401);
    } finally {
      await client.close();
      await vscode.commands.executeCommand('pincer.serveToolsOverMcp', { stop: true });
    }
  });

  test('Serve Tools over MCP: a command that asks waits for the person in this window (deny, then once); an edit waits in the diff review', async function () {
    this.timeout(90_000);
    const { exec, review } = await core();
    const cfg = vscode.workspace.getConfiguration('pincer');
    // Unconfined, so the command's marker lands in this host's temp folder (the sandbox has a /tmp of its own).
    const keys = ['exec.host', 'exec.sandbox.mode', 'exec.approvalPrompt'];
    await cfg.update('exec.host', 'process', vscode.ConfigurationTarget.Global);
    await cfg.update('exec.sandbox.mode', 'off', vscode.ConfigurationTarget.Global);
    await cfg.update('exec.approvalPrompt', 'notification', vscode.ConfigurationTarget.Global);
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const marker = path.join(os.tmpdir(), `pincer-served-${process.pid}-${Date.now()}`);
    const served = await vscode.commands.executeCommand<ServeAnswer>('pincer.serveToolsOverMcp', { quiet: true });
    const client = new Client({ name: 'host-test-approvals', version: '1' });
    const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${served.token}` } } }));
      const touch = () => client.callTool({ name: 'exec', arguments: { command: `touch ${marker}` } }, undefined, { timeout: 60_000 }) as Promise<CallToolResult>;
      const first = touch();
      const asked = await waitFor('the approval prompt for the served call', () => exec.approvals.waiting()[0]);
      assert.strictEqual(asked.command, `touch ${marker}`);
      assert.ok(!fs.existsSync(marker), 'nothing runs before the person answers');
      assert.ok(exec.approvals.answer(asked.id, 'deny'));
      const denied = await first;
      assert.strictEqual(denied.isError, true);
      assert.match(text(denied), /denied/);
      assert.strictEqual((denied.structuredContent as { outcome?: string }).outcome, 'rejected-by-user', 'the person said no');
      assert.ok(!fs.existsSync(marker));
      const second = touch();
      assert.ok(exec.approvals.answer((await waitFor('the second approval prompt', () => exec.approvals.waiting()[0])).id, 'once'));
      const ran = await second;
      assert.ok(!ran.isError, text(ran));
      assert.ok(fs.existsSync(marker), 'approved once in this window: it ran');
      assert.ok(ends.some((e) => e.tool === 'exec' && e.channel === 'mcp' && e.outcome === 'ok'));

      const rel = 'served/by-mcp.md';
      const write = client.callTool({ name: 'write_file', arguments: { path: rel, content: 'from an MCP client\n' } }, undefined, { timeout: 60_000 }) as Promise<CallToolResult>;
      const pending = await waitFor('the diff review of the served edit', () => [...review.diff.pending.values()].find((p) => p.change.path.rel === rel));
      assert.ok(!fs.existsSync(path.join(root, rel)), 'nothing is written before the review');
      await vscode.commands.executeCommand('pincer.review.accept', pending.proposedUri);
      const wrote = await write;
      assert.ok(!wrote.isError, text(wrote));
      assert.strictEqual(fs.readFileSync(path.join(root, rel), 'utf8'), 'from an MCP client\n');
    } finally {
      await client.close();
      await vscode.commands.executeCommand('pincer.serveToolsOverMcp', { stop: true });
      for (const k of keys) await cfg.update(k, undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(marker, { force: true });
      fs.rmSync(path.join(root, 'served'), { recursive: true, force: true });
    }
  });
});
