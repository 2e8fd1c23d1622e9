import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { planMcpServers, type McpSetupPorts } from '../../../src/core/mcp/mcp-setup';
import type { McpServerDefinition } from '../../../src/core/mcp/server-definition';

describe('MCP trust: which servers start', () => {
  let root: string;
  beforeEach(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-mcptrust-')));
    fs.mkdirSync(path.join(root, '.vscode'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const writeVscode = (servers: object, inputs: object[] = []) =>
    fs.writeFileSync(path.join(root, '.vscode', 'mcp.json'), JSON.stringify({ inputs, servers }));

  /** An editor-like setup: remembered answers per server, a person who answers `answer`. */
  function editor(answer: boolean, trusted = true) {
    const approved = new Map<string, string>();
    const asked: { server: string; launch: string }[] = [];
    const ports = (over: Partial<McpSetupPorts> = {}): McpSetupPorts => ({
      workspaceFolder: root, home: '/home/me', env: {},
      trust: { workspaceTrusted: trusted, canAsk: true, approved: (s) => approved.get(s) },
      ask: async (def: McpServerDefinition, launch: string) => {
        asked.push({ server: def.name, launch });
        return answer;
      },
      remember: (s, f) => approved.set(s, f),
      input: async () => undefined,
      ...over,
    });
    return { approved, asked, ports };
  }

  it("the person's own servers start without a question, even in an untrusted workspace", async () => {
    const e = editor(false, false);
    const plan = await planMcpServers(e.ports({ userServers: { value: { mine: { command: 'my-server' } }, file: 'user settings' } }));
    assert.deepEqual(plan.start.map((s) => s.def.name), ['mine']);
    assert.equal(e.asked.length, 0);
  });

  it('untrusted workspace: no workspace-defined server starts and nobody is asked', async () => {
    writeVscode({ repo: { command: 'node', args: ['evil.js'] } });
    const e = editor(true, false);
    const plan = await planMcpServers(e.ports({ workspaceServers: { value: { fromSettings: { url: 'https://x.test/mcp' } }, file: 'workspace settings' } }));
    assert.deepEqual(plan.start, []);
    assert.deepEqual(plan.skipped.map((s) => s.server).sort(), ['fromSettings', 'repo']);
    assert.match(plan.skipped[0].reason, /not trusted/);
    assert.equal(e.asked.length, 0);
  });

  it('trusted: asks once showing the exact command, remembers the yes, asks again when the definition changes', async () => {
    writeVscode({ repo: { command: 'node', args: ['server.js', '--root', 'a b'], env: { TOKEN: '${input:tok}' } } }, [{ id: 'tok', password: true }]);
    const e = editor(true);
    const inputs: string[] = [];
    const withInput = { input: async (i: { id: string }) => (inputs.push(i.id), 'secret-answer-42') };
    const first = await planMcpServers(e.ports(withInput));
    assert.equal(e.asked.length, 1);
    assert.equal(e.asked[0].launch, "runs: node server.js --root 'a b'\nwith environment: TOKEN");
    assert.deepEqual(inputs, ['tok']);
    assert.deepEqual(first.start[0].env, { TOKEN: 'secret-answer-42' });
    assert.deepEqual(first.start[0].secrets, ['secret-answer-42']);
    // Remembered: no second question; the fingerprint never holds the answer.
    assert.ok(![...e.approved.values()].some((f) => f.includes('secret')));
    await planMcpServers(e.ports(withInput));
    assert.equal(e.asked.length, 1);
    writeVscode({ repo: { command: 'node', args: ['server.js', '--root', 'a b', '--exfiltrate'] } });
    await planMcpServers(e.ports(withInput));
    assert.equal(e.asked.length, 2);
    assert.match(e.asked[1].launch, /--exfiltrate/);
  });

  it('a URL server shows the URL and the header names (not their values)', async () => {
    writeVscode({ remote: { type: 'http', url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer abc' } } });
    const e = editor(true);
    await planMcpServers(e.ports());
    assert.equal(e.asked[0].launch, 'connects to: https://mcp.example.test/mcp (http)\nsending headers: Authorization');
  });

  it('declined: not started, not remembered', async () => {
    writeVscode({ repo: { command: 'node' } });
    const e = editor(false);
    const plan = await planMcpServers(e.ports());
    assert.deepEqual(plan.start, []);
    assert.match(plan.skipped[0].reason, /did not allow/);
    assert.equal(e.approved.size, 0);
  });

  it('the CLI: workspace servers only with --trust-mcp; disabled ones never', async () => {
    writeVscode({ repo: { command: 'node' }, off: { command: 'node', disabled: true } });
    const cli = (trustFlag: boolean): McpSetupPorts => ({
      workspaceFolder: root, home: '/h', env: {}, input: async () => undefined,
      trust: { workspaceTrusted: true, canAsk: false, trustFlag, approved: () => undefined },
    });
    const without = await planMcpServers(cli(false));
    assert.deepEqual(without.start, []);
    assert.match(without.skipped.find((s) => s.server === 'repo')!.reason, /start only with --trust-mcp/);
    const withFlag = await planMcpServers(cli(true));
    assert.deepEqual(withFlag.start.map((s) => s.def.name), ['repo']);
    assert.match(withFlag.skipped.find((s) => s.server === 'off')!.reason, /disabled/);
  });

  it('an input with no answer keeps that server out with the field named', async () => {
    writeVscode({ repo: { url: 'https://x.test/mcp', headers: { Authorization: 'Bearer ${input:missing}' } } });
    const plan = await planMcpServers(editor(true).ports());
    assert.deepEqual(plan.start, []);
    assert.match(plan.skipped[0].reason, /mcp\.json: repo\.headers\.Authorization: \$\{input:missing\} has no answer/);
  });
});
