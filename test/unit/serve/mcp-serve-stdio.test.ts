// `pincer mcp` over stdio, driven by the SDK's own client against the real CLI process: the tools the
// policy offers with annotations from their capabilities, calls through the pipeline (scrubbed, path
// guard, judge, --approve, --write), and the byChannel.mcp policy.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { call, sandbox, SECRET, stdioClient, text, type Sandbox } from './serve-fixtures';

describe('pincer mcp (stdio)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let client: Client;
  before(async () => {
    sb = sandbox();
    ({ client } = await stdioClient(sb));
  });
  after(async () => {
    await client?.close();
    sb.dispose();
  });

  it('lists the coding profile with readOnly / destructive annotations from capabilities', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['read_file', 'write_file', 'edit', 'exec', 'grep', 'glob', 'list_files', 'memory_search']) assert.ok(names.includes(n), n);
    assert.ok(!names.includes('spawn'), 'no model in the CLI, so no spawn');
    const by = (n: string) => tools.find((t) => t.name === n)!;
    assert.deepEqual([by('read_file').annotations?.readOnlyHint, by('read_file').annotations?.destructiveHint], [true, false]);
    assert.deepEqual([by('exec').annotations?.readOnlyHint, by('exec').annotations?.destructiveHint], [false, true]);
    assert.equal(by('read_file').inputSchema.type, 'object');
    assert.ok('path' in (by('read_file').inputSchema.properties ?? {}));
  });

  it('reads a workspace file through the pipeline, with its outcome as structured content', async () => {
    const r = await call(client, 'read_file', { path: 'hello.txt' });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /hello from the workspace/);
    assert.equal((r.structuredContent as { outcome: string }).outcome, 'ok');
  });

  it('a planted secret never reaches the client (text, structured content, grep)', async () => {
    const read = await call(client, 'read_file', { path: 'notes.txt' });
    assert.match(text(read), /GITHUB_TOKEN=/);
    const grep = await call(client, 'grep', { pattern: 'GITHUB_TOKEN' });
    assert.match(text(grep), /notes\.txt/);
    for (const r of [read, grep]) assert.ok(!JSON.stringify(r).includes(SECRET), JSON.stringify(r));
  });

  it('a malformed tools/call request is answered with a protocol error, and the next call works', async () => {
    await assert.rejects(
      client.request({ method: 'tools/call', params: { name: 'read_file', arguments: 'path=hello.txt' } }, CallToolResultSchema),
      (e: Error & { code?: number }) => typeof e.code === 'number' && /"arguments"/.test(e.message),
    );
    const r = await call(client, 'read_file', { path: 'hello.txt' });
    assert.match(text(r), /hello from the workspace/);
  });

  it('refuses a ../ read, an unknown tool and bad arguments as error results', async () => {
    const up = await call(client, 'read_file', { path: `../${path.basename(sb.outside)}` });
    assert.equal(up.isError, true);
    assert.match(text(up), /outside|workspace/i);
    assert.ok(!text(up).includes('outside the workspace\n'), 'the file was not read');
    const unknown = await call(client, 'no_such_tool', {});
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /Unknown tool/);
    const bad = await call(client, 'read_file', { path: 5 });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /path/);
  });

  it('without --write an edit is refused and the file stays as it was', async () => {
    const r = await call(client, 'write_file', { path: 'hello.txt', content: 'overwritten' });
    assert.equal(r.isError, true);
    assert.match(text(r), /--write/);
    assert.equal(fs.readFileSync(path.join(sb.ws, 'hello.txt'), 'utf8'), 'hello from the workspace\n');
  });

  it('a command that asks is denied without --approve (the default), a denied one never runs', async () => {
    const marker = path.join('/var/tmp', `pincer-serve-deny-${process.pid}`);
    const asks = await call(client, 'exec', { command: `touch ${marker}` });
    assert.equal(asks.isError, true);
    assert.equal((asks.structuredContent as { outcome: string }).outcome, 'rejected-by-user');
    assert.equal(fs.existsSync(marker), false);
    const denied = await call(client, 'exec', { command: 'kill -KILL 1' });
    assert.equal((denied.structuredContent as { outcome: string }).outcome, 'denied');
    assert.match(text(denied), /process_control/);
  });
});

describe('pincer mcp (stdio) with flags and policy', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  const clients: Client[] = [];
  before(() => (sb = sandbox()));
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    sb.dispose();
  });
  const connect = async (args: string[]) => {
    const { client } = await stdioClient(sb, args);
    clients.push(client);
    return client;
  };

  it('--approve once runs a command that asks; --write lets an edit land', async () => {
    const client = await connect(['--approve', 'once', '--write']);
    const marker = path.join('/var/tmp', `pincer-serve-once-${process.pid}`);
    try {
      const r = await call(client, 'exec', { command: `touch ${marker}` });
      assert.equal(r.isError, false, text(r));
      assert.ok(fs.existsSync(marker));
    } finally {
      fs.rmSync(marker, { force: true });
    }
    const w = await call(client, 'write_file', { path: 'new.txt', content: 'written over MCP\n' });
    assert.equal(w.isError, false, text(w));
    assert.equal(fs.readFileSync(path.join(sb.ws, 'new.txt'), 'utf8'), 'written over MCP\n');
  });

  it('pincer.tools.byChannel.mcp narrows what is listed and what may be called', async () => {
    const cfg = sb.config({ 'pincer.tools.byChannel': { mcp: { deny: ['exec'], allow: ['group:fs', 'exec'] } } });
    const client = await connect(['--config', cfg]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('read_file'));
    assert.ok(!names.includes('exec') && !names.includes('memory_search'), names.join(','));
    const r = await call(client, 'exec', { command: 'echo hi' });
    assert.equal(r.isError, true);
    assert.equal((r.structuredContent as { outcome: string }).outcome, 'denied');
    assert.match(text(r), /not allowed by policy/);
  });

  it("an MCP server from --config is served too, its tools through Pincer's pipeline", async () => {
    const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
    const cfg = sb.config({ 'pincer.mcp.servers': { everything: { command: process.execPath, args: [everything] } } });
    const client = await connect(['--config', cfg]);
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('mcp_everything__echo'), names.join(','));
    const r = await call(client, 'mcp_everything__echo', { message: `token ${SECRET}` });
    assert.equal(r.isError, false, text(r));
    assert.match(text(r), /token/);
    assert.ok(!JSON.stringify(r).includes(SECRET), 'scrubbed on the way back like any result');
  });

  it('a critical loop refuses the call that hit it and leaves the connection working', async () => {
    const cfg = sb.config({ 'pincer.loopDetection.thresholds': { sameCall: { warn: 2, critical: 3 } } });
    const client = await connect(['--config', cfg]);
    const same = () => call(client, 'read_file', { path: 'hello.txt' });
    const results = [await same(), await same(), await same()];
    assert.deepEqual(results.map((r) => r.isError), [false, false, true]);
    assert.match(text(results[2]), /\[Pincer stopped this run\]/);
    const next = await call(client, 'grep', { pattern: 'deploy' });
    assert.equal(next.isError, false, text(next));
    assert.match(text(next), /notes\.txt/);
  });

  it('--untrusted offers read-only tools only', async () => {
    const client = await connect(['--untrusted']);
    const { tools } = await client.listTools();
    assert.ok(tools.length > 0);
    assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true), tools.map((t) => t.name).join(','));
  });
});
