// The sandbox executor through the real bubblewrap: writes only inside the writable roots, a private
// /tmp, no network of its own, every credential store unreadable, a process limit that contains a
// fork bomb, and failing closed (nothing runs) when bubblewrap is missing or cannot make its
// namespaces. The network through the proxy is in sandbox-network.test.ts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { resolveExecutable } from '../../../../src/core/exec/command-allowlist';
import type { RunRequest } from '../../../../src/core/exec/exec-types';
import { descendants } from '../../../../src/core/exec/run/kill-tree';
import { createSandboxExecutor } from '../../../../src/core/exec/run/sandbox-executor';
import { DEFAULT_SANDBOX_HIDE } from '../../../../src/core/exec/run/sandbox-profile';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';
import { baseEnv, isLive, pidFrom, run, startCollecting, waitFor } from './executor-support';

/** Counts the sandbox's processes with shell builtins only: at the limit, no new process can start. */
const COUNT = 'n=0; for d in /proc/[0-9]*; do n=$((n+1)); done';
const varTmpDirs: string[] = [];
/** A folder outside /tmp (the sandbox's /tmp is private, so only there is a path read-only inside). */
function varTmp(): string {
  const d = fs.mkdtempSync('/var/tmp/pincer-sbx-');
  varTmpDirs.push(d);
  return d;
}

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
  after(() => {
    removeTempDirs();
    for (const d of varTmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });
  const sandbox = (over: Partial<Parameters<typeof createSandboxExecutor>[0]> = {}) =>
    createSandboxExecutor({ writable: [ws], network: 'none', hide: [], caches: [], ...over });
  const req = (shell: string, cwd = ws): RunRequest => ({ target: { shell }, cwd, env: baseEnv() });

  it('runs the command: output, exit code, kind', async () => {
    const ex = sandbox();
    assert.equal(ex.kind, 'process');
    assert.equal(ex.sandboxed, true);
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

  it('with a shared /tmp folder, what one command leaves in /tmp the next one reads; the host /tmp stays out of reach', async () => {
    const shared = varTmp();
    fs.writeFileSync(path.join(outside, 'host-secret.txt'), 'host');
    const first = await run(sandbox({ tmpDir: shared }), req('mkdir -p /tmp/build && echo object > /tmp/build/out.o'));
    assert.deepEqual(first.outcome, { exitCode: 0 }, first.stderr());
    const second = await run(sandbox({ tmpDir: shared }), req(`cat /tmp/build/out.o; ls '${outside}' 2>&1`));
    assert.ok(second.stdout().startsWith('object\n'), second.stdout());
    assert.match(second.stdout(), /No such file or directory/);
    assert.equal(fs.readFileSync(path.join(shared, 'build', 'out.o'), 'utf8'), 'object\n', 'it is the shared folder on the host');
    // Without one, each command starts from an empty /tmp.
    const fresh = await run(sandbox(), req('cat /tmp/build/out.o'));
    assert.notEqual(fresh.outcome.exitCode, 0);
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

    it('is shared when the network is full: the host loopback server answers', async () => {
      const r = await run(sandbox({ network: 'full' }), req(get()));
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
      r = await run(createSandboxExecutor({ writable: [ws], network: 'none' }), req(`wc -c < '${npmrc}'`));
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
    assert.match(r.outcome.startError ?? '', /bubblewrap \(bwrap\) was not found.*sudo apt install bubblewrap.*pincer\.exec\.sandbox/);
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
    assert.match(r.outcome.startError ?? '', /pincer\.exec\.sandbox/);
    assert.equal(fs.existsSync(marker), false);
    // The probe ran once (cached): a second run does not call bwrap again and fails the same way.
    const again = await run(ex, req(`touch '${marker}'`));
    assert.match(again.outcome.startError ?? '', /No permissions/);
    assert.equal(fs.readFileSync(ran, 'utf8').trim().split('\n').length, 1);
  });
  it('every default credential store is unreadable: folders empty, files empty, the real ones untouched', async () => {
    const home = tempDir('sbx-creds');
    const files = ['.npmrc', '.yarnrc', '.pypirc', '.netrc', '.git-credentials', '.pgpass', '.my.cnf', '.cargo/credentials', '.cargo/credentials.toml'];
    const made: string[] = [];
    for (const entry of DEFAULT_SANDBOX_HIDE) {
      const rel = entry.slice(2);
      const abs = path.join(home, rel);
      if (files.includes(rel)) {
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        fs.writeFileSync(abs, `SECRET-${rel}\n`);
      } else {
        fs.mkdirSync(abs, { recursive: true });
        fs.writeFileSync(path.join(abs, 'key'), `SECRET-${rel}\n`);
      }
      made.push(abs);
    }
    const store = tempDir('sbx-pincer-store');
    fs.writeFileSync(path.join(store, 'state.db'), 'SECRET-pincer-store\n');
    const ex = createSandboxExecutor({ writable: [ws], network: 'none', home, hide: [...DEFAULT_SANDBOX_HIDE, store], caches: [] });
    const list = [...made, store].map((p) => `'${p}'`).join(' ');
    const r = await run(ex, req(`for p in ${list}; do if [ -d "$p" ]; then cat "$p"/* 2>&1; ls -A "$p"; else cat "$p"; fi; done; grep -r SECRET '${home}' '${store}' 2>&1; echo end`));
    assert.deepEqual(r.outcome, { exitCode: 0 }, r.stderr());
    assert.ok(!/SECRET/.test(r.stdout() + r.stderr()), r.stdout());
    assert.match(r.stdout(), /end\n$/);
    assert.equal(fs.readFileSync(path.join(home, '.ssh', 'key'), 'utf8'), 'SECRET-.ssh\n', 'the real files are untouched');
  });

  it('a write outside is refused, and the result says which path and why', async () => {
    // Outside /tmp: under the private /tmp a write lands in the sandbox's own tmpfs instead.
    const target = path.join(varTmp(), 'escaped.txt');
    const r = await run(sandbox(), req(`echo x > '${target}'`));
    assert.notEqual(r.outcome.exitCode, 0);
    assert.equal(fs.existsSync(target), false);
    assert.equal(r.outcome.sandboxDenied?.kind, 'write');
    assert.ok(r.outcome.sandboxDenied?.detail.includes(target), r.outcome.sandboxDenied?.detail);
    // A failure of the command's own (no sandbox refusal) is not blamed on the sandbox.
    const own = await run(sandbox(), req('echo no > /dev/stderr; exit 4'));
    assert.equal(own.outcome.sandboxDenied, undefined);
  });

  it('package caches are writable, the rest of the home is not', async () => {
    const home = varTmp();
    fs.mkdirSync(path.join(home, '.cache', 'pip'), { recursive: true });
    const ex = createSandboxExecutor({ writable: [ws], network: 'none', home, hide: [], caches: ['~/.npm', '~/.cache/pip'] });
    const r = await run(ex, req(`echo a > '${home}/.npm/c' && echo b > '${home}/.cache/pip/c' && echo c > '${home}/.profile'`));
    assert.notEqual(r.outcome.exitCode, 0);
    assert.equal(fs.readFileSync(path.join(home, '.npm', 'c'), 'utf8'), 'a\n');
    assert.equal(fs.readFileSync(path.join(home, '.cache', 'pip', 'c'), 'utf8'), 'b\n');
    assert.equal(fs.existsSync(path.join(home, '.profile')), false);
  });

  it('the process limit holds: of 300 background processes only up to the limit start', async () => {
    // bash gives up (and exits) at the first fork the limit refuses: the loop runs in a subshell.
    const r = await run(sandbox({ maxProcesses: 40 }), req(`(for i in $(seq 300); do sleep 30 & done) 2>/dev/null; ${COUNT}; echo "procs=$n"`));
    const n = Number(/procs=(\d+)/.exec(r.stdout())?.[1]);
    assert.ok(n > 5 && n <= 40, `processes inside: ${n}`);
  });

  it('a fork bomb is contained and cleaned up: the run ends, nothing of it is left', async () => {
    const c = startCollecting(sandbox({ maxProcesses: 48 }), req(`bomb() { bomb | bomb & }; bomb; sleep 2; ${COUNT}; echo "still=$n"`));
    const o = await c.proc.done;
    assert.equal(o.exitCode, 0, c.stderr().slice(-500));
    const n = Number(/still=(\d+)/.exec(c.stdout())?.[1]);
    assert.ok(n > 0 && n <= 48, `processes inside at the peak: ${n}`);
    // Everything of the sandbox went with its pid namespace; as root its pids cgroup is removed too.
    if (process.geteuid?.() === 0) {
      const ours = () => fs.readdirSync('/sys/fs/cgroup/pids').filter((n) => n.startsWith(`pincer-${process.pid}-`));
      assert.ok(await waitFor(() => ours().length === 0), `left: ${ours().join(', ')}`);
    }
    const host = spawnSync('true');
    assert.equal(host.status, 0, 'the machine can still start processes');
  });
});
