// One HTTP GET to a URL that passed the SSRF check, connected to exactly the address the check
// approved (the host name still goes in the Host header and TLS's SNI, so certificates are verified
// against the name). The body is read up to a byte cap, decompressed bytes counted, so a small
// compressed answer cannot expand past the cap.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import type { CheckedUrl } from './ssrf-guard';

export interface HopResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body went past the byte cap and was cut there. */
  truncated: boolean;
}

export interface HopOptions {
  headers: Record<string, string>;
  maxBytes: number;
  signal: AbortSignal;
}

/** A lookup that answers with the checked address whatever it is asked (no second DNS query). */
function pinnedLookup(checked: CheckedUrl): LookupFunction {
  const { address, family } = checked.pinned;
  return ((_host: string, opts: { all?: boolean }, cb: (...a: unknown[]) => void) => {
    if (opts?.all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  }) as LookupFunction;
}

/** Sends the request; a redirect's body is not read (only its Location matters). */
export function requestOnce(checked: CheckedUrl, opts: HopOptions): Promise<HopResponse> {
  const { url } = checked;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: 'GET', headers: opts.headers, lookup: pinnedLookup(checked), signal: opts.signal,
      // No connection reuse: a pooled socket could belong to an earlier, differently pinned request.
      agent: false,
    }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        resolve({ status, headers: res.headers, body: Buffer.alloc(0), truncated: false });
        return;
      }
      readCapped(decoded(res), opts.maxBytes, () => res.destroy()).then(
        ({ body, truncated }) => resolve({ status, headers: res.headers, body, truncated }),
        reject,
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function decoded(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const inflate = encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip()
    : encoding === 'deflate' ? zlib.createInflate()
      : encoding === 'br' ? zlib.createBrotliDecompress() : undefined;
  if (!inflate) return res;
  res.on('error', (e) => inflate.destroy(e));
  return res.pipe(inflate);
}

function readCapped(stream: Readable, maxBytes: number, stop: () => void): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (truncated: boolean) => {
      if (done) return;
      done = true;
      resolve({ body: Buffer.concat(chunks, size), truncated });
    };
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        finish(true);
        stream.destroy();
        stop();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.on('end', () => finish(false));
    stream.on('error', (e) => { if (!done) { done = true; reject(e); } });
    // An aborted response ends with 'close' and no 'end' (the request's signal fired mid-body).
    stream.on('close', () => { if (!done) { done = true; reject(new Error('the connection closed before the body was complete')); } });
  });
}
