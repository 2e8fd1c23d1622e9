// `pincer mcp --http`: streamable HTTP on 127.0.0.1 behind a bearer token, a loopback Host and no
// foreign Origin, driven by the SDK's client and by raw requests a hostile page or process could send.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, httpClient, httpPincer, sandbox, SECRET, text, type HttpPincer, type Sandbox } from './serve-fixtures';

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** A raw POST with exactly these headers (Host included, which fetch will not let a caller set). */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port: Number(u.port), path: u.pathname, method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    }, (res) => {
      let body = '';
      res.on('data', (b) => (body += b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end(INIT);
  });
}

describe('pincer mcp --http', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let server: HttpPincer;
  let client: Client;
  before(async () => {
    sb = sandbox();
    server = await httpPincer(sb);
    client = await httpClient(server.url, server.token!);
  });
  after(async () => {
    await client?.close();
    await server?.stop();
    sb.dispose();
  });

  it('listens on 127.0.0.1 and prints a fresh token once', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.ok(server.token && server.token.length >= 32);
    assert.equal(server.stderr().split(server.token!).length - 1, 1, 'the token is printed exactly once');
  });

  it('tools/list and tools/call work with the token; secrets and ../ stay out', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('read_file') && names.includes('exec'));
    const hello = await call(client, 'read_file', { path: 'hello.txt' });
    assert.match(text(hello), /hello from the workspace/);
    const notes = await call(client, 'read_file', { path: 'notes.txt' });
    assert.match(text(notes), /GITHUB_TOKEN=/);
    assert.ok(!JSON.stringify(notes).includes(SECRET));
    const up = await call(client, 'read_file', { path: `../${path.basename(sb.outside)}` });
    assert.equal(up.isError, true);
    const marker = path.join('/var/tmp', `pincer-serve-http-${process.pid}`);
    const asks = await call(client, 'exec', { command: `touch ${marker}` });
    assert.equal((asks.structuredContent as { outcome: string }).outcome, 'rejected-by-user');
    assert.equal(fs.existsSync(marker), false);
  });

  it('401 without the token or with a wrong one', async () => {
    const none = await post(server.url, { host: new URL(server.url).host });
    assert.equal(none.status, 401);
    const wrong = await post(server.url, { host: new URL(server.url).host, authorization: 'Bearer not-the-token' });
    assert.equal(wrong.status, 401);
    const right = await post(server.url, { host: new URL(server.url).host, authorization: `Bearer ${server.token}` });
    assert.equal(right.status, 200, right.body);
  });

  it('refuses a foreign Origin and a rebinding Host even with the token', async () => {
    const auth = { authorization: `Bearer ${server.token}` };
    const host = new URL(server.url).host;
    const page = await post(server.url, { ...auth, host, origin: 'https://evil.example' });
    assert.equal(page.status, 403);
    assert.match(page.body, /Origin/);
    const rebound = await post(server.url, { ...auth, host: `evil.example:${new URL(server.url).port}` });
    assert.equal(rebound.status, 403);
    assert.match(rebound.body, /Host/);
    const own = await post(server.url, { ...auth, host, origin: `http://127.0.0.1:${new URL(server.url).port}` });
    assert.equal(own.status, 200, own.body);
  });
});

describe('pincer mcp --http --token-file', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  before(() => (sb = sandbox()));
  after(() => sb.dispose());

  it('uses the token from the file and never prints it', async () => {
    const token = 'pincer-test-token-0123456789abcdef';
    const file = sb.config({});
    fs.writeFileSync(file, `${token}\n`);
    const server = await httpPincer(sb, ['--token-file', file]);
    try {
      assert.equal(server.token, undefined);
      assert.ok(!server.stderr().includes(token));
      const client = await httpClient(server.url, token);
      assert.match(text(await call(client, 'read_file', { path: 'hello.txt' })), /hello/);
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
