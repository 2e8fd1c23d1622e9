// The sandbox proxy judges the address an allowed name resolves to, not only the name: loopback,
// private, link-local, carrier-grade NAT, unique-local IPv6, IPv4 inside IPv6 and the cloud metadata
// addresses are refused unless the person listed the host by its exact name; the name is resolved
// once and the proxy connects to exactly that address. Real loopback servers, a real proxy socket.
import assert from 'node:assert/strict';
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { nonPublicRange, resolveDestination } from '../../../../src/core/exec/run/proxy-destination';
import { startSandboxProxy, type SandboxProxy } from '../../../../src/core/exec/run/sandbox-proxy';

type Answer = { address: string; family: number };

/** A lookup that answers `name` from `answers` (one list per call, the last repeated) and counts calls. */
function scriptedLookup(name: string, answers: Answer[][]) {
  const calls: string[] = [];
  const lookup = ((host: string, opts: dns.LookupOptions, cb: (...a: unknown[]) => void) => {
    if (host !== name) return dns.lookup(host, opts, cb as never);
    calls.push(host);
    const list = answers[Math.min(calls.length - 1, answers.length - 1)];
    return opts.all ? cb(null, list) : cb(null, list[0].address, list[0].family);
  }) as LookupFunction;
  return { lookup, calls };
}

/** Sends a CONNECT through the proxy's socket: the status line's code (200 when a tunnel opened). */
function connectThrough(proxy: SandboxProxy, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: proxy.socketPath, method: 'CONNECT', path: target });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A plain proxied GET of `url` through the proxy's socket: status and body. */
function getThrough(proxy: SandboxProxy, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: proxy.socketPath, method: 'GET', path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sandbox proxy: destination addresses', function () {
  const seen: string[] = [];
  let server: http.Server;
  let port: number;
  const proxies: SandboxProxy[] = [];
  const proxy = async (o: Parameters<typeof startSandboxProxy>[0]) => {
    const p = await startSandboxProxy(o);
    proxies.push(p);
    return p;
  };

  before(async () => {
    server = http.createServer((q, res) => {
      seen.push(`${q.socket.localAddress} ${q.url}`);
      res.end(`pong ${q.url}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const p of proxies) await p.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  describe('nonPublicRange (hostile: every non-public form is named)', () => {
    const hostile: [string, RegExp][] = [
      ['127.0.0.1', /loopback/], ['127.8.9.10', /loopback/], ['10.1.2.3', /private/], ['172.16.0.1', /private/],
      ['192.168.1.1', /private/], ['169.254.169.254', /linkLocal/], ['100.64.0.1', /carrierGradeNat/],
      ['100.100.100.200', /carrierGradeNat/], ['0.0.0.0', /unspecified/], ['192.0.0.192', /reserved/],
      ['224.0.0.1', /multicast/], ['255.255.255.255', /broadcast/], ['::1', /loopback/], ['::', /unspecified/],
      ['fe80::1', /linkLocal/], ['fd00:ec2::254', /uniqueLocal/], ['fc00::1', /uniqueLocal/],
      ['::ffff:127.0.0.1', /loopback/], ['::ffff:7f00:1', /loopback/], ['::ffff:169.254.169.254', /linkLocal/],
      ['64:ff9b::a9fe:a9fe', /linkLocal.*rfc6052/], ['2002:7f00:1::', /loopback.*6to4/], ['2001::1', /teredo/],
      ['not-an-address', /not an IP/],
    ];
    for (const [address, range] of hostile) {
      it(`${address} is not public`, () => assert.match(nonPublicRange(address) ?? 'public', range));
    }
    it('benign: public IPv4, IPv6, and public IPv4 inside mapped and NAT64 forms pass', () => {
      for (const a of ['8.8.8.8', '104.16.0.1', '140.82.112.3', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
        assert.equal(nonPublicRange(a), undefined, a);
      }
    });
  });

  describe('resolveDestination', () => {
    it('hostile: a name with one private answer among public ones is refused (a rebinding shape)', async () => {
      const { lookup } = scriptedLookup('mixed.test', [[{ address: '8.8.8.8', family: 4 }, { address: '10.0.0.5', family: 4 }]]);
      const d = await resolveDestination('mixed.test', { lookup, privateAllowed: [] });
      assert.match('refused' in d ? d.refused : 'allowed', /mixed\.test resolves to 10\.0\.0\.5, a private address/);
    });
    it('hostile: an address literal is judged as it is; a listed name must match exactly', async () => {
      const d = await resolveDestination('169.254.169.254', { privateAllowed: ['metadata.test'] });
      assert.ok('refused' in d);
      const { lookup } = scriptedLookup('x.internal.test', [[{ address: '10.0.0.7', family: 4 }]]);
      assert.ok('refused' in (await resolveDestination('x.internal.test', { lookup, privateAllowed: ['internal.test', '*.internal.test'] })));
    });
    it('benign: a public answer, and a private one for a host the person listed by name', async () => {
      const pub = scriptedLookup('pub.test', [[{ address: '140.82.112.3', family: 4 }]]);
      assert.deepEqual(await resolveDestination('pub.test', { lookup: pub.lookup, privateAllowed: [] }), { address: '140.82.112.3', family: 4 });
      const own = scriptedLookup('git.corp.test', [[{ address: '10.0.0.7', family: 4 }]]);
      assert.deepEqual(await resolveDestination('GIT.corp.test.', { lookup: own.lookup, privateAllowed: ['git.corp.test'] }), { address: '10.0.0.7', family: 4 });
    });
    it('a name that does not resolve is unreachable, not refused', async () => {
      const lookup = ((_h: string, _o: unknown, cb: (e: Error) => void) => cb(Object.assign(new Error('getaddrinfo ENOTFOUND nx.test'), { code: 'ENOTFOUND' }))) as unknown as LookupFunction;
      assert.match('unreachable' in (await resolveDestination('nx.test', { lookup, privateAllowed: [] })) ? 'unreachable' : 'other', /unreachable/);
    });
  });

  describe('through the proxy (a real loopback server behind an allowed name)', () => {
    it('hostile: an allowed name resolving to loopback is refused for CONNECT and plain HTTP; nothing arrives; the reason is recorded', async () => {
      const { lookup } = scriptedLookup('registry.evil.test', [[{ address: '127.0.0.1', family: 4 }]]);
      const p = await proxy({ allowDomains: ['*.evil.test'], lookup });
      const before = seen.length;
      assert.equal(await connectThrough(p, `registry.evil.test:${port}`), 403);
      const got = await getThrough(p, `http://registry.evil.test:${port}/steal`);
      assert.equal(got.status, 403);
      assert.match(got.body, /resolves to 127\.0\.0\.1, a loopback address/);
      assert.equal(seen.length, before, 'the loopback server saw nothing');
      assert.deepEqual(p.refusals.map((r) => [r.host, r.method, /loopback/.test(r.reason ?? '')]), [['registry.evil.test', 'CONNECT', true], ['registry.evil.test', 'GET', true]]);
    });

    it('hostile: a loopback address literal the domain list admits is still refused unless the person listed it as their own', async () => {
      const p = await proxy({ allowDomains: ['127.0.0.1'], privateAllowed: [] });
      assert.equal(await connectThrough(p, `127.0.0.1:${port}`), 403);
      assert.equal(await connectThrough(p, `[::ffff:127.0.0.1]:${port}`), 403);
    });

    it('rebinding: the name is resolved once and the proxy connects to exactly that address', async () => {
      // The first answer is the stand-in's; every later one would be another loopback address where nothing listens.
      const { lookup, calls } = scriptedLookup('stand-in.test', [[{ address: '127.0.0.1', family: 4 }], [{ address: '127.0.0.2', family: 4 }]]);
      const p = await proxy({ allowDomains: ['stand-in.test'], privateAllowed: ['stand-in.test'], lookup });
      const got = await getThrough(p, `http://stand-in.test:${port}/once`);
      assert.deepEqual(got, { status: 200, body: 'pong /once' });
      assert.equal(calls.length, 1);
      assert.ok(seen.includes('127.0.0.1 /once'));
    });

    it('benign: a host the person listed by its exact name reaches its loopback server (CONNECT and HTTP)', async () => {
      const { lookup } = scriptedLookup('registry.test', [[{ address: '127.0.0.1', family: 4 }]]);
      const p = await proxy({ allowDomains: ['registry.test'], privateAllowed: ['registry.test'], lookup });
      assert.equal(await connectThrough(p, `registry.test:${port}`), 200);
      assert.deepEqual(await getThrough(p, `http://registry.test:${port}/ok`), { status: 200, body: 'pong /ok' });
      assert.deepEqual(p.refusals, []);
    });
  });
});
