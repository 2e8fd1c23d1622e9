// The bridge against a second real server from npm, @modelcontextprotocol/server-filesystem over stdio,
// started without directory arguments so it confines itself to the roots Pincer offers. Its results
// pass through Pincer's pipeline like any tool's: scrubbed, capped, wrapped as untrusted, refused by
// policy; its own annotations make write_file ask before it runs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApprovalAnswer, ApprovalRequest } from '../../../src/core/exec/exec-types';
import { McpManager } from '../../../src/core/mcp/mcp-manager';
import type { PincerRuntime } from '../../../src/core/runtime';
import { runtimeWith } from '../../support/test-tools';
import { stdioServer } from './mcp-servers';

const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
/** A GitHub token's shape: the scrubber knows it without being told. */
const SECRET = 'ghp_R8fK2mQx7ZpL4vN9sT1wY6bH3cJ5dG0aE8uW';

describe('MCP bridge: server-filesystem', function () {
  this.timeout(60_000);
  let top: string;
  let root: string;
  let rt: PincerRuntime;
  let mcp: McpManager;
  const asked: ApprovalRequest[] = [];
  let answer: ApprovalAnswer = 'deny';
  const call = (name: string, args: unknown) => rt.registry.execute(name, args, rt.context({ channel: 'test', sessionKey: 'fs-test' }));

  before(async () => {
    top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-mcp-fs-')));
    root = path.join(top, 'root');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'hello.txt'), 'hello from the root\n');
    fs.writeFileSync(path.join(root, 'notes.txt'), `deploy notes\nGITHUB_TOKEN=${SECRET}\n`);
    fs.writeFileSync(path.join(root, 'big.txt'), `${'y'.repeat(79)}\n`.repeat(5_000));
    fs.writeFileSync(path.join(top, 'outside.txt'), 'outside the root\n');
    rt = runtimeWith({ 'tools.deny': ['mcp_fs__move_file'] });
    let rootsTaken!: () => void;
    const rootsSeen = new Promise<void>((resolve) => (rootsTaken = resolve));
    mcp = new McpManager({
      registry: rt.registry, scrubber: rt.scrubber, roots: () => [root], clientVersion: 'test',
      log: (_server, line) => { if (/allowed directories from MCP roots/.test(line)) rootsTaken(); },
      approvals: { approver: () => ({ request: async (req) => (asked.push(req), { answer }) }), approvalTimeoutMs: () => 5_000 },
    });
    assert.deepEqual(await mcp.start([stdioServer('fs', FILESYSTEM)]), []);
    // The server takes its directories from Pincer's roots after the handshake; calls wait for that.
    await rootsSeen;
  });
  after(async () => {
    await mcp?.dispose();
    fs.rmSync(top, { recursive: true, force: true });
  });

  it('lists its tools as mcp_fs__*, read-only ones by their annotations', () => {
    const names = rt.registry.list().map((t) => t.name).filter((n) => n.startsWith('mcp_fs__'));
    for (const n of ['read_text_file', 'write_file', 'list_directory', 'search_files']) assert.ok(names.includes(`mcp_fs__${n}`), names.join(', '));
    assert.equal(rt.registry.get('mcp_fs__read_text_file')!.capability, 'read-only');
    assert.equal(rt.registry.get('mcp_fs__write_file')!.capability, 'external');
    assert.equal(rt.registry.get('mcp_fs__list_directory')!.mcpServer, 'fs');
  });

  it('reads a file inside the roots Pincer offered, wrapped as untrusted content', async () => {
    const r = await call('mcp_fs__read_text_file', { path: path.join(root, 'hello.txt') });
    assert.equal(r.outcome, 'ok', r.forLLM);
    assert.match(r.forLLM, /hello from the root/);
    assert.match(r.forLLM, /EXTERNAL_UNTRUSTED_CONTENT/);
  });

  it('a planted secret in a file it returns never reaches the model', async () => {
    const r = await call('mcp_fs__read_text_file', { path: path.join(root, 'notes.txt') });
    assert.match(r.forLLM, /GITHUB_TOKEN=/);
    assert.ok(!r.forLLM.includes(SECRET), r.forLLM);
    assert.ok(!(r.forUser ?? '').includes(SECRET));
  });

  it('a large file is capped by the pipeline at pincer.tools.maxResultChars', async () => {
    const r = await call('mcp_fs__read_text_file', { path: path.join(root, 'big.txt') });
    assert.equal(r.outcome, 'ok');
    assert.ok(r.forLLM.length <= rt.registry.limits.maxResultChars + 500, String(r.forLLM.length));
    assert.ok(Number(r.details?.truncatedChars) > 300_000, JSON.stringify(r.details));
  });

  it('a path outside the roots: the server refuses, and Pincer reports its message as an error', async () => {
    const r = await call('mcp_fs__read_text_file', { path: path.join(top, 'outside.txt') });
    assert.equal(r.outcome, 'error');
    assert.match(r.forLLM, /The MCP server reported an error:[\s\S]*(outside allowed|Access denied)/i);
    assert.ok(!r.forLLM.includes('outside the root\n'), r.forLLM);
  });

  it('the policy denies a tool the settings deny, before the server sees it', async () => {
    const r = await call('mcp_fs__move_file', { source: path.join(root, 'hello.txt'), destination: path.join(root, 'moved.txt') });
    assert.equal(r.outcome, 'denied');
    assert.ok(fs.existsSync(path.join(root, 'hello.txt')));
    assert.ok(!fs.existsSync(path.join(root, 'moved.txt')));
  });

  it('write_file (marked destructive by the server) asks first: denied it writes nothing, allowed once it writes', async () => {
    const target = path.join(root, 'written.txt');
    answer = 'deny';
    const denied = await call('mcp_fs__write_file', { path: target, content: 'first' });
    assert.equal(denied.outcome, 'rejected-by-user');
    assert.equal(fs.existsSync(target), false);
    assert.equal(asked.at(-1)?.tool, 'mcp');
    assert.match(asked.at(-1)!.command, /^fs \/ write_file /);
    answer = 'once';
    const allowed = await call('mcp_fs__write_file', { path: target, content: 'second' });
    assert.equal(allowed.outcome, 'ok', allowed.forLLM);
    assert.equal(fs.readFileSync(target, 'utf8'), 'second');
    // Read-only tools never ask.
    const before = asked.length;
    await call('mcp_fs__list_directory', { path: root });
    assert.equal(asked.length, before);
  });
});
