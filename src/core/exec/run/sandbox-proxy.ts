// The sandbox's only way out to the network: an HTTP proxy on a unix socket that admits an allowlist
// of domain names (package registries and git hosts by default) and refuses every other host. The
// sandboxed command has no network of its own (its own network namespace with only loopback); a
// relay inside the namespace turns the socket into 127.0.0.1:3128, and HTTP_PROXY / HTTPS_PROXY
// point there. HTTPS goes through CONNECT (the proxy sees the host name, never the content); plain
// HTTP is forwarded. An allowed name must also resolve to a public address (proxy-destination.ts),
// and the proxy connects to exactly the address it judged. Every refusal is recorded, so a failed
// command can be explained in plain words.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { LookupFunction } from 'node:net';
import { resolveDestination } from './proxy-destination';

/** Kept in its own module so the command judge can read the list without loading the proxy. */
export { DEFAULT_ALLOWED_DOMAINS } from './allowed-domains';

export interface ProxyRefusal {
  host: string;
  port: number;
  /** CONNECT, GET, POST … */
  method: string;
  /** Set when the name was allowed but the address it resolves to is not (loopback, private, metadata …). */
  reason?: string;
}

export interface SandboxProxy {
  /** The unix socket the proxy listens on (bind it into the sandbox); absent when it listens on loopback. */
  readonly socketPath?: string;
  /** The loopback port it listens on, with `listen: 'loopback'` (Seatbelt has no private network to bind a socket into). */
  readonly port?: number;
  /** Hosts refused so far, in order (at most 50 kept). */
  readonly refusals: readonly ProxyRefusal[];
  close(): Promise<void>;
}

export interface SandboxProxyOptions {
  allowDomains: readonly string[];
  /**
   * Hosts, by exact name, that may resolve to a loopback, private or link-local address: only what the
   * person listed by name in their own settings. Every other name must resolve to a public address.
   */
  privateAllowed?: readonly string[];
  /** Name resolution for allowed hosts; default the system's. Tests map a registry name to loopback. */
  lookup?: LookupFunction;
  /** `unix` (default): a socket in a private folder; `loopback`: a port on 127.0.0.1 (macOS). */
  listen?: 'unix' | 'loopback';
}

/** `name` is allowed by `pattern`: the same name, or `*.example.com` for any name below example.com. */
export function domainAllowed(host: string, patterns: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return patterns.some((raw) => {
    const p = raw.toLowerCase().replace(/\.$/, '');
    if (p.startsWith('*.')) return name.endsWith(p.slice(1)) && name.length > p.length - 1;
    return name === p;
  });
}

/** host:port of a CONNECT target or a Host header; IPv6 literals in brackets. */
function splitHostPort(target: string, defaultPort: number): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(target) ?? /^([^:]+)(?::(\d+))?$/.exec(target);
  if (!m) return undefined;
  const port = m[2] ? Number(m[2]) : defaultPort;
  return port > 0 && port < 65536 ? { host: m[1], port } : undefined;
}

const REFUSED_BODY = (host: string) =>
  `Pincer sandbox: ${host} is not in the allowed domains (pincer.exec.sandbox.allowDomains); the connection was refused.\n`;

export async function startSandboxProxy(opts: SandboxProxyOptions): Promise<SandboxProxy> {
  // A private folder: only this user can reach the socket on the host side.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-proxy-'));
  fs.chmodSync(dir, 0o700);
  const socketPath = path.join(dir, 'proxy.sock');
  const refusals: ProxyRefusal[] = [];
  const refuse = (host: string, port: number, method: string, reason?: string) => {
    if (refusals.length < 50) refusals.push({ host, port, method, ...(reason ? { reason } : {}) });
  };
  const destination = (host: string) => resolveDestination(host, { lookup: opts.lookup, privateAllowed: opts.privateAllowed ?? [] });
  const sockets = new Set<net.Socket>();

  const server = http.createServer(async (req, res) => {
    // A proxied plain-HTTP request carries the absolute URL.
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('Pincer sandbox proxy: only proxy requests (absolute URLs) are served.\n');
      return;
    }
    const port = Number(url.port || 80);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (url.protocol !== 'http:' || !domainAllowed(host, opts.allowDomains)) {
      refuse(host, port, req.method ?? 'GET');
      res.writeHead(403, { 'content-type': 'text/plain' }).end(REFUSED_BODY(host));
      return;
    }
    // The body waits (paused) while the name is resolved and judged.
    req.pause();
    const dest = await destination(host);
    if ('refused' in dest) {
      refuse(host, port, req.method ?? 'GET', dest.refused);
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`Pincer sandbox: ${dest.refused}; the connection was refused.\n`);
      return;
    }
    if ('unreachable' in dest) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`Pincer sandbox proxy: ${dest.unreachable}.\n`);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    headers.host = url.host;
    // To the judged address itself; the Host header carries the name the URL names.
    const upstream = http.request({ host: dest.address, family: dest.family, port, method: req.method, path: url.pathname + url.search, headers, setHost: false }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`Pincer sandbox proxy: ${host} could not be reached (${e.message}).\n`);
    });
    req.pipe(upstream);
  });

  server.on('connect', async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = splitHostPort(req.url ?? '', 443);
    client.on('error', () => client.destroy());
    if (!target || !domainAllowed(target.host, opts.allowDomains)) {
      refuse(target?.host ?? String(req.url), target?.port ?? 0, 'CONNECT');
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${REFUSED_BODY(target?.host ?? String(req.url))}`);
      return;
    }
    const dest = await destination(target.host);
    if ('refused' in dest) {
      refuse(target.host, target.port, 'CONNECT', dest.refused);
      client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nPincer sandbox: ${dest.refused}; the connection was refused.\n`);
      return;
    }
    if ('unreachable' in dest) {
      client.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\nPincer sandbox proxy: ${dest.unreachable}.\n`);
      return;
    }
    if (client.destroyed) return;
    const upstream = net.connect({ host: dest.address, family: dest.family, port: target.port });
    sockets.add(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (e) => {
      if (!connected && client.writable) {
        client.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\nPincer sandbox proxy: ${target.host} could not be reached (${e.message}).\n`);
      } else client.destroy();
    });
    upstream.once('close', () => sockets.delete(upstream));
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('clientError', (_e, s) => s.destroy());

  const loopback = opts.listen === 'loopback';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (loopback) server.listen(0, '127.0.0.1', () => resolve());
    else server.listen(socketPath, () => resolve());
  });
  // The proxy must never keep the extension host (or a CLI run) alive by itself.
  server.unref();
  return {
    ...(loopback ? { port: (server.address() as net.AddressInfo).port } : { socketPath }),
    refusals,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => {
        fs.rmSync(dir, { recursive: true, force: true });
        resolve();
      });
    }),
  };
}
