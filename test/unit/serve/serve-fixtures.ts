// What the `pincer mcp` tests share: the compiled CLI, a workspace with a planted secret beside a
// folder it must not reach, and the SDK's own client connected over stdio or streamable HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export const CLI = path.join(__dirname, '..', '..', '..', 'src', 'cli', 'main.js');
/** A GitHub token's shape: the scrubber knows it without being told. */
export const SECRET = 'ghp_R8fK2mQx7ZpL4vN9sT1wY6bH3cJ5dG0aE8uW';

export interface Sandbox {
  /** The workspace (real path): notes.txt holds SECRET, hello.txt a greeting. */
  ws: string;
  /** A file beside the workspace, reachable only through `../`. */
  outside: string;
  state: string;
  /** The environment for child processes: the store under a temp XDG_STATE_HOME. */
  env: Record<string, string>;
  config(settings: Record<string, unknown>): string;
  dispose(): void;
}

export function sandbox(): Sandbox {
  const top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-serve-')));
  const ws = path.join(top, 'ws');
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, 'hello.txt'), 'hello from the workspace\n');
  fs.writeFileSync(path.join(ws, 'notes.txt'), `deploy notes\nGITHUB_TOKEN=${SECRET}\n`);
  const outside = path.join(top, 'outside.txt');
  fs.writeFileSync(outside, 'outside the workspace\n');
  const state = path.join(top, 'state');
  let n = 0;
  return {
    ws, outside, state,
    env: { ...process.env as Record<string, string>, XDG_STATE_HOME: path.join(top, 'xdg') },
    config(settings) {
      const file = path.join(top, `config-${++n}.json`);
      fs.writeFileSync(file, JSON.stringify(settings));
      return file;
    },
    dispose: () => fs.rmSync(top, { recursive: true, force: true }),
  };
}

export async function stdioClient(sb: Sandbox, args: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath, args: [CLI, 'mcp', '--workspace', sb.ws, '--state', sb.state, ...args], env: sb.env, stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (b: Buffer) => (err += b.toString()));
  const client = new Client({ name: 'pincer-test', version: '1' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

export interface HttpPincer {
  child: ChildProcess;
  url: string;
  /** The token the server printed (undefined when it read one from --token-file). */
  token?: string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `pincer mcp --http --port 0` and waits for the line that names its URL. */
export function httpPincer(sb: Sandbox, args: string[] = []): Promise<HttpPincer> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--http', '--port', '0', '--workspace', sb.ws, '--state', sb.state, ...args], { env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`pincer mcp --http exited (${code}) before serving: ${err}`)));
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString();
      const url = /serving .* on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err)?.[1];
      const generated = !args.includes('--token-file');
      const token = /bearer token .*: (\S+)$/m.exec(err)?.[1];
      if (url && (!generated || token)) resolve({ child, url, token, stderr: () => err, stop });
    });
  });
}

export async function httpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'pincer-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return await client.callTool({ name, arguments: args }) as CallToolResult;
}

export function text(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}
