// MCP through the CLI: real `pincer` processes, a workspace whose `.vscode/mcp.json` starts
// server-everything over stdio. Workspace-defined servers start only with --trust-mcp.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVERYTHING } from './mcp-servers';

const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');

function pincer(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('pincer CLI with MCP servers', function () {
  this.timeout(90_000);
  let ws: string;
  let state: string;
  before(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-climcp-')));
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-climcp-state-'));
    fs.mkdirSync(path.join(ws, '.vscode'));
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({
      inputs: [{ type: 'promptString', id: 'svc-token', password: true }],
      servers: { everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING], env: { SERVICE_TOKEN: '${input:svc-token}' } } },
    }));
  });
  after(() => {
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });
  const common = () => ['--workspace', ws, '--state', state];

  it('pincer tools: without --trust-mcp the workspace server does not start, and says why', async () => {
    const r = await pincer(['tools', ...common(), '--json']);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.ok(!j.allowed.some((n: string) => n.startsWith('mcp_')));
    assert.deepEqual(j.mcpServers.map((s: { name: string; state: string }) => [s.name, s.state]), [['everything', 'not started']]);
    assert.match(r.err, /MCP server "everything" not started: .*start only with --trust-mcp/);
  });

  it('pincer tools --trust-mcp lists the server tools; --untrusted keeps them out even with the flag', async () => {
    const r = await pincer(['tools', ...common(), '--trust-mcp', '--json'], { PINCER_MCP_INPUT_SVC_TOKEN: 'cli-token-0123456789' });
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.ok(j.allowed.includes('mcp_everything__echo'), r.out);
    assert.equal(j.mcpServers[0].state, 'connected');
    const untrusted = await pincer(['tools', ...common(), '--trust-mcp', '--untrusted', '--json']);
    assert.ok(!JSON.parse(untrusted.out).allowed.some((n: string) => n.startsWith('mcp_')));
    assert.match(untrusted.err, /not trusted/);
  });

  it('pincer run mcp_everything__echo --trust-mcp calls it; the input answer is scrubbed from output', async () => {
    const token = 'cli-token-0123456789';
    const r = await pincer(['run', 'mcp_everything__echo', '{"message":"from the cli"}', ...common(), '--trust-mcp'], { PINCER_MCP_INPUT_SVC_TOKEN: token });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Echo: from the cli/);
    const env = await pincer(['run', 'mcp_everything__get-env', '{}', ...common(), '--trust-mcp'], { PINCER_MCP_INPUT_SVC_TOKEN: token });
    assert.equal(env.code, 0, env.err);
    assert.match(env.out, /SERVICE_TOKEN/);
    assert.ok(!env.out.includes(token));
    const refused = await pincer(['run', 'mcp_everything__echo', '{"message":"x"}', ...common()]);
    assert.equal(refused.code, 1);
    assert.match(refused.out, /Unknown tool "mcp_everything__echo"/);
  });

  it("the person's own servers (--config pincer.mcp.servers) start without the flag", async () => {
    const cfg = path.join(state, 'config.json');
    fs.writeFileSync(cfg, JSON.stringify({ 'pincer.mcp.servers': { mine: { command: process.execPath, args: [EVERYTHING] } } }));
    const r = await pincer(['run', 'mcp_mine__echo', '{"message":"mine"}', ...common(), '--config', cfg]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Echo: mine/);
  });

  it('the CLI declines elicitation, and reads pincer.mcp.maxEagerTools from --config', async () => {
    const cfg = path.join(state, 'config-eager.json');
    fs.writeFileSync(cfg, JSON.stringify({ 'pincer.mcp.servers': { mine: { command: process.execPath, args: [EVERYTHING] } }, 'pincer.mcp.maxEagerTools': 3 }));
    const r = await pincer(['run', 'mcp_mine__trigger-elicitation-request', '{}', ...common(), '--config', cfg]);
    assert.equal(r.code, 0, r.err + r.out);
    assert.match(r.out, /"action": "decline"/);
    const tools = await pincer(['tools', ...common(), '--config', cfg, '--json']);
    assert.ok(JSON.parse(tools.out).allowed.includes('mcp_tool_search'), tools.out);
  });
});
