// The exec tool with the sandbox on (real bubblewrap): a command the sandbox refused says so in plain
// words, the person is asked with exactly that reason, and only their "once" runs it again outside
// the sandbox. A failure of the command's own asks nobody.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveExecutable } from '../../../../src/core/exec/command-allowlist';
import { MemoryApprovalStore } from '../../../../src/core/exec/approval-store';
import { createExecTools } from '../../../../src/core/exec/exec-tools';
import type { ExecHostKind } from '../../../../src/core/exec/exec-types';
import { JobManager } from '../../../../src/core/exec/run/job-manager';
import { createProcessExecutor } from '../../../../src/core/exec/run/process-executor';
import { sandboxedExecutor } from '../../../../src/core/exec/run/sandbox-select';
import { PathGuard } from '../../../../src/core/fs/path-guard';
import type { PincerRuntime } from '../../../../src/core/runtime';
import { ScriptedApprover } from '../../../support/exec-fixture';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';
import { runtimeWith } from '../../../support/test-tools';

describe('exec in the sandbox: a refusal explained, and a re-run outside only when allowed', function () {
  this.timeout(60_000);
  let root: string;
  let outside: string;
  let rt: PincerRuntime;
  let jobs: JobManager;
  let approver: ScriptedApprover;

  before(function () {
    if (process.platform !== 'linux') this.skip(); // bubblewrap is Linux-only
    assert.ok(resolveExecutable('bwrap', '/', process.env.PATH), 'bubblewrap is not installed: run test/host/install-host.sh');
    root = tempDir('sbx-rerun');
    // Outside /tmp: under the sandbox's private /tmp a write would land in its own tmpfs.
    outside = fs.mkdtempSync('/var/tmp/pincer-rerun-');
    rt = runtimeWith({ 'exec.host': 'process', 'exec.sandbox.mode': 'on', 'rateLimit.enabled': false, 'loopDetection.enabled': false });
    const guard = new PathGuard({ roots: [root], workspaceOnly: true, allowPaths: [], denyPaths: [], alwaysDeny: [], home: os.homedir() });
    jobs = new JobManager();
    approver = new ScriptedApprover();
    const processExec = createProcessExecutor();
    rt.replaceTools(createExecTools({
      config: () => rt.currentConfig.exec, guard: () => guard, jobs, store: new MemoryApprovalStore(), approver: () => approver, baseEnv: () => process.env,
      executor: (kind: ExecHostKind, opts?: { sandbox?: boolean }) => sandboxedExecutor(kind, () => processExec, { config: rt.currentConfig.exec.sandbox, roots: [root] }, opts),
      credentials: { binaries: () => [], secrets: { get: async () => undefined }, scrubber: rt.scrubber },
      workspaceRoot: () => root,
    }));
  });
  after(async () => {
    await jobs?.dispose();
    removeTempDirs();
    if (outside) fs.rmSync(outside, { recursive: true, force: true });
  });
  const exec = (command: string) => rt.registry.execute('exec', { command }, rt.context({ channel: 'test', sessionKey: 'test:sbx', workspaceRoot: root }));

  it('denied: the result says the sandbox refused the write, and it did not run outside', async () => {
    // The judge asks about a copy out of the workspace (the first answer); the sandbox still refuses it.
    const target = path.join(outside, 'denied.txt');
    fs.writeFileSync(path.join(root, 'src.txt'), 'x');
    approver.answers = ['once', 'deny'];
    const before = approver.requests.length;
    const r = await exec(`cp src.txt '${target}'`);
    assert.equal(r.isError, true, r.forLLM);
    assert.match(r.forLLM, new RegExp(`failed because of the sandbox: a write to ${target} was refused`));
    assert.match(r.forLLM, /not run outside the sandbox/);
    const asked = approver.requests.slice(before + 1);
    assert.equal(asked.length, 1, 'asked once more, about running outside');
    assert.match(asked[0].reason, new RegExp(`failed inside the sandbox because a write to ${target} was refused`));
    assert.equal(asked[0].always, undefined);
    assert.ok(asked[0].alwaysUnavailable);
    assert.equal(fs.existsSync(target), false);
  });

  it('allowed once: it runs again outside the sandbox, and says so', async () => {
    const target = path.join(outside, 'allowed.txt');
    approver.answers = ['once', 'once'];
    const r = await exec(`cp src.txt '${target}'`);
    assert.equal(r.isError, false, r.forLLM);
    assert.match(r.forLLM, /The user allowed one run outside the sandbox/);
    assert.equal(fs.readFileSync(target, 'utf8'), 'x');
  });

  it('a failure of the command itself asks nobody and blames nothing on the sandbox', async () => {
    const before = approver.requests.length;
    const r = await exec('echo inside > made.txt && exit 3');
    assert.equal(r.isError, true, r.forLLM);
    assert.doesNotMatch(r.forLLM, /sandbox/);
    assert.equal(approver.requests.length, before);
    assert.equal(fs.readFileSync(path.join(root, 'made.txt'), 'utf8'), 'inside\n', 'the workspace is writable inside');
  });
});
