// The dev container executor against a stand-in `devcontainer` CLI: a real shell script that records
// its argv and environment and then runs what follows `--` in the workspace folder, the way
// `devcontainer exec` runs it in the container. Checks the argv, the quoting, that the host
// environment stays out, and the start errors.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { containerScript, createDevcontainerExecutor } from '../../../../src/core/exec/run/devcontainer-executor';
import { shellQuote } from '../../../../src/core/exec/run/shell-command';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';
import { baseEnv, run } from './executor-support';

const FAKE_CLI = `#!/bin/sh
here=$(dirname "$0")
printf '%s\\0' "$@" > "$here/argv"
env > "$here/env"
while [ "$1" != "--" ]; do
  if [ "$1" = "--workspace-folder" ]; then ws=$2; fi
  shift
done
shift
cd "$ws" && exec "$@"
`;

describe('devcontainer executor', function () {
  let ws: string;
  let bin: string;
  let cli: string;
  before(() => {
    ws = tempDir('dc-ws');
    fs.mkdirSync(path.join(ws, '.devcontainer'));
    fs.writeFileSync(path.join(ws, '.devcontainer', 'devcontainer.json'), '{"image":"alpine"}');
    fs.mkdirSync(path.join(ws, 'pkg', 'sub dir'), { recursive: true });
    bin = tempDir('dc-bin');
    cli = path.join(bin, 'devcontainer');
    fs.writeFileSync(cli, FAKE_CLI, { mode: 0o755 });
  });
  after(removeTempDirs);
  const argvSeen = () => fs.readFileSync(path.join(bin, 'argv'), 'utf8').split('\0').slice(0, -1);

  it('runs `devcontainer exec --workspace-folder <ws> -- /bin/sh -c <cd && text>` from the workspace', async () => {
    const ex = createDevcontainerExecutor({ workspaceFolder: ws, cliPath: cli });
    assert.equal(ex.kind, 'devcontainer');
    const cwd = path.join(ws, 'pkg', 'sub dir');
    const r = await run(ex, { target: { shell: 'pwd; echo "$0"; exit 4' }, cwd, env: baseEnv() });
    assert.deepEqual(r.outcome, { exitCode: 4 }, r.stderr());
    assert.equal(r.stdout(), `${cwd}\n/bin/sh\n`);
    assert.deepEqual(argvSeen(), ['exec', '--workspace-folder', ws, '--', '/bin/sh', '-c', "cd 'pkg/sub dir' || exit 1\npwd; echo \"$0\"; exit 4"]);
  });

  it('does not pass the host environment (or the request\'s) to the CLI, only what it needs', async () => {
    process.env.PINCER_DC_HOST_SECRET = 'host';
    try {
      const ex = createDevcontainerExecutor({ workspaceFolder: ws, cliPath: cli });
      const env = { ...baseEnv(), HOME: '/home/someone', API_TOKEN: 'sk-request' };
      const r = await run(ex, { target: { shell: 'echo "[${API_TOKEN:-absent}] [${PINCER_DC_HOST_SECRET:-absent}]"' }, cwd: ws, env });
      assert.equal(r.stdout(), '[absent] [absent]\n');
      const seen = fs.readFileSync(path.join(bin, 'env'), 'utf8');
      assert.ok(!seen.includes('sk-request') && !seen.includes('PINCER_DC_HOST_SECRET'));
      const names = seen.split('\n').filter(Boolean).map((l) => l.split('=')[0]);
      const extra = names.filter((n) => !['PATH', 'HOME', 'DOCKER_HOST', 'DOCKER_CONTEXT', 'PWD', 'SHLVL', '_', 'OLDPWD'].includes(n));
      assert.deepEqual(extra, []);
      assert.ok(seen.includes('HOME=/home/someone\n'));
    } finally {
      delete process.env.PINCER_DC_HOST_SECRET;
    }
  });

  it('quotes argv targets for the container shell: nothing is expanded', async () => {
    const ex = createDevcontainerExecutor({ workspaceFolder: ws, cliPath: cli });
    const r = await run(ex, { target: { argv: ['printf', '%s|', "it's", '$HOME', '; id', '*'] }, cwd: ws, env: baseEnv() });
    assert.deepEqual(r.outcome, { exitCode: 0 });
    assert.equal(r.stdout(), "it's|$HOME|; id|*|");
    assert.equal(containerScript({ target: { argv: ['a b', "c'd"] }, cwd: ws }, ws), "cd . || exit 1\nexec 'a b' 'c'\\''d'");
  });

  it('a failed cd stops the script (the command never runs elsewhere)', async () => {
    // The folder exists on the host but not (here: not at all) in the container.
    const ex = createDevcontainerExecutor({ workspaceFolder: ws, cliPath: cli });
    const r = await run(ex, { target: { shell: 'false || echo ran' }, cwd: path.join(ws, 'no-such'), env: baseEnv() });
    assert.equal(r.outcome.exitCode, 1);
    assert.ok(!r.stdout().includes('ran'));
    assert.match(r.stderr(), /no-such/);
  });

  it('fails closed when the CLI is missing', async () => {
    const ex = createDevcontainerExecutor({ workspaceFolder: ws, cliPath: path.join(bin, 'nope') });
    const r = await run(ex, { target: { shell: 'echo hi' }, cwd: ws, env: baseEnv() });
    assert.equal(r.outcome.exitCode, null);
    assert.match(r.outcome.startError ?? '', /Dev Containers CLI was not found.*@devcontainers\/cli.*pincer\.exec\.host/);
    const onPath = createDevcontainerExecutor({ workspaceFolder: ws });
    const r2 = await run(onPath, { target: { shell: 'echo hi' }, cwd: ws, env: { PATH: path.join(ws, 'pkg') } });
    assert.match(r2.outcome.startError ?? '', /not found on PATH/);
  });

  it('fails closed without a dev container configuration, and for a cwd outside the workspace', async () => {
    const bare = tempDir('dc-bare');
    const r = await run(createDevcontainerExecutor({ workspaceFolder: bare, cliPath: cli }), { target: { shell: 'echo hi' }, cwd: bare, env: baseEnv() });
    assert.match(r.outcome.startError ?? '', /no dev container configuration/);
    fs.writeFileSync(path.join(bare, '.devcontainer.json'), '{}');
    const ok = await run(createDevcontainerExecutor({ workspaceFolder: bare, cliPath: cli }), { target: { shell: 'echo hi' }, cwd: bare, env: baseEnv() });
    assert.deepEqual(ok.outcome, { exitCode: 0 });
    const out = await run(createDevcontainerExecutor({ workspaceFolder: ws, cliPath: cli }), { target: { shell: 'echo hi' }, cwd: bare, env: baseEnv() });
    assert.match(out.outcome.startError ?? '', /outside the dev container's workspace folder/);
  });

  it('shellQuote leaves plain words and single-quotes the rest', () => {
    assert.equal(shellQuote('src/a.ts'), 'src/a.ts');
    assert.equal(shellQuote(''), "''");
    assert.equal(shellQuote("a'b c"), "'a'\\''b c'");
  });
});
