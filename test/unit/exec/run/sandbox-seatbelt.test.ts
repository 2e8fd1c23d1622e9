// The macOS profile as text (Seatbelt itself is not run here: the test machines are Linux): the same
// default profile as bubblewrap's — writes only in the workspace, the caches and the window's temp
// folder; the machine's shared temp folders and the credential stores unreadable, and each narrowing
// after what it narrows (Seatbelt applies the last rule that matches); the network only to the
// proxy's loopback port. And the proxy's loopback mode, which Seatbelt's network rule points at.
import assert from 'node:assert/strict';
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { sandboxSupported } from '../../../../src/core/exec/run/sandbox-executor';
import { startSandboxProxy } from '../../../../src/core/exec/run/sandbox-proxy';
import { sbplString, seatbeltCommand, seatbeltProfile, SANDBOX_EXEC } from '../../../../src/core/exec/run/sandbox-seatbelt';

const base = {
  writable: ['/Users/u/proj', '/Users/u/.npm'],
  tmp: '/private/var/folders/xy/T/pincer-sandbox-tmp-1',
  hide: [{ path: '/Users/u/.ssh', dir: true }, { path: '/Users/u/.npmrc', dir: false }],
};

describe('sandbox on macOS: the Seatbelt profile', () => {
  const profile = seatbeltProfile({ ...base, network: { kind: 'proxy', port: 40123 } });
  const lines = profile.trim().split('\n');
  const at = (re: RegExp) => lines.findIndex((l) => re.test(l));

  it('denies by default; reads allowed, then the shared temp folders denied, then the own folders allowed again', () => {
    assert.equal(lines[0], '(version 1)');
    assert.equal(lines[1], '(deny default)');
    const readAll = at(/^\(allow file-read\*\)$/);
    const sharedTemp = at(/^\(deny file-read\* .*"\/private\/tmp".*"\/private\/var\/folders"/);
    const own = at(/^\(allow file-read\* \(subpath "\/Users\/u\/proj"\).*pincer-sandbox-tmp-1/);
    assert.ok(readAll >= 0 && readAll < sharedTemp && sharedTemp < own, profile);
  });

  it('writes only in the workspace, the caches, the window\'s temp folder and the terminal devices', () => {
    const writes = lines.filter((l) => l.includes('file-write*') && l.startsWith('(allow'));
    assert.equal(writes.length, 1);
    for (const p of ['/Users/u/proj', '/Users/u/.npm', base.tmp]) assert.ok(writes[0].includes(`(subpath "${p}")`), p);
    assert.ok(!/\(subpath "\/"\)|\/private\/tmp"|"\/Users\/u"\)/.test(writes[0]), 'no wider root is writable');
  });

  it('credential stores are denied last (a folder by subpath, a file by literal), and keychain services are unreachable', () => {
    const hide = at(/^\(deny file-read\* file-write\* \(subpath "\/Users\/u\/\.ssh"\) \(literal "\/Users\/u\/\.npmrc"\)\)$/);
    assert.ok(hide > at(/^\(allow file-write\*/), 'after every allow of files');
    assert.ok(at(/^\(deny mach-lookup .*com\.apple\.SecurityServer/) > at(/^\(allow mach-lookup\)$/));
  });

  it('the network: only the proxy\'s loopback port; the whole network when asked; none otherwise', () => {
    assert.deepEqual(lines.filter((l) => l.includes('network')), ['(allow network-outbound (remote ip "localhost:40123"))']);
    assert.ok(seatbeltProfile({ ...base, network: { kind: 'full' } }).includes('(allow network*)'));
    assert.ok(!seatbeltProfile({ ...base, network: { kind: 'none' } }).includes('network'));
  });

  it('hostile paths: quotes and backslashes are escaped, control characters refused', () => {
    assert.equal(sbplString('/Users/u/a"b\\c'), '"/Users/u/a\\"b\\\\c"');
    assert.throws(() => seatbeltProfile({ ...base, writable: ['/Users/u/x")\n(allow file-write* (subpath "/")'], network: { kind: 'none' } }), /control character/);
    const quoted = seatbeltProfile({ ...base, writable: ['/Users/u/x") (allow file-write* (subpath "/")'], network: { kind: 'none' } });
    assert.ok(quoted.includes('(subpath "/Users/u/x\\") (allow file-write* (subpath \\"/\\")")'), 'the path stays one string');
  });

  it('the command line: sandbox-exec with the profile around the setup shell; TMPDIR and the proxy variables', () => {
    const c = seatbeltCommand({ ...base, network: { kind: 'proxy', port: 40123 } }, 'ulimit -u 64 || exit 126\nexec "$@"', ['/bin/bash', '--norc', '--noprofile', '-c', 'make'], '/bin/bash');
    assert.deepEqual(c.argv.slice(0, 2), [SANDBOX_EXEC, '-p']);
    assert.equal(c.argv[2], profile);
    assert.deepEqual(c.argv.slice(3), ['/bin/bash', '--norc', '--noprofile', '-c', 'ulimit -u 64 || exit 126\nexec "$@"', 'pincer-sandbox', '/bin/bash', '--norc', '--noprofile', '-c', 'make']);
    assert.equal(c.env.TMPDIR, base.tmp);
    assert.equal(c.env.HTTPS_PROXY, 'http://127.0.0.1:40123');
  });

  it('chosen only on macOS: elsewhere but Linux nothing is supported', () => {
    assert.equal(sandboxSupported(undefined, 'win32'), false);
    assert.equal(sandboxSupported(undefined, 'darwin'), false, 'no /usr/bin/sandbox-exec on this Linux machine');
  });
});

describe('sandbox proxy on a loopback port (what Seatbelt\'s network rule admits)', () => {
  it('listens on 127.0.0.1 only; an allowed host is tunnelled, another refused', async () => {
    const server = http.createServer((_q, res) => res.end('pong'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const lookup = ((host: string, opts: dns.LookupOptions, cb: (...a: unknown[]) => void) =>
      host === 'registry.test' ? (opts.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)) : dns.lookup(host, opts, cb as never)) as LookupFunction;
    const proxy = await startSandboxProxy({ allowDomains: ['registry.test'], privateAllowed: ['registry.test'], lookup, listen: 'loopback' });
    try {
      assert.equal(proxy.socketPath, undefined);
      assert.ok(proxy.port && proxy.port > 0);
      const connect = (target: string) => new Promise<number>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: target });
        req.on('connect', (res, socket) => { socket.destroy(); resolve(res.statusCode ?? 0); });
        req.on('response', (res) => { res.resume(); resolve(res.statusCode ?? 0); });
        req.on('error', reject);
        req.end();
      });
      assert.equal(await connect(`registry.test:${port}`), 200);
      assert.equal(await connect(`evil.test:${port}`), 403);
      assert.deepEqual(proxy.refusals.map((r) => r.host), ['evil.test']);
    } finally {
      await proxy.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
