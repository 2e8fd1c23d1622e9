// The sandbox executor through the real bubblewrap: writes only inside the writable roots, a private
// /tmp, no network unless allowed, hidden credentials, and failing closed (nothing runs) when
// bubblewrap is missing or cannot make its namespaces. Skipped only where bwrap is not installed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { resolveExecutable } from '../../../../src/core/exec/command-allowlist';
import type { RunRequest } from '../../../../src/core/exec/exec-types';
import { descendants } from '../../../../src/core/exec/run/kill-tree';
import { bubblewrapArgs, createSandboxExecutor, DEFAULT_SANDBOX_HIDE, existingHidden } from '../../../../src/core/exec/run/sandbox-executor';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';
import { baseEnv, isLive, pidFrom, run, startCollecting } from './executor-support';

describe('sandbox: bubblewrap arguments', () => {
  const args = bubblewrapArgs(
    { writable: ['/tmp/ws', '/home/u/proj'], allowNetwork: false, hide: [{ path: '/home/u/.ssh', dir: true }, { path: '/home/u/.netrc', dir: false }] },
    '/tmp/ws/sub',
  );
  const at = (...seq: string[]) => args.findIndex((_, i) => seq.every((s, j) => args[i + j] === s));

  it('read-only root, own /dev, /proc and /tmp, then the writable binds after the private /tmp', () => {
    assert.deepEqual(args.slice(0, 8), ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs']);
    assert.ok(at('--tmpfs', '/tmp') >= 0);
    assert.ok(at('--bind', '/tmp/ws', '/tmp/ws') > at('--tmpfs', '/tmp'), 'a workspace under /tmp stays writable');
    assert.ok(at('--bind', '/home/u/proj', '/home/u/proj') > 0);
  });

  it('hides folders with a tmpfs and files with /dev/null, after the binds', () => {
    assert.ok(at('--tmpfs', '/home/u/.ssh') > at('--bind', '/home/u/proj', '/home/u/proj'));
    assert.ok(at('--dev-bind', '/dev/null', '/home/u/.netrc') > at('--bind', '/home/u/proj', '/home/u/proj'));
  });

  it('unshares everything, shares the network only when allowed, dies with its parent, new session, chdir', () => {
    assert.ok(args.includes('--unshare-all'));
    assert.ok(!args.includes('--share-net'));
    assert.ok(bubblewrapArgs({ writable: [], allowNetwork: true }, '/').includes('--share-net'));
    assert.ok(args.includes('--die-with-parent') && args.includes('--new-session'));
    assert.deepEqual(args.slice(-2), ['--chdir', '/tmp/ws/sub']);
  });

  it('keeps a working directory under /tmp visible (read-only) when no writable root holds it', () => {
    const a = bubblewrapArgs({ writable: ['/srv/ws'], allowNetwork: false }, '/tmp/elsewhere');
    assert.ok(a.join(' ').includes('--ro-bind /tmp/elsewhere /tmp/elsewhere'));
    assert.ok(!args.join(' ').includes('--ro-bind /tmp/ws/sub'), 'not when a writable root holds it');
  });

  it('existingHidden expands ~ and keeps only what exists, marking folders and files', () => {
    const home = tempDir('sbx-home');
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.netrc'), 'machine x');
    assert.deepEqual(existingHidden(DEFAULT_SANDBOX_HIDE, home), [
      { path: path.join(home, '.ssh'), dir: true },
      { path: path.join(home, '.netrc'), dir: false },
    ]);
    assert.ok(DEFAULT_SANDBOX_HIDE.includes('~/.aws') && DEFAULT_SANDBOX_HIDE.includes('~/.config/gh'));
  });
});

describe('sandbox executor (real bubblewrap)', function () {
  this.timeout(30_000);
  let ws: string;
  let outside: string;
  before(function () {
    if (process.platform !== 'linux') this.skip(); // bubblewrap is Linux-only; elsewhere the sandbox refuses (tested below)
    // On Linux the tests need it: test/host/install-host.sh installs it (npm test runs that first).
    assert.ok(resolveExecutable('bwrap', '/', process.env.PATH), 'bubblewrap (bwrap) is not installed: run test/host/install-host.sh or `apt-get install bubblewrap`');
    ws = tempDir('sbx-ws');
    outside = tempDir('sbx-outside');
  });
  after(removeTempDirs);
  const sandbox = (over: Partial<Parameters<typeof createSandboxExecutor>[0]> = {}) =>
    createSandboxExecutor({ writable: [ws], allowNetwork: false, hide: [], ...over });
  const req = (shell: string, cwd = ws): RunRequest => ({ target: { shell }, cwd, env: baseEnv() });

  it('runs the command: output, exit code, kind', async () => {
    const ex = sandbox();
    assert.equal(ex.kind, 'sandbox');
    const r = await run(ex, req('echo "in $PWD"; echo oops >&2; exit 3'));
    assert.deepEqual(r.outcome, { exitCode: 3 });
    assert.equal(r.stdout(), `in ${ws}\n`);
    assert.equal(r.stderr(), 'oops\n');
  });

  it('writes inside the writable root (a temp dir under /tmp) land on the host', async () => {
    const r = await run(sandbox(), req('mkdir -p sub && echo data > sub/made.txt'));
    assert.deepEqual(r.outcome, { exitCode: 0 }, r.stderr());
    assert.equal(fs.readFileSync(path.join(ws, 'sub', 'made.txt'), 'utf8'), 'data\n');
  });

  it('writes outside the writable roots fail: $HOME and another temp dir', async () => {
    const inHome = path.join(os.homedir(), `pincer-sbx-${process.pid}.txt`);
    try {
      const home = await run(sandbox(), req(`echo x > '${inHome}'`));
      assert.notEqual(home.outcome.exitCode, 0);
      assert.match(home.stderr(), /Read-only file system|Permission denied/);
      assert.equal(fs.existsSync(inHome), false);
    } finally {
      fs.rmSync(inHome, { force: true });
    }
    const other = await run(sandbox(), req(`echo x > '${outside}/escaped.txt'`));
    assert.notEqual(other.outcome.exitCode, 0);
    assert.equal(fs.existsSync(path.join(outside, 'escaped.txt')), false);
  });

  it('/tmp is private: what is written there stays inside, and the host /tmp is not visible', async () => {
    fs.writeFileSync(path.join(outside, 'host-secret.txt'), 'host');
    const name = `/tmp/pincer-sbx-private-${process.pid}`;
    const r = await run(sandbox(), req(`echo inner > ${name} && cat ${name} && ls '${outside}' 2>&1; ls -A /tmp`));
    assert.ok(r.stdout().startsWith('inner\n'), r.stdout());
    assert.match(r.stdout(), /No such file or directory/);
    assert.ok(!r.stdout().includes('host-secret'));
    assert.equal(fs.existsSync(name), false);
  });

  describe('network', () => {
    let server: http.Server;
    let port: number;
    before(async () => {
      server = http.createServer((_q, res) => res.end('pong'));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));
    // bash's /dev/tcp: no client program needed.
    const get = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;

    it('is denied by default: the loopback server cannot be reached', async () => {
      const r = await run(sandbox(), req(get()));
      assert.notEqual(r.outcome.exitCode, 0);
      assert.ok(!r.stdout().includes('pong'));
      assert.match(r.stderr(), /Connection refused|Network is unreachable|Cannot assign/);
    });

    it('is shared when allowNetwork: the host loopback server answers', async () => {
      const r = await run(sandbox({ allowNetwork: true }), req(get()));
      assert.deepEqual(r.outcome, { exitCode: 0 }, r.stderr());
      assert.match(r.stdout(), /pong$/);
    });
  });

  it('hidden folders are empty and hidden files read as empty, even inside a writable root', async () => {
    // Inside the workspace, so they would be visible (through the writable bind) if not hidden.
    const secrets = path.join(ws, 'secrets');
    fs.mkdirSync(secrets);
    fs.mkdirSync(path.join(secrets, 'keys'));
    fs.writeFileSync(path.join(secrets, 'keys', 'id_ed25519'), 'PRIVATE');
    fs.writeFileSync(path.join(secrets, 'token'), 'TOKEN');
    const ex = sandbox({ hide: [path.join(secrets, 'keys'), path.join(secrets, 'token'), path.join(secrets, 'not-there')] });
    const r = await run(ex, req(`ls -A '${secrets}/keys'; echo "[$(cat '${secrets}/token')]"; echo leak > '${secrets}/token'; ls '${secrets}'`));
    assert.deepEqual(r.outcome, { exitCode: 0 }, r.stderr());
    assert.equal(r.stdout(), '[]\nkeys\ntoken\n');
    assert.equal(fs.readFileSync(path.join(secrets, 'token'), 'utf8'), 'TOKEN', 'the real file is untouched');
  });

  it('hides the default credentials that exist (a ~/.npmrc)', async function () {
    // A home of the test's own, so the check does not depend on the machine having a ~/.npmrc.
    const home = tempDir('sbx-home');
    const npmrc = path.join(home, '.npmrc');
    fs.writeFileSync(npmrc, '//registry.example/:_authToken=TOKEN\n');
    const saved = process.env.HOME;
    process.env.HOME = home;
    let r;
    try {
      r = await run(createSandboxExecutor({ writable: [ws], allowNetwork: false }), req(`wc -c < '${npmrc}'`));
    } finally {
      process.env.HOME = saved;
    }
    assert.equal(r.stdout().trim(), '0');
  });

  it('passes only the given environment', async () => {
    process.env.PINCER_SBX_HOST_ONLY = 'x';
    try {
      const r = await run(sandbox(), { ...req('echo "[${PINCER_SBX_HOST_ONLY:-absent}] [$MINE]"'), env: { ...baseEnv(), MINE: 'given' } });
      assert.equal(r.stdout(), '[absent] [given]\n');
    } finally {
      delete process.env.PINCER_SBX_HOST_ONLY;
    }
  });

  it('kill() ends the sandboxed tree', async () => {
    const c = startCollecting(sandbox(), req('sleep 30 & echo ready; wait'));
    await pidFrom(() => (c.stdout().includes('ready') ? String(c.proc.pid) : ''));
    const pid = c.proc.pid as number;
    const inside = descendants(pid); // bwrap's own init, the shell, sleep: host pids
    assert.ok(inside.length >= 2, `${inside}`);
    await c.proc.kill(1000);
    const o = await c.proc.done;
    assert.notEqual(o.exitCode, 0);
    for (const p of [pid, ...inside]) assert.equal(isLive(p), false, `${p} is gone`);
  });

  it('fails closed when bwrap is missing: a start error, and nothing ran', async () => {
    const marker = path.join(ws, 'marker-missing');
    const r = await run(sandbox({ bwrapPath: path.join(outside, 'no-bwrap') }), req(`touch '${marker}'`));
    assert.equal(r.outcome.exitCode, null);
    assert.match(r.outcome.startError ?? '', /bubblewrap \(bwrap\) was not found.*sudo apt install bubblewrap.*pincer\.exec\.host/);
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(fs.existsSync(marker), false);
  });

  it('fails closed when bwrap cannot create namespaces: start error with its stderr line, nothing ran', async () => {
    // A stand-in bwrap that fails the way a kernel without user namespaces makes it fail.
    const fake = path.join(outside, 'bwrap-broken');
    const ran = path.join(outside, 'fake-ran');
    fs.writeFileSync(fake, `#!/bin/sh\necho "$@" >> '${ran}'\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n`, { mode: 0o755 });
    const marker = path.join(ws, 'marker-probe');
    const ex = sandbox({ bwrapPath: fake });
    const r = await run(ex, req(`touch '${marker}'`));
    assert.equal(r.outcome.exitCode, null);
    assert.match(r.outcome.startError ?? '', /No permissions to create new namespace/);
    assert.match(r.outcome.startError ?? '', /pincer\.exec\.host/);
    assert.equal(fs.existsSync(marker), false);
    // The probe ran once (cached): a second run does not call bwrap again and fails the same way.
    const again = await run(ex, req(`touch '${marker}'`));
    assert.match(again.outcome.startError ?? '', /No permissions/);
    assert.equal(fs.readFileSync(ran, 'utf8').trim().split('\n').length, 1);
  });
});
