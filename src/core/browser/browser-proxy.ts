// The browser's only way to the network: Chromium is started with this proxy for every scheme (loopback
// included), so every request a page makes — the model's navigation, a redirect, a script's fetch, an
// image, a WebSocket — reaches this code first and passes the same SSRF check as web_fetch
// (ssrf-guard.ts): the host is resolved here, every address must be public (loopback only as the
// settings allow), and the connection goes to exactly the checked address, so a DNS answer that
// changes between check and connect gets no say. HTTPS is tunnelled (CONNECT: the proxy sees the
// host, never the content); plain HTTP is forwarded. Refusals are recorded for the tool's result.
import http from 'node:http';
import net from 'node:net';
import { checkUrl, WebRefusal, type CheckedUrl, type SsrfOptions } from '../web/ssrf-guard';

export interface BrowserRefusal {
  url: string;
  reason: string;
}

export interface BrowserProxy {
  /** http://127.0.0.1:PORT */
  readonly server: string;
  /** Refusals since the last take(), oldest first (at most 50 kept). */
  take(): BrowserRefusal[];
  close(): Promise<void>;
}

/** host:port of a CONNECT target; IPv6 literals in brackets. */
function connectTarget(target: string): URL | undefined {
  try {
    const url = new URL(`https://${target}/`);
    return url.port ? url : undefined;
  } catch {
    return undefined;
  }
}

export async function startBrowserProxy(policy: () => SsrfOptions): Promise<BrowserProxy> {
  let refusals: BrowserRefusal[] = [];
  const sockets = new Set<net.Socket>();
  const check = async (url: URL | string): Promise<CheckedUrl | BrowserRefusal> => {
    try {
      return await checkUrl(url, policy());
    } catch (e) {
      const refusal = { url: String(url), reason: e instanceof WebRefusal ? e.message : `refused: ${(e as Error).message}` };
      if (refusals.length < 50) refusals.push(refusal);
      return refusal;
    }
  };

  const server = http.createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Pincer browser proxy: only proxy requests are served.\n');
      return;
    }
    req.pause();
    const checked = await check(url);
    if ('reason' in checked) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(`Pincer refused this request: ${checked.reason}\n`);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    headers.host = url.host;
    const upstream = http.request({
      host: checked.pinned.address, family: checked.pinned.family, port: Number(url.port || 80), method: req.method,
      path: url.pathname + url.search, headers, setHost: false, agent: false,
    }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`Pincer browser proxy: ${url.host} could not be reached (${e.message}).\n`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });

  server.on('connect', async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = connectTarget(req.url ?? '');
    const checked = target ? await check(target) : { url: String(req.url), reason: 'not a host:port' };
    if ('reason' in checked) {
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nPincer refused this connection: ${checked.reason}\n`);
      return;
    }
    if (client.destroyed) return;
    const upstream = net.connect({ host: checked.pinned.address, family: checked.pinned.family, port: Number(checked.url.port) });
    sockets.add(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      if (client.writable && !upstream.readable) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      else client.destroy();
    });
    upstream.once('close', () => { sockets.delete(upstream); client.destroy(); });
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('clientError', (_e, s) => s.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // The proxy must never keep the extension host (or a CLI run) alive by itself.
  server.unref();
  return {
    server: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    take: () => {
      const taken = refusals;
      refusals = [];
      return taken;
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
