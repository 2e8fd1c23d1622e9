// Who may talk to `pincer mcp --http`. The server listens on 127.0.0.1 only, yet any web page the
// person opens can send requests to loopback, and a DNS-rebinding page can even make them look
// same-site. So every request must name a loopback Host, come from no browser Origin other than the
// server's own, and carry the bearer token printed when the server started. These are three string
// comparisons on headers; the SDK's ready-made checks are Express middleware, which this plain
// node:http server does not use.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface Refusal {
  status: 401 | 403;
  message: string;
}

function hostname(hostHeader: string): string | undefined {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return undefined;
  }
}

/** Compares digests, so neither the length nor the first differing byte of the token leaks through timing. */
function sameToken(given: string, token: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** Undefined when the request may go on; otherwise the status and why. Host and Origin first: a page is refused before its token is looked at. */
export function refuseRequest(headers: IncomingHttpHeaders, opts: { port: number; token: string }): Refusal | undefined {
  const host = headers.host ? hostname(headers.host) : undefined;
  if (!host || !LOOPBACK_HOSTS.has(host)) return { status: 403, message: `Host "${headers.host ?? ''}" is not this loopback server (DNS rebinding protection).` };
  const origin = headers.origin;
  if (origin !== undefined) {
    const allowed = [...LOOPBACK_HOSTS].map((h) => `http://${h}:${opts.port}`);
    if (!allowed.includes(origin)) return { status: 403, message: `Origin "${origin}" may not call this server.` };
  }
  const auth = headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  if (!m || !sameToken(m[1], opts.token)) return { status: 401, message: auth ? 'The bearer token is not this server\'s.' : 'This server needs "Authorization: Bearer <token>" (the token pincer mcp --http printed, or the one in --token-file).' };
  return undefined;
}
