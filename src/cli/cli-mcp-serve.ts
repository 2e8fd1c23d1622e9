// `pincer mcp`: Pincer's tools for any MCP client (Claude Code, Codex, Cursor, Cline …), over stdio or,
// with --http, streamable HTTP on 127.0.0.1. The runtime is `pincer run`'s (src/cli/cli-run.ts: the one
// toolset, the CLI's store, --write, --approve) and every call goes through Registry.execute with the
// channel `mcp`. Standard output belongs to the protocol in stdio mode: everything else goes to stderr.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { prepareScrubber } from '../core/guard/scrubber';
import { serveHttp } from '../core/serve/http-server';
import { createToolServer } from '../core/serve/tool-server';
import type { ToolContext } from '../core/tools/types';
import { runtimeFor, type CliRuntime } from './cli-run';
import type { Values } from './main';
import { UsageError } from './usage-error';

const say = (m: string) => process.stderr.write(`pincer mcp: ${m}\n`);

function port(v: string | undefined): number {
  if (v === undefined) throw new UsageError('pincer mcp --http needs --port N (0 picks a free port).');
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port needs a port number 0–65535, got "${v}".`);
  return n;
}

/** --token-file's first line, or a new random token (printed once, on stderr). */
function token(values: Values): { token: string; generated: boolean } {
  const file = values['token-file'];
  if (file === undefined) return { token: randomBytes(32).toString('base64url'), generated: true };
  if (!fs.existsSync(file)) throw new UsageError(`--token-file ${file}: no such file.`);
  const t = fs.readFileSync(file, 'utf8').split(/\r?\n/)[0].trim();
  if (t.length < 16 || /\s/.test(t)) throw new UsageError(`--token-file ${file}: the first line must be a token of at least 16 characters without spaces.`);
  return { token: t, generated: false };
}

/** Resolves on SIGINT or SIGTERM: how a person (or the client that started us) stops the server. */
function stopped(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

function contextFor(c: CliRuntime, values: Values, sessionKey: string) {
  return (signal: AbortSignal): ToolContext => c.rt.context({
    channel: 'mcp', agentId: values.agent ?? 'default', sessionKey, workspaceRoot: c.root, signal,
    workspaceTrusted: !values.untrusted,
  });
}

export async function serveMcp(values: Values, positionals: string[], version: string): Promise<number> {
  if (positionals.length) throw new UsageError(`pincer mcp takes no arguments, got "${positionals.join(' ')}" (pincer --help).`);
  if (!values.http && (values.port !== undefined || values['token-file'] !== undefined)) throw new UsageError('--port and --token-file go with --http.');
  const c = runtimeFor(values);
  // Every result it serves is scrubbed: the pattern compiles before the first request arrives.
  prepareScrubber();
  // MCP servers the settings define are part of the toolset too (started as `pincer run` starts them).
  const mcp = await (await import('./cli-mcp')).startCliMcp(values, c.rt, c.root, c.approvals, (m) => say(`warning: ${m}`));
  const end = async () => {
    await c.jobs.dispose();
    await mcp?.manager.dispose();
    await c.store.close();
  };
  try {
    if (values.http) {
      const t = token(values);
      const serving = await serveHttp({
        port: port(values.port), token: t.token,
        newServer: (id) => createToolServer({ rt: c.rt, version, context: contextFor(c, values, `mcp:${id}`) }),
      });
      say(`serving ${c.root} on ${serving.url}`);
      if (t.generated) say(`bearer token (send it as "Authorization: Bearer <token>"; it changes at every start): ${t.token}`);
      say(`stopped by ${await stopped()}`);
      await serving.close();
      return 0;
    }
    const server = createToolServer({ rt: c.rt, version, context: contextFor(c, values, `mcp:stdio:${process.pid}`) });
    const closed = new Promise<void>((resolve) => (server.onclose = resolve));
    await server.connect(new StdioServerTransport());
    // The client ends the session by closing our stdin; a signal ends it too.
    process.stdin.once('end', () => void server.close());
    await Promise.race([closed, stopped()]);
    await server.close();
    return 0;
  } finally {
    await end();
  }
}
