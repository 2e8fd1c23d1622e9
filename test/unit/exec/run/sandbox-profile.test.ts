// The sandbox's profile and choices without running anything: bubblewrap's arguments, the setup
// script, which domains the proxy admits, the settings reader, and which executor a host gets.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Executor, ExecHostKind } from '../../../../src/core/exec/exec-types';
import { readSandboxConfig } from '../../../../src/core/exec/sandbox-config';
import { createProcessExecutor } from '../../../../src/core/exec/run/process-executor';
import {
  bubblewrapArgs, DEFAULT_SANDBOX_HIDE, existingCaches, existingHidden, sandboxSetupScript, SANDBOX_PROXY_SOCKET,
} from '../../../../src/core/exec/run/sandbox-profile';
import { DenialWatcher } from '../../../../src/core/exec/run/sandbox-denial';
import { domainAllowed } from '../../../../src/core/exec/run/sandbox-proxy';
import { sandboxedExecutor, sandboxOptions } from '../../../../src/core/exec/run/sandbox-select';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';

describe('sandbox profile: bubblewrap arguments', () => {
  after(removeTempDirs);
  const args = bubblewrapArgs(
    { writable: ['/tmp/ws', '/home/u/proj'], network: { kind: 'proxy', hostSocket: '/tmp/p/proxy.sock' }, hide: [{ path: '/home/u/.ssh', dir: true }, { path: '/home/u/.netrc', dir: false }] },
    '/tmp/ws/sub',
  );
  const at = (...seq: string[]) => args.findIndex((_v: string, i: number) => seq.every((s, j) => args[i + j] === s));

  it('read-only root, own /dev, /proc and /tmp, then the writable binds after the private /tmp', () => {
    assert.deepEqual(args.slice(0, 8), ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs']);
    assert.ok(at('--bind', '/tmp/ws', '/tmp/ws') > at('--tmpfs', '/tmp'), 'a workspace under /tmp stays writable');
    const shared = bubblewrapArgs({ writable: ['/tmp/ws'], network: { kind: 'none' }, tmp: '/var/tmp/pincer-tmp' }, '/tmp/ws');
    assert.deepEqual(shared.slice(7, 10), ['--bind', '/var/tmp/pincer-tmp', '/tmp'], 'a shared /tmp folder in place of the empty one');
    assert.ok(shared.indexOf('/tmp/ws') > 9, 'binds under /tmp come after it');
    assert.ok(at('--bind', '/home/u/proj', '/home/u/proj') > 0);
  });

  it('hides folders with a tmpfs and files with /dev/null, after the binds', () => {
    assert.ok(at('--tmpfs', '/home/u/.ssh') > at('--bind', '/home/u/proj', '/home/u/proj'));
    assert.ok(at('--dev-bind', '/dev/null', '/home/u/.netrc') > at('--bind', '/home/u/proj', '/home/u/proj'));
  });

  it('with the proxy: its own network (no --share-net), the socket bound in, the proxy variables set', () => {
    assert.ok(args.includes('--unshare-all'));
    assert.ok(!args.includes('--share-net'));
    assert.ok(at('--bind', '/tmp/p/proxy.sock', SANDBOX_PROXY_SOCKET) > at('--tmpfs', '/tmp'));
    assert.ok(at('--setenv', 'HTTPS_PROXY', 'http://127.0.0.1:3128') > 0);
    assert.ok(at('--setenv', 'NO_PROXY', 'localhost,127.0.0.1,::1') > 0);
    assert.ok(args.includes('--die-with-parent') && args.includes('--new-session'));
    assert.deepEqual(args.slice(-2), ['--chdir', '/tmp/ws/sub']);
  });

  it('full network shares the host network and sets no proxy; none has neither', () => {
    const full = bubblewrapArgs({ writable: [], network: { kind: 'full' } }, '/');
    assert.ok(full.includes('--share-net') && !full.includes('HTTPS_PROXY'));
    const none = bubblewrapArgs({ writable: [], network: { kind: 'none' } }, '/');
    assert.ok(!none.includes('--share-net') && !none.includes('HTTPS_PROXY'));
  });

  it('keeps a working directory under /tmp visible (read-only) when no writable root holds it', () => {
    const a = bubblewrapArgs({ writable: ['/srv/ws'], network: { kind: 'none' } }, '/tmp/elsewhere');
    assert.ok(a.join(' ').includes('--ro-bind /tmp/elsewhere /tmp/elsewhere'));
    assert.ok(!args.join(' ').includes('--ro-bind /tmp/ws/sub'), 'not when a writable root holds it');
  });

  it('the setup script limits processes first, waits for the relay, then execs the command argv', () => {
    const s = sandboxSetupScript({ maxProcesses: 99, relay: '/usr/bin/socat' });
    assert.ok(s.startsWith('ulimit -u 99 || exit 126\n'));
    assert.match(s, /\/usr\/bin\/socat TCP-LISTEN:3128,bind=127\.0\.0\.1,.*UNIX-CONNECT:\/tmp\/\.pincer-proxy\.sock/);
    assert.ok(s.endsWith('exec "$@"'));
    assert.ok(!sandboxSetupScript({ maxProcesses: 5 }).includes('socat'));
  });

  it('existingHidden expands ~ and keeps only what exists; the default list covers the credential stores', () => {
    const home = tempDir('sbx-home');
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.netrc'), 'machine x');
    assert.deepEqual(existingHidden(DEFAULT_SANDBOX_HIDE, home), [
      { path: path.join(home, '.ssh'), dir: true },
      { path: path.join(home, '.netrc'), dir: false },
    ]);
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', '..', 'package.json'), 'utf8'));
    assert.deepEqual(manifest.contributes.configuration.properties['pincer.exec.sandbox.hidePaths'].default, [...DEFAULT_SANDBOX_HIDE], 'package.json shows the same default');
    for (const p of ['~/.ssh', '~/.aws', '~/.config/gh', '~/.config/gcloud', '~/.docker', '~/.kube', '~/.npmrc', '~/.netrc', '~/.git-credentials', '~/.gnupg', '~/.local/share/keyrings', '~/.mozilla', '~/.config/google-chrome']) {
      assert.ok(DEFAULT_SANDBOX_HIDE.includes(p), p);
    }
  });

  it('existingCaches keeps the cache folders that exist and makes ~/.npm', () => {
    const home = tempDir('sbx-home');
    fs.mkdirSync(path.join(home, '.cargo', 'registry'), { recursive: true });
    assert.deepEqual(existingCaches(['~/.npm', '~/.cargo/registry', '~/.cache/pip'], home), [path.join(home, '.npm'), path.join(home, '.cargo', 'registry')]);
  });
});

describe('sandbox proxy: which domains it admits', () => {
  const allow = ['registry.npmjs.org', '*.example.com'];
  it('the same name (any case, trailing dot) and names below a wildcard', () => {
    for (const h of ['registry.npmjs.org', 'REGISTRY.npmjs.org', 'registry.npmjs.org.', 'a.example.com', 'b.a.example.com']) assert.ok(domainAllowed(h, allow), h);
  });
  it('nothing else: lookalikes, parents, suffixes, the wildcard base, IP literals', () => {
    for (const h of ['npmjs.org', 'evil-registry.npmjs.org', 'registry.npmjs.org.evil.test', 'example.com', 'badexample.com', '127.0.0.1', 'registry.npmjs.org@evil.test']) {
      assert.ok(!domainAllowed(h, allow), h);
    }
  });
});

describe('sandbox settings and the executor a host gets', () => {
  const read = (values: Record<string, unknown>) => {
    const warnings: string[] = [];
    return { c: readSandboxConfig((k) => values[k], (m) => warnings.push(m)), warnings };
  };

  it('defaults: on, proxy network, no extra domains, the credential list, 1024 processes', () => {
    const { c, warnings } = read({});
    assert.deepEqual(warnings, []);
    assert.equal(c.mode, 'on');
    assert.equal(c.fullNetwork, false);
    assert.deepEqual(c.allowDomains, []);
    assert.deepEqual(c.hide, [...DEFAULT_SANDBOX_HIDE]);
    assert.equal(c.maxProcesses, 1024);
  });

  it('refuses domain patterns that would open everything, and bad values, with a warning', () => {
    const { c, warnings } = read({ 'exec.sandbox.allowDomains': ['*'], 'exec.sandbox.mode': 'maybe', 'exec.sandbox.maxProcesses': 2 });
    assert.deepEqual(c.allowDomains, []);
    assert.equal(c.mode, 'on');
    assert.equal(c.maxProcesses, 1024);
    assert.equal(warnings.length, 3);
    assert.deepEqual(read({ 'exec.sandbox.allowDomains': ['pkg.example.org', '*.corp.example'] }).c.allowDomains, ['pkg.example.org', '*.corp.example']);
  });

  const processExec = createProcessExecutor();
  const other: Executor = { kind: 'terminal', start: processExec.start };
  const base = (k: ExecHostKind) => (k === 'terminal' ? other : processExec);
  const ctx = (over: Record<string, unknown> = {}) => ({ config: read(over).c, roots: ['/ws'] });

  it('on: the host executor wrapped (same kind, sandboxed); off or sandbox:false: the host executor itself', () => {
    const on = sandboxedExecutor('terminal', base, ctx());
    if (process.platform === 'linux' && fs.existsSync('/usr/bin/bwrap')) {
      assert.equal(on.kind, 'terminal');
      assert.equal(on.sandboxed, true);
    }
    assert.equal(sandboxedExecutor('terminal', base, ctx({ 'exec.sandbox.mode': 'off' })), other);
    assert.equal(sandboxedExecutor('terminal', base, ctx(), { sandbox: false }), other);
  });

  it('the legacy host "sandbox" is a child process in a required sandbox', () => {
    const legacy = sandboxedExecutor('sandbox', base, ctx({ 'exec.sandbox.mode': 'off' }));
    assert.equal(legacy.kind, 'process');
    assert.equal(legacy.sandboxed, true);
  });

  it('without bubblewrap, on runs unconfined and says so once', () => {
    const notices: string[] = [];
    const c = { ...ctx(), notice: (m: string) => notices.push(m), overrides: { bwrapPath: '/nonexistent/bwrap' } };
    assert.equal(sandboxedExecutor('process', base, c), processExec);
    sandboxedExecutor('process', base, c);
    assert.equal(notices.length, 1);
    assert.match(notices[0], /without a sandbox/);
  });

  it('the options widen the built-in lists and always hide Pincer\'s own storage', () => {
    const o = sandboxOptions({ ...ctx({ 'exec.sandbox.allowDomains': ['pkg.example.org', '*.corp.example'], 'exec.sandbox.writablePaths': ['~/.cache/mine'] }), alwaysHidden: ['/store'] }, processExec);
    assert.ok(o.allowDomains?.includes('registry.npmjs.org') && o.allowDomains.includes('pkg.example.org'));
    // Only the person's exact names may resolve to a private address: never a built-in or a wildcard.
    assert.deepEqual(o.privateHosts, ['pkg.example.org']);
    // One private /tmp for every command of the process (mode 0700, not the host's /tmp itself).
    assert.ok(o.tmpDir && o.tmpDir !== os.tmpdir() && (fs.statSync(o.tmpDir).mode & 0o777) === 0o700);
    assert.equal(sandboxOptions(ctx(), processExec).tmpDir, o.tmpDir);
    assert.ok(o.caches?.includes('~/.npm') && o.caches.includes('~/.cache/mine'));
    assert.ok(o.hide?.includes('/store'));
    assert.equal(o.network, 'proxy');
  });
});

describe('sandbox denial: telling the sandbox\'s refusals from a command\'s own failures', () => {
  const watch = (...chunks: string[]) => {
    const w = new DenialWatcher();
    for (const c of chunks) w.push(c);
    return w;
  };

  it('a read-only file system names the paths, from bash, coreutils and node, even split across chunks', () => {
    const w = watch("/bin/bash: line 1: /etc/x: Read-only", " file system\ncp: cannot create regular file '/opt/y': Read-only file system\n", "Error: EROFS: read-only file system, open '/usr/z'");
    const d = w.verdict(true, []);
    assert.equal(d?.kind, 'write');
    assert.match(d?.detail ?? '', /a write to \/etc\/x, \/opt\/y, \/usr\/z was refused/);
  });

  it('a refused host wins, and names each host once', () => {
    const d = watch('Read-only file system\n').verdict(true, [{ host: 'evil.test', port: 80, method: 'POST' }, { host: 'evil.test', port: 443, method: 'CONNECT' }]);
    assert.equal(d?.kind, 'network');
    assert.match(d?.detail ?? '', /refused evil\.test \(/);
  });

  it('a name refused for its address is explained by the address, beside a name refused outright', () => {
    const d = watch().verdict(true, [
      { host: 'evil.test', port: 80, method: 'GET' },
      { host: 'cdn.ok.test', port: 443, method: 'CONNECT', reason: 'cdn.ok.test resolves to 169.254.169.254, a linkLocal address, not the public internet' },
    ]);
    assert.match(d?.detail ?? '', /refused evil\.test \(not in the allowed domains.*; and cdn\.ok\.test resolves to 169\.254\.169\.254, a linkLocal address.*exact name/);
  });

  it('no name resolves inside: reported as reaching around the proxy, unless the run had the whole network', () => {
    assert.equal(watch('curl: (6) Could not resolve host: example.com\n').verdict(true, [])?.kind, 'network');
    assert.equal(watch('curl: (6) Could not resolve host: example.com\n').verdict(true, [], true), undefined);
  });

  it('nothing is blamed on the sandbox when the run succeeded or failed for its own reasons', () => {
    assert.equal(watch('touch: /x: Read-only file system\n').verdict(false, [{ host: 'a.test', port: 80, method: 'GET' }]), undefined);
    assert.equal(watch('rm: cannot remove \'x\': Permission denied\nnpm ERR! 404 Not Found\n').verdict(true, []), undefined);
  });
});
