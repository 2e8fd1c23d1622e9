// Approvals through the exec tool: what the person is shown, what each answer does, what "always"
// stores and what it does not cover, and the modes (ask off, security deny/allowlist, a request that
// may only tighten). GoClaw's approval advisories are replayed with a stored approval present.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFixture, type ExecFixture } from '../../support/exec-fixture';
import { removeTempDirs } from '../../support/fs-fixtures';

after(removeTempDirs);

const outside = (name: string) => path.join(os.tmpdir(), `pincer-approval-${process.pid}-${name}`);

describe('exec approvals', () => {
  let f: ExecFixture;
  beforeEach(() => { f = execFixture(); });
  afterEach(async () => {
    await f.dispose();
    for (const n of ['a', 'b', 'c']) fs.rmSync(outside(n), { force: true });
  });

  it('asks with the command as it will run, the folder, the reason and each part', async () => {
    f.approver.answers = ['deny'];
    const r = await f.run('exec', { command: `echo hi && touch ${outside('a')}` });
    assert.equal(r.isError, true);
    assert.match(r.forLLM, /denied/);
    assert.equal(fs.existsSync(outside('a')), false, 'denied: nothing ran, not even the harmless part');
    const req = f.approver.requests[0];
    assert.equal(req.command, `echo hi && touch ${outside('a')}`);
    assert.equal(req.cwd, f.root);
    assert.equal(req.host, 'process');
    assert.match(req.reason, /outside the workspace/);
    assert.deepEqual(req.segments.map((s) => s.decision), ['allow', 'ask']);
    assert.equal(req.always?.length, 1);
    assert.match(req.always![0].executable, /\/touch$/);
  });

  it('once runs it this time only', async () => {
    f.approver.answers = ['once', 'deny'];
    assert.equal((await f.run('exec', { command: `touch ${outside('a')}` })).isError, false);
    assert.ok(fs.existsSync(outside('a')));
    assert.equal((await f.run('exec', { command: `touch ${outside('a')}` })).isError, true, 'asked again and denied');
    assert.equal(f.approver.requests.length, 2);
    assert.equal((await f.store.list()).length, 0);
  });

  it('always stores exact rules that cover the same command and nothing else', async () => {
    f.approver.answers = ['always'];
    const first = await f.run('exec', { command: `touch ${outside('a')}` });
    assert.equal(first.isError, false, first.forLLM);
    assert.match(first.forLLM, /always/);
    const stored = await f.store.list();
    assert.equal(stored.length, 1);
    assert.equal(stored[0].args, outside('a'));
    assert.equal((await f.run('exec', { command: `touch ${outside('a')}` })).isError, false);
    assert.equal(f.approver.requests.length, 1, 'the same command did not ask again');
    // Another path, or the approved command chained with a payload: asked (and denied by the script).
    for (const cmd of [`touch ${outside('b')}`, `touch ${outside('a')} && touch ${outside('c')}`, `touch ${outside('a')} ${outside('b')}`]) {
      const r = await f.run('exec', { command: cmd });
      assert.equal(r.isError, true, cmd);
    }
    assert.equal(fs.existsSync(outside('b')), false);
    assert.equal(fs.existsSync(outside('c')), false);
    assert.equal(f.approver.requests.length, 4);
  });

  it('no answer in time is a deny', async () => {
    const g = execFixture({ 'exec.approvalTimeoutSeconds': 5 });
    try {
      const never = { request: () => new Promise<never>(() => undefined) };
      (g.approver as unknown as { request: unknown }).request = never.request;
      const r = await g.run('exec', { command: `touch ${outside('a')}` });
      assert.equal(r.isError, true);
      assert.match(r.forLLM, /no answer within 5 seconds: denied/, 'the configured timeout ran out');
      assert.equal(fs.existsSync(outside('a')), false);
    } finally {
      await g.dispose();
    }
  });

  it("ask 'off' denies what would ask, without asking", async () => {
    const g = execFixture({ 'exec.ask': 'off' });
    try {
      const r = await g.run('exec', { command: `touch ${outside('a')}` });
      assert.equal(r.isError, true);
      assert.equal(g.approver.requests.length, 0);
    } finally {
      await g.dispose();
    }
  });

  it("security 'deny' runs nothing; a call can tighten the policy but never loosen it", async () => {
    const g = execFixture({ 'exec.security': 'deny' });
    try {
      const r = await g.run('exec', { command: 'echo hi', security: 'full' });
      assert.equal(r.isError, true);
      assert.match(r.forLLM, /pincer\.exec\.security/);
    } finally {
      await g.dispose();
    }
    const tightened = await f.run('exec', { command: 'echo hi', security: 'deny' });
    assert.equal(tightened.isError, true);
    f.approver.answers = ['deny'];
    const always = await f.run('exec', { command: 'echo hi', ask: 'always' });
    assert.equal(always.isError, true, 'ask always: even echo asks');
    assert.equal(f.approver.requests.length, 1);
  });

  it('allowlist mode runs listed programs and asks for the rest', async () => {
    const g = execFixture({ 'exec.security': 'allowlist', 'exec.allowlist': [{ executable: 'echo' }, { executable: '/usr/bin/seq', args: '1 3' }] });
    try {
      g.approver.answers = ['deny', 'deny'];
      assert.equal((await g.run('exec', { command: 'seq 1 3' })).isError, false);
      assert.equal((await g.run('exec', { command: 'seq 1 4' })).isError, true, 'other arguments ask');
      assert.equal((await g.run('exec', { command: 'date' })).isError, true, 'unlisted asks');
      assert.equal(g.approver.requests.length, 2);
    } finally {
      await g.dispose();
    }
  });
});
