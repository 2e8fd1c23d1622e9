// The HTTP server's door, request by request: what a browser page, a DNS-rebinding page or another
// local process could send, against what a real client sends.
import assert from 'node:assert/strict';
import { refuseRequest } from '../../../src/core/serve/http-guard';

const PORT = 48123;
const TOKEN = 'k3y-0123456789abcdef0123456789abcdef';
const ok = { host: `127.0.0.1:${PORT}`, authorization: `Bearer ${TOKEN}` };
const status = (headers: Record<string, string | undefined>) => refuseRequest(headers, { port: PORT, token: TOKEN })?.status;

describe('pincer mcp --http: the request guard', () => {
  it('lets a loopback client with the token in (any loopback name, with or without its own Origin)', () => {
    for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`, 'localhost']) assert.equal(status({ ...ok, host }), undefined, host);
    for (const origin of [`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`]) assert.equal(status({ ...ok, origin }), undefined, origin);
    assert.equal(status({ ...ok, authorization: `bearer ${TOKEN}` }), undefined, 'the scheme is case-insensitive');
  });

  it('refuses hosts that are not loopback (DNS rebinding), before looking at the token', () => {
    for (const host of ['evil.example', `evil.example:${PORT}`, `127.0.0.1.nip.io:${PORT}`, `localhost.evil.example:${PORT}`, '0.0.0.0', '', 'a b']) {
      assert.equal(status({ ...ok, host }), 403, host);
    }
    assert.equal(status({ authorization: ok.authorization }), 403, 'no Host at all');
  });

  it('refuses a browser Origin other than its own', () => {
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${PORT + 1}`, `https://127.0.0.1:${PORT}`, `http://localhost:${PORT}.evil.example`, 'file://']) {
      assert.equal(status({ ...ok, origin }), 403, origin);
    }
  });

  it('answers 401 without the exact token', () => {
    for (const authorization of [undefined, '', TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${TOKEN}x`, `Bearer ${TOKEN} extra`, 'Bearer ']) {
      assert.equal(status({ host: ok.host, authorization }), 401, String(authorization));
    }
    assert.match(refuseRequest({ host: ok.host }, { port: PORT, token: TOKEN })!.message, /Authorization: Bearer/);
  });
});
