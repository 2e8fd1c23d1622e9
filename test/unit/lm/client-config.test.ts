// The configuration "Serve Tools over MCP…" copies for other agents: each client's block says the
// served URL and this run's token in that client's format, and the Cursor/Cline block, taken as a
// client would take it, reaches a real Pincer HTTP server (the SDK's client lists and calls a tool).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runtimeFor } from '../../../src/cli/cli-run';
import { clientConfigSnippets } from '../../../src/core/serve/client-config';
import { serveHttp } from '../../../src/core/serve/http-server';
import { createToolServer } from '../../../src/core/serve/tool-server';

describe('Serve Tools over MCP: the client configuration', () => {
  it('gives Claude Code, Codex and Cursor/Cline the URL and the token in their own formats', () => {
    const text = clientConfigSnippets('http://127.0.0.1:4321/mcp', 'tok_ABC-123');
    assert.match(text, /^claude mcp add --transport http pincer http:\/\/127\.0\.0\.1:4321\/mcp --header 'Authorization: Bearer tok_ABC-123'$/m);
    assert.match(text, /^export PINCER_MCP_TOKEN=tok_ABC-123$|PINCER_MCP_TOKEN=tok_ABC-123/m);
    assert.match(text, /^\[mcp_servers\.pincer\]\nurl = "http:\/\/127\.0\.0\.1:4321\/mcp"\nbearer_token_env_var = "PINCER_MCP_TOKEN"$/m);
    assert.doesNotMatch(text.split('[mcp_servers.pincer]')[1].split('\n\n')[0], /tok_ABC-123/, 'Codex reads the token from the environment, not from its file');
    const json = JSON.parse(text.slice(text.indexOf('{'))) as { mcpServers: { pincer: { url: string; headers: Record<string, string> } } };
    assert.deepEqual(json.mcpServers.pincer, { url: 'http://127.0.0.1:4321/mcp', headers: { Authorization: 'Bearer tok_ABC-123' } });
  });

  it('quotes a value the shell would otherwise split', () => {
    assert.match(clientConfigSnippets("http://127.0.0.1:1/mcp?a=b c", "x'y"), /pincer 'http:\/\/127\.0\.0\.1:1\/mcp\?a=b c' --header 'Authorization: Bearer x'\\''y'/);
  });

  it('the Cursor/Cline block reaches a real Pincer server, and a client without the token is refused', async () => {
    const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-serve-config-')));
    const ws = path.join(top, 'ws');
    fs.mkdirSync(ws);
    fs.writeFileSync(path.join(ws, 'hello.txt'), 'hello over MCP\n');
    const c = runtimeFor({ workspace: ws, state: path.join(top, 'state') });
    const token = randomBytes(24).toString('base64url');
    const served = await serveHttp({
      port: 0, token,
      newServer: (id) => createToolServer({ rt: c.rt, version: '0', context: (signal) => c.rt.context({ channel: 'mcp', sessionKey: `mcp:${id}`, workspaceRoot: ws, signal }) }),
    });
    const text = clientConfigSnippets(served.url, token);
    const { url, headers } = (JSON.parse(text.slice(text.indexOf('{'))) as { mcpServers: { pincer: { url: string; headers: Record<string, string> } } }).mcpServers.pincer;
    const client = new Client({ name: 'config-test', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      assert.ok((await client.listTools()).tools.some((t) => t.name === 'read_file'));
      const r = await client.callTool({ name: 'read_file', arguments: { path: 'hello.txt' } }) as CallToolResult;
      assert.match((r.content[0] as { text: string }).text, /hello over MCP/);
      const stranger = new Client({ name: 'no-token', version: '1' });
      await assert.rejects(stranger.connect(new StreamableHTTPClientTransport(new URL(url))));
    } finally {
      await client.close();
      await served.close();
      await c.jobs.dispose();
      await c.store.close();
      fs.rmSync(top, { recursive: true, force: true });
    }
  });
});
