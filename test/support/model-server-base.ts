// The HTTP plumbing the scripted model servers share: a loopback server that records every request,
// and an SSE sender that paces chunks, drops the connection or holds it open on the script's word, and
// notices when the client goes away (what a cancel test asserts).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScriptStep } from './model-script';

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (undefined for GET or a body that is not JSON). */
  body: Record<string, unknown> | undefined;
  /** SSE chunks written so far, and how many the response has in all. */
  chunksSent: number;
  totalChunks: number;
  /** The server sent the whole response. */
  completed: boolean;
  /** The client closed the connection before the server had finished. */
  clientClosed: boolean;
  /** Settles when the connection of this request closes, whoever closed it. */
  closed: Promise<void>;
}

export interface ModelServer {
  /** The base URL the provider is given. */
  url: string;
  /** http://127.0.0.1:<port>, without any path. */
  rootUrl: string;
  /** Every parsed POST body, in arrival order (for assertions on what the provider sent). */
  requests: Record<string, unknown>[];
  /** Every request with its headers and progress. */
  log: RecordedRequest[];
  close(): Promise<void>;
}

export type RouteHandler = (req: RecordedRequest, res: http.ServerResponse) => Promise<void>;

export async function startModelServer(urlPath: string, handle: RouteHandler): Promise<ModelServer> {
  const requests: Record<string, unknown>[] = [];
  const log: RecordedRequest[] = [];

  const server = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let body: Record<string, unknown> | undefined;
      try {
        body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : undefined;
      } catch {
        body = undefined;
      }
      let onClose: () => void = () => undefined;
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        chunksSent: 0,
        totalChunks: 0,
        completed: false,
        clientClosed: false,
        closed: new Promise<void>((resolve) => (onClose = resolve)),
      };
      res.on('close', () => {
        if (!res.writableFinished) record.clientClosed = true;
        onClose();
      });
      log.push(record);
      if (req.method === 'POST' && body) requests.push(body);
      await handle(record, res);
    })().catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err), type: 'server_error' } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const rootUrl = `http://127.0.0.1:${port}`;
  return {
    url: `${rootUrl}${urlPath}`,
    rootUrl,
    requests,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Retry-After headers of a scripted error. */
export function retryHeaders(error: NonNullable<ScriptStep['error']>): Record<string, string> {
  return {
    ...(error.retryAfter !== undefined ? { 'retry-after': error.retryAfter } : {}),
    ...(error.retryAfterMs !== undefined ? { 'retry-after-ms': String(error.retryAfterMs) } : {}),
  };
}

/** Writes SSE chunks one by one with the step's pacing, drop and hold. */
export async function sendSse(res: http.ServerResponse, record: RecordedRequest, chunks: string[], step: ScriptStep): Promise<void> {
  record.totalChunks = chunks.length;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  let gone = false;
  void record.closed.then(() => (gone = true));
  for (let i = 0; i < chunks.length; i++) {
    if (step.dropAfter !== undefined && i === step.dropAfter) {
      res.socket?.destroy();
      return;
    }
    if (step.holdAfter !== undefined && i === step.holdAfter) {
      await record.closed;
      return;
    }
    if (i > 0 && step.delayMs) await Promise.race([sleep(step.delayMs), record.closed]);
    if (gone || res.destroyed) return;
    res.write(chunks[i]);
    record.chunksSent++;
  }
  if (step.holdAfter !== undefined && step.holdAfter >= chunks.length) {
    await record.closed;
    return;
  }
  res.end();
  record.completed = true;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
