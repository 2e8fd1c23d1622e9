// MCP over streamable HTTP on 127.0.0.1, one SDK transport and one server per client session (the
// SDK's stateful mode: the session id comes back in `mcp-session-id`, and later requests are routed
// by it). Every request passes the guard (http-guard.ts) before the SDK sees it.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { refuseRequest } from './http-guard';

export interface HttpServeOptions {
  /** 0 picks a free port. */
  port: number;
  token: string;
  /** A new MCP server for a new client session, with that session's id. */
  newServer(sessionId: string): Server;
}

export interface HttpServing {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The one path MCP is served on. */
export const MCP_PATH = '/mcp';

function answer(res: http.ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...extra });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export async function serveHttp(opts: HttpServeOptions): Promise<HttpServing> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let port = opts.port;

  const open = async (): Promise<StreamableHTTPServerTransport> => {
    const id = randomUUID();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    // The client's DELETE, or the server closing: the session is gone.
    transport.onclose = () => void sessions.delete(id);
    await opts.newServer(id).connect(transport);
    return transport;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const refusal = refuseRequest(req.headers, { port, token: opts.token });
    if (refusal) return answer(res, refusal.status, refusal.message, refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== MCP_PATH) return answer(res, 404, `MCP is served on ${MCP_PATH}.`);
    const sid = req.headers['mcp-session-id'];
    const transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (!transport) {
      // An unknown session is 404 (the client starts a new one); only an initialize may open one.
      if (sid !== undefined) return answer(res, 404, 'Unknown or ended MCP session; initialize a new one.');
      if (req.method !== 'POST') return answer(res, 400, 'Start a session with an initialize request (POST).');
      const fresh = await open();
      await fresh.handleRequest(req, res);
      // A first request that was not an initialize opened nothing: drop its transport and server.
      if (!fresh.sessionId || !sessions.has(fresh.sessionId)) await fresh.close();
      return;
    }
    await transport.handleRequest(req, res);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) answer(res, 500, `Internal error: ${(e as Error).message}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    port,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
