// `pincer mcp` driven by an independent client: the MCP Inspector's CLI mode (npm
// @modelcontextprotocol/inspector, `--cli --method tools/list | tools/call`), run as a real process
// against the real CLI over stdio and over streamable HTTP. Whatever client calls, the tools come
// through the same pipeline: the path guard refuses a `../` read, the scrubber keeps a planted secret
// out, and a command that asks is denied without --approve.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { CLI, httpPincer, sandbox, SECRET, type HttpPincer, type Sandbox } from './serve-fixtures';

const INSPECTOR = path.join(path.dirname(require.resolve('@modelcontextprotocol/inspector/package.json')), 'clients', 'launcher', 'build', 'index.js');

interface Run { code: number | null; stdout: string; stderr: string }

/** One Inspector CLI run; its home is the sandbox's, so nothing it keeps lands in the real one. */
function inspector(sb: Sandbox, args: string[]): Promise<Run> {
  const home = path.join(sb.state, '..', 'inspector-home');
  fs.mkdirSync(home, { recursive: true });
  const child = spawn(process.execPath, [INSPECTOR, '--cli', ...args], {
    env: { ...sb.env, HOME: home, MCP_CATALOG_PATH: path.join(home, 'mcp.json') }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The Inspector's JSON answer on stdout (it prints the result even when the tool says isError). */
function answer<T>(r: Run): T {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    throw new Error(`the Inspector printed no JSON (exit ${r.code}): ${r.stdout}\n${r.stderr}`);
  }
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

/** The checks every transport gets: `via` is the Inspector's arguments naming the server. */
function interop(title: string, setUp: (sb: Sandbox) => Promise<{ via: string[]; stop?: () => Promise<void> }>) {
  describe(title, function () {
    this.timeout(120_000);
    let sb: Sandbox;
    let via: string[];
    let stop: (() => Promise<void>) | undefined;
    before(async () => {
      sb = sandbox();
      ({ via, stop } = await setUp(sb));
    });
    after(async () => {
      await stop?.();
      sb.dispose();
    });
    // The server's target goes last, after `--`, so the Inspector reads none of Pincer's flags as its own.
    const run = (args: string[]) => inspector(sb, [...args, ...via]);
    const callTool = (tool: string, ...pairs: string[]) => run(['--method', 'tools/call', '--tool-name', tool, '--tool-arg', ...pairs]);

    it('tools/list: the coding tools with annotations from their capabilities', async () => {
      const r = await run(['--method', 'tools/list']);
      assert.equal(r.code, 0, r.stderr);
      const { tools } = answer<{ tools: Tool[] }>(r);
      const by = (n: string) => tools.find((t) => t.name === n);
      for (const n of ['read_file', 'write_file', 'exec', 'grep']) assert.ok(by(n), n);
      assert.equal(by('read_file')!.annotations?.readOnlyHint, true);
      assert.equal(by('exec')!.annotations?.destructiveHint, true);
    });

    it('tools/call read_file: a workspace file is read, a planted secret arrives scrubbed', async () => {
      const hello = await callTool('read_file', 'path=hello.txt');
      assert.equal(hello.code, 0, hello.stderr);
      assert.match(textOf(answer<CallToolResult>(hello)), /hello from the workspace/);
      const notes = await callTool('read_file', 'path=notes.txt');
      assert.equal(notes.code, 0, notes.stderr);
      assert.match(textOf(answer<CallToolResult>(notes)), /GITHUB_TOKEN=/);
      assert.ok(!notes.stdout.includes(SECRET) && !notes.stderr.includes(SECRET), notes.stdout);
    });

    it('tools/call read_file with ../ is refused by the path guard (the Inspector exits non-zero)', async () => {
      const r = await callTool('read_file', `path=../${path.basename(sb.outside)}`);
      assert.notEqual(r.code, 0);
      const result = answer<CallToolResult>(r);
      assert.equal(result.isError, true);
      assert.match(textOf(result), /outside the workspace/);
      assert.ok(!r.stdout.includes('outside the workspace\n'), 'the file was not read');
    });

    it('tools/call exec: a command that asks is denied without --approve and never runs', async () => {
      // Outside the workspace, so the judge asks (a write inside it would simply run).
      const marker = path.join(sb.ws, '..', 'made-by-exec');
      const r = await callTool('exec', `command=touch ${marker}`);
      assert.notEqual(r.code, 0);
      assert.equal((answer<CallToolResult>(r).structuredContent as { outcome: string }).outcome, 'rejected-by-user');
      assert.equal(fs.existsSync(marker), false);
    });
  });
}

describe('MCP Inspector CLI against pincer mcp', () => {
  interop('over stdio (the Inspector starts pincer mcp)', async (sb) => ({
    via: ['--', process.execPath, CLI, 'mcp', '--workspace', sb.ws, '--state', sb.state],
  }));

  let http: HttpPincer | undefined;
  interop('over streamable HTTP (pincer mcp --http, bearer token)', async (sb) => {
    http = await httpPincer(sb);
    return {
      via: ['--transport', 'http', '--header', `Authorization: Bearer ${http.token}`, '--server-url', http.url],
      stop: () => http!.stop(),
    };
  });

  it('over HTTP without the bearer token the Inspector is refused and gets no tools', async function () {
    this.timeout(120_000);
    const sb = sandbox();
    const server = await httpPincer(sb);
    try {
      // --stored-auth-only: on a 401 the Inspector would otherwise start an interactive OAuth flow.
      const r = await inspector(sb, ['--stored-auth-only', '--method', 'tools/list', '--transport', 'http', '--server-url', server.url]);
      assert.notEqual(r.code, 0);
      assert.ok(!r.stdout.includes('read_file'), r.stdout);
      // Its error goes to stderr as JSON, carrying Pincer's 401 message.
      const { error } = JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: { code: string; message: string } };
      assert.equal(error.code, 'auth_required', r.stderr);
      assert.match(error.message, /Authorization: Bearer/);
    } finally {
      await server.stop();
      sb.dispose();
    }
  });
});
