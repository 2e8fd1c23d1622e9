import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mergeMcpConfigs, readMcpConfigText, readServersObject, readWorkspaceMcpFiles } from '../../../src/core/mcp/config-read';
import { expandServer, inputIdsOf, McpConfigError, type ExpandContext } from '../../../src/core/mcp/config-expand';

const ws = { file: '/w/.vscode/mcp.json', workspace: true };

describe('MCP config readers', () => {
  it('reads VS Code .vscode/mcp.json: servers, inputs, every type, comments and trailing commas', () => {
    const r = readMcpConfigText(`{
      // VS Code allows comments
      "inputs": [{ "type": "promptString", "id": "gh-token", "description": "GitHub token", "password": true }],
      "servers": {
        "everything": { "type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"], "env": { "DEBUG": 1 }, "envFile": "\${workspaceFolder}/.env" },
        "remote": { "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer \${input:gh-token}" } },
        "legacy": { "type": "sse", "url": "http://localhost:3001/sse" },
      },
    }`, ws);
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.inputs, [{ id: 'gh-token', description: 'GitHub token', password: true, default: undefined }]);
    const [e, remote, legacy] = r.servers;
    assert.equal(e.transport, 'stdio');
    assert.equal(e.command, 'npx');
    assert.deepEqual(e.args, ['-y', '@modelcontextprotocol/server-everything']);
    assert.deepEqual(e.env, { DEBUG: '1' });
    assert.equal(e.envFile, '${workspaceFolder}/.env');
    assert.equal(remote.transport, 'http');
    assert.deepEqual(remote.headers, { Authorization: 'Bearer ${input:gh-token}' });
    assert.equal(legacy.transport, 'sse');
    assert.ok(r.servers.every((s) => s.source.workspace && s.source.file === ws.file));
  });

  it('reads mcpServers objects (Claude Code, Cursor, Cline) with every transport spelling', () => {
    const r = readMcpConfigText(JSON.stringify({
      mcpServers: {
        a: { command: 'node', args: ['server.js'] },
        b: { url: 'https://x.test/mcp' },
        c: { type: 'streamable-http', url: 'https://x.test/mcp' },
        d: { transportType: 'streamableHttp', url: 'https://x.test/mcp', disabled: true, autoApprove: ['x'], timeout: 30 },
        e: { transport: 'SSE', url: 'https://x.test/sse' },
        f: { type: 'http', url: 'https://x.test/mcp', tools: { allow: ['echo'], deny: ['get-env'] } },
      },
    }), { file: '/w/.mcp.json', workspace: true });
    assert.deepEqual(r.problems, []);
    assert.deepEqual(r.servers.map((s) => [s.name, s.transport]), [
      ['a', 'stdio'], ['b', 'http'], ['c', 'streamable-http'], ['d', 'streamable-http'], ['e', 'sse'], ['f', 'http'],
    ]);
    const d = r.servers[3];
    assert.equal(d.disabled, true);
    assert.equal(d.timeoutMs, 30_000);
    assert.deepEqual([r.servers[5].allow, r.servers[5].deny], [['echo'], ['get-env']]);
  });

  it('pincer.mcp.servers is the same object shape', () => {
    const r = readServersObject({ local: { command: 'mcp-server', timeoutSeconds: 5 } }, { file: 'settings: pincer.mcp.servers', workspace: false }, 'pincer.mcp.servers');
    assert.equal(r.servers[0].timeoutMs, 5000);
    assert.equal(r.servers[0].source.workspace, false);
  });

  it('a bad entry is reported with its file and field and left out; the others load', () => {
    const r = readMcpConfigText(JSON.stringify({
      servers: {
        good: { command: 'node' },
        badType: { type: 'websocket', url: 'ws://x' },
        noCommand: { type: 'stdio', args: ['x'] },
        neither: { env: {} },
        both: { command: 'node', url: 'https://x.test' },
        badArgs: { command: 'node', args: 'not-an-array' },
        badUrl: { type: 'sse', url: 'file:///etc/passwd' },
        badHeader: { url: 'https://x.test', headers: { A: 1 } },
      },
      inputs: [{ description: 'no id' }],
    }), ws);
    assert.deepEqual(r.servers.map((s) => s.name), ['good']);
    const p = r.problems.join('\n');
    assert.match(p, /\/w\/\.vscode\/mcp\.json: servers\.badType\.type: "websocket" is not a transport/);
    assert.match(p, /servers\.noCommand\.command: required for a stdio server/);
    assert.match(p, /servers\.neither: needs "command"/);
    assert.match(p, /servers\.both: has both/);
    assert.match(p, /servers\.badArgs\.args: /);
    assert.match(p, /servers\.badUrl\.url: "file:\/\/\/etc\/passwd" is not an http/);
    assert.match(p, /servers\.badHeader\.headers\.A: /);
    assert.match(p, /inputs\.0\.id: /);
    assert.equal(r.problems.length, 8);
  });

  it('a file that is not JSON, or not an object, is one problem naming the file', () => {
    assert.match(readMcpConfigText('{ "servers": ', ws).problems[0], /^\/w\/\.vscode\/mcp\.json: \w+ at offset \d+/);
    assert.deepEqual(readMcpConfigText('[1]', ws).problems, ['/w/.vscode/mcp.json: expected a JSON object']);
    assert.deepEqual(readMcpConfigText('{"servers": []}', ws).problems, ['/w/.vscode/mcp.json: servers: expected an object of servers by name']);
    assert.deepEqual(readMcpConfigText('', ws), { servers: [], inputs: [], problems: [] });
  });

  it('merging: the first definition of a name wins and the later one is reported', () => {
    const user = readServersObject({ x: { command: 'mine' } }, { file: 'user settings', workspace: false }, 'pincer.mcp.servers');
    const repo = readMcpConfigText(JSON.stringify({ servers: { x: { command: 'theirs' }, y: { command: 'y' } } }), ws);
    const m = mergeMcpConfigs([user, repo]);
    assert.deepEqual(m.servers.map((s) => [s.name, s.command]), [['x', 'mine'], ['y', 'y']]);
    assert.deepEqual(m.problems, ['/w/.vscode/mcp.json: server "x" is also defined in user settings, which is used']);
  });

  it('reads the workspace files that exist, in order', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-mcpcfg-'));
    try {
      fs.mkdirSync(path.join(root, '.vscode'));
      fs.writeFileSync(path.join(root, '.vscode', 'mcp.json'), '{"servers": {"a": {"command": "a"}}}');
      fs.writeFileSync(path.join(root, '.mcp.json'), '{"mcpServers": {"a": {"command": "other"}, "b": {"url": "https://b.test"}}}');
      const m = mergeMcpConfigs(readWorkspaceMcpFiles(root));
      assert.deepEqual(m.servers.map((s) => [s.name, s.command ?? s.url, path.relative(root, s.source.file)]), [
        ['a', 'a', path.join('.vscode', 'mcp.json')], ['b', 'https://b.test', '.mcp.json'],
      ]);
      assert.equal(m.problems.length, 1);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('MCP variable expansion', () => {
  const ctx = (answers: Record<string, string> = {}, files: Record<string, string> = {}): ExpandContext => ({
    workspaceFolder: '/w', home: '/home/me', env: { HOME_TOKEN: 'from-env', PLAIN: 'plain-value' },
    input: (id) => answers[id], readFile: (f) => {
      if (!(f in files)) throw new Error('ENOENT');
      return files[f];
    },
  });
  const def = (raw: object) => readServersObject({ s: raw }, ws, 'servers').servers[0];

  it('expands workspaceFolder, userHome, env and inputs, and collects the secrets', () => {
    const d = def({
      command: '${workspaceFolder}/bin/server', args: ['--home', '${userHome}', '--v=${env:PLAIN}', '${env:MISSING}'],
      env: { API_TOKEN: '${input:tok}', MODE: 'production', GITHUB_PAT_HOLDER: '${env:HOME_TOKEN}' }, envFile: '.env', cwd: 'sub',
    });
    assert.deepEqual(inputIdsOf(d), ['tok']);
    const r = expandServer(d, ctx({ tok: 'tok-answer-123' }, { '/w/.env': 'FROM_FILE=1\nDB_PASSWORD=hunter2hunter2\n' }));
    assert.equal(r.command, '/w/bin/server');
    assert.deepEqual(r.args, ['--home', '/home/me', '--v=plain-value', '']);
    assert.deepEqual(r.env, { FROM_FILE: '1', DB_PASSWORD: 'hunter2hunter2', API_TOKEN: 'tok-answer-123', MODE: 'production', GITHUB_PAT_HOLDER: 'from-env' });
    assert.equal(r.cwd, '/w/sub');
    assert.deepEqual(r.secrets.sort(), ['from-env', 'hunter2hunter2', 'tok-answer-123']);
  });

  it('headers are secrets, and so is the credential after a scheme word', () => {
    const r = expandServer(def({ url: 'https://x.test/${env:PLAIN}', headers: { Authorization: 'Bearer ${input:t}', 'X-Api-Key': 'k-123456789' } }), ctx({ t: 'abcdef123456' }));
    assert.equal(r.url, 'https://x.test/plain-value');
    assert.deepEqual(r.headers, { Authorization: 'Bearer abcdef123456', 'X-Api-Key': 'k-123456789' });
    assert.deepEqual(r.secrets.sort(), ['Bearer abcdef123456', 'abcdef123456', 'k-123456789']);
  });

  it('an unanswered input, an unknown variable, an unreadable envFile or a non-http URL is an error naming file and field', () => {
    const bad = (raw: object, c = ctx()) => assert.throws(() => expandServer(def(raw), c), McpConfigError);
    bad({ command: 'x', env: { T: '${input:nope}' } });
    assert.throws(() => expandServer(def({ command: 'x', env: { T: '${input:nope}' } }), ctx()), /\/w\/\.vscode\/mcp\.json: s\.env\.T: \$\{input:nope\} has no answer/);
    assert.throws(() => expandServer(def({ command: '${config:foo}' }), ctx()), /s\.command: \$\{config:foo\} is not a variable Pincer knows/);
    assert.throws(() => expandServer(def({ command: 'x', envFile: 'missing.env' }), ctx()), /s\.envFile: cannot read \/w\/missing\.env/);
    assert.throws(() => expandServer(def({ url: '${env:PLAIN}' }), ctx()), /s\.url: "plain-value" is not an http/);
    bad({ command: '${workspaceFolder}/x' }, { ...ctx(), workspaceFolder: undefined });
  });
});
