// Real MCP servers for the tests: @modelcontextprotocol/server-everything over stdio, SSE and
// streamable HTTP, and the hostile fixture server. HTTP servers are started on a free port and
// handed back once they say they are listening.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { ResolvedServer } from '../../../src/core/mcp/config-expand';
import type { McpServerDefinition, McpTransport } from '../../../src/core/mcp/server-definition';

export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const HOSTILE = path.join(__dirname, 'fixtures', 'hostile-mcp-server.js');
export const MANY_TOOLS = path.join(__dirname, 'fixtures', 'many-tools-server.js');

export function definition(name: string, transport: McpTransport, over: Partial<McpServerDefinition> = {}): McpServerDefinition {
  return { name, source: { file: 'test', workspace: false }, transport, args: [], env: {}, headers: {}, disabled: false, ...over };
}

export function stdioServer(name: string, script: string, opts: { args?: string[]; env?: Record<string, string>; secrets?: string[]; def?: Partial<McpServerDefinition> } = {}): ResolvedServer {
  const args = [script, ...(opts.args ?? [])];
  return {
    def: definition(name, 'stdio', { command: process.execPath, args, env: opts.env ?? {}, ...opts.def }),
    command: process.execPath, args, env: opts.env ?? {}, headers: {}, secrets: opts.secrets ?? [],
  };
}

export function httpServer(name: string, transport: McpTransport, url: string, headers: Record<string, string> = {}, secrets: string[] = []): ResolvedServer {
  return { def: definition(name, transport, { url, headers }), url, args: [], env: {}, headers, secrets };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RunningHttp {
  base: string;
  child: ChildProcess;
  stop(): void;
}

/** server-everything's `sse` (GET /sse) or `streamableHttp` (POST /mcp) server. */
export async function startEverythingHttp(kind: 'sse' | 'streamableHttp'): Promise<RunningHttp> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, kind], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (b: Buffer) => {
      seen += b.toString();
      if (/running on port|listening on port/i.test(seen)) resolve();
    };
    child.stderr!.on('data', onData);
    child.stdout!.on('data', () => undefined);
    child.once('exit', (code) => reject(new Error(`server-everything ${kind} exited (${code}): ${seen}`)));
  });
  return { base: `http://127.0.0.1:${port}`, child, stop: () => child.kill('SIGKILL') };
}
