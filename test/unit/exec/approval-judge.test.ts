// Stored approvals in the judge: each rule of how an approval settles an ask (in security 'full' as
// in 'allowlist'), the round trip from alwaysRulesFor back to an allow, and GoClaw's approval
// advisories replayed with approvals present — none of them may get through.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { alwaysRulesFor, approvalsUsed } from '../../../src/core/exec/approval-rules';
import { MemoryApprovalStore } from '../../../src/core/exec/approval-store';
import { allGroups, DEFAULT_COMMAND_POLICY, type AllowlistEntry, type CommandPolicy } from '../../../src/core/exec/command-policy';
import { removeTempDirs } from '../../support/fs-fixtures';
import { judgeIn } from './judge-support';

const real = (p: string) => fs.realpathSync(p);
const RM = real('/bin/rm');
const LS = real('/bin/ls');
const full = (allowlist: AllowlistEntry[], over: Partial<CommandPolicy> = {}): CommandPolicy =>
  ({ ...DEFAULT_COMMAND_POLICY, denyGroups: allGroups(true), allowlist, ...over });
const allowlisted = (allowlist: AllowlistEntry[]) => full(allowlist, { security: 'allowlist' });

describe('approvals in the judge', () => {
  after(removeTempDirs);
  const { ws, judge } = judgeIn({ 'src/a.ts': 'x', 'package.json': '{}', build: null });

  it('security full: an ask that an entry covers becomes allow, marked as approved', async () => {
    assert.equal((await judge('rm -rf x')).decision, 'ask');
    const v = await judge('rm -rf x', full([{ executable: RM, args: '-rf x' }]));
    assert.equal(v.decision, 'allow');
    assert.equal(v.segments[0].group, 'approval');
    assert.match(v.segments[0].reason, /approved by the rule .*rm -rf x, which settles: destructive_ops/);
    assert.equal((await judge('git push --force', full([{ executable: real('/usr/bin/git'), args: 'push --force' }]))).decision, 'allow');
  });

  it('a deny is never lifted, not even by a blanket rule', async () => {
    for (const [c, e] of [['rm -rf /', { executable: RM }], ['rm -rf /', { executable: RM, args: '-rf /' }], ['sort -o /etc/x y', { executable: real('/usr/bin/sort') }], ['cat /etc/shadow', { executable: real('/bin/cat'), args: '/etc/shadow' }]] as const) {
      assert.equal((await judge(c, full([e]))).decision, 'deny', c);
      assert.equal((await judge(c, allowlisted([e]))).decision, 'deny', c);
    }
  });

  it('parse problems at command level still ask', async () => {
    const p = full([{ executable: LS }, { executable: RM, args: '-rf x' }]);
    for (const c of ['eval "ls"', '$CMD -rf x', 'cat x | sh']) {
      const v = await judge(c, p);
      assert.equal(v.decision, 'ask', c);
      assert.ok(v.problems.length, c);
    }
  });

  it("ask 'always' still asks every time", async () => {
    const p = full([{ executable: RM, args: '-rf x' }, { executable: LS }], { ask: 'always' });
    assert.equal((await judge('rm -rf x', p)).decision, 'ask');
    assert.equal((await judge('ls', p)).decision, 'ask');
  });

  it('a write outside is settled only by an exact rule whose arguments name every place written', async () => {
    const cp = real('/bin/cp');
    const exact = full([{ executable: cp, args: 'src/a.ts /tmp/pincer-appr-b' }]);
    assert.equal((await judge('cp src/a.ts /tmp/pincer-appr-b', exact)).decision, 'allow');
    assert.equal((await judge('cp src/a.ts /tmp/pincer-appr-c', exact)).decision, 'ask');
    for (const args of [undefined, '*', 'src/a.ts /tmp/*', 'src/a.ts /tmp/pincer-appr-?'])
      assert.equal((await judge('cp src/a.ts /tmp/pincer-appr-b', full([{ executable: cp, ...(args === undefined ? {} : { args }) }]))).decision, 'ask', `a wildcard rule (${String(args)}) does not settle a write`);
    assert.equal((await judge('cp src/a.ts ../pincer-appr-b', full([{ executable: cp, args: 'src/a.ts ../pincer-appr-b' }]))).decision, 'ask', 'relative: depends on the folder');
    assert.equal((await judge('echo x > /tmp/pincer-appr-a', full([{ executable: real('/bin/echo'), args: 'x' }]))).decision, 'ask', 'a redirection is not in the arguments');
    assert.equal((await judge('cd /tmp && touch x', full([{ executable: real('/usr/bin/touch'), args: 'x' }]))).decision, 'ask');
  });

  it('asks an approval cannot pin are never settled: scripts, look-alikes', async () => {
    assert.equal((await judge('awk -f prog.awk x', full([{ executable: real('/usr/bin/awk'), args: '-f prog.awk x' }]))).decision, 'ask');
    // A program whose name imitates ls (a Cyrillic letter), even with an exact rule for its file.
    fs.writeFileSync(ws.path('l\u0455'), '#!/bin/sh\n', { mode: 0o755 });
    assert.equal((await judge('./l\u0455 -la', full([{ executable: ws.path('l\u0455'), args: '-la' }]))).decision, 'ask');
  });

  it('a wrapper is approved only together with the command it runs', async () => {
    const timeout = real('/usr/bin/timeout');
    assert.equal((await judge('timeout 5 rm -rf x', full([{ executable: timeout, args: '5 rm -rf x' }]))).decision, 'ask');
    assert.equal((await judge('timeout 5 rm -rf x', full([{ executable: RM, args: '-rf x' }]))).decision, 'ask');
    assert.equal((await judge('timeout 5 rm -rf x', full([{ executable: timeout, args: '5 rm -rf x' }, { executable: RM, args: '-rf x' }]))).decision, 'allow');
  });

  it('round trip: the rules "Always allow" stores make the same command allowed, and only it', async () => {
    const store = new MemoryApprovalStore();
    for (const [c, p] of [['git push --force', full([])], ['timeout 5 rm -rf x', full([])], ['ls -la src', allowlisted([])], ['ls', allowlisted([])], ['rm -rf "build/*"', full([])]] as const) {
      const v = await judge(c, p);
      assert.equal(v.decision, 'ask', c);
      const r = alwaysRulesFor(v, ws.root);
      assert.ok('entries' in r, `${c}: ${JSON.stringify(r)}`);
      for (const e of r.entries) await store.add(e, c);
      const stored = await store.list();
      const again = await judge(c, { ...p, allowlist: stored });
      assert.equal(again.decision, 'allow', c);
      assert.ok(approvalsUsed(again, stored, ws.root).length >= 1, `${c}: the used approval is found for touch()`);
    }
    const stored = await store.list();
    // The exact "no arguments" rule for ls does not cover ls with arguments; the escaped star is not a wildcard.
    assert.equal((await judge('ls /etc', allowlisted(stored))).decision, 'ask');
    assert.equal((await judge('rm -rf build/x', full(stored))).decision, 'ask');
    assert.equal((await judge('git push --force origin', full(stored))).decision, 'ask');
  });

  describe("GoClaw's approval advisories, replayed with approvals present: 0 succeed", () => {
    const got: string[] = [];
    const expectNotAllowed = async (label: string, command: string, policy: CommandPolicy) => {
      const v = await judge(command, policy);
      if (v.decision === 'allow') got.push(`${label}: ${command}`);
      assert.notEqual(v.decision, 'allow', `${label}: ${command} — ${v.reason}`);
    };
    after(() => assert.deepEqual(got, [], 'advisory replays that got through'));

    it('allowed && payload: an approval of ls does not carry the next segment', async () => {
      for (const p of [full([{ executable: LS }]), full([{ executable: 'ls' }]), allowlisted([{ executable: LS }, { executable: LS, args: '' }])]) {
        for (const c of ['ls && rm -rf x', 'ls; rm -rf x', 'ls || rm -rf x', 'ls | rm -rf x', 'ls & rm -rf x', 'ls $(rm -rf x)', 'ls `rm -rf x`', 'ls <(rm -rf x)', 'ls\nrm -rf x'])
          await expectNotAllowed('allowed && payload', c, p);
      }
    });

    it('env sh -c: an approval of env (or sh) does not cover the inner command', async () => {
      const env = real('/usr/bin/env');
      const sh = real('/bin/sh');
      const p = full([{ executable: env, args: 'sh -c rm -rf x' }, { executable: sh, args: '-c rm -rf x' }, { executable: env, args: 'sh*' }]);
      for (const c of ["env sh -c 'rm -rf x'", 'env sh -c "rm -rf x"', "env -i sh -c 'rm -rf x'", "sh -c 'rm -rf x'", "env bash -c 'rm -rf x'"])
        await expectNotAllowed('env sh -c', c, p);
      await expectNotAllowed('env sh -c', "env sh -c 'rm -rf x'", allowlisted([{ executable: env, args: 'sh -c rm -rf x' }]));
    });

    it('sort -o: a write outside the workspace is still denied or asked', async () => {
      const sort = real('/usr/bin/sort');
      for (const e of [{ executable: sort }, { executable: sort, args: '*' }, { executable: sort, args: '-o /etc/x y' }, { executable: sort, args: '-o /tmp/pincer-appr-s y' }, { executable: sort, args: '-o /tmp/* y' }]) {
        await expectNotAllowed('sort -o', 'sort -o /etc/x y', full([e]));
        await expectNotAllowed('sort -o', 'sort -o /tmp/pincer-appr-other y', full([e]));
        await expectNotAllowed('sort -o', 'sort --output=/tmp/pincer-appr-s y', full([e]));
        await expectNotAllowed('sort -o', 'sort -o pincer-appr-rel y && cd /tmp && sort -o x y', full([e]));
      }
      // Only the exact command a person approved runs.
      assert.equal((await judge('sort -o /tmp/pincer-appr-s y', full([{ executable: sort, args: '-o /tmp/pincer-appr-s y' }]))).decision, 'allow');
    });

    it('grep -R: an approval of `grep foo src` does not cover `grep -R foo /`', async () => {
      const grep = real('/usr/bin/grep');
      for (const p of [full([{ executable: grep, args: 'foo src' }]), allowlisted([{ executable: grep, args: 'foo src' }])])
        for (const c of ['grep -R foo /', 'grep -r foo ~', 'grep -R foo / src', 'grep foo src /etc/shadow'])
          await expectNotAllowed('grep -R', c, p);
    });

    it('allow-always reused for another path: exact arguments pin the path', async () => {
      const cat = real('/bin/cat');
      const p = allowlisted([{ executable: cat, args: './a' }]);
      for (const c of ['cat /etc/shadow', 'cat /etc/hosts', 'cat ./a /etc/hosts', 'cat ./ab', 'cat ./'])
        await expectNotAllowed('another path', c, p);
      const rmBuild = full([{ executable: RM, args: '-rf ./build' }]);
      for (const c of ['rm -rf ./src', 'rm -rf ./build ./src', 'rm -rf ./build/../src', 'rm -rf .'])
        await expectNotAllowed('another path', c, rmBuild);
      assert.equal((await judge('cat ./a', p)).decision, 'allow', 'the approved command itself runs');
    });

    it('basename reuse: an approval of /usr/bin/ls (or rm) is not one of ./ls (./rm)', async () => {
      fs.writeFileSync(ws.path('ls'), '#!/bin/sh\necho fake\n', { mode: 0o755 });
      fs.writeFileSync(ws.path('rm'), '#!/bin/sh\necho fake\n', { mode: 0o755 });
      const byPath = [{ executable: LS, args: '-la' }, { executable: RM, args: '-rf x' }, { executable: LS }];
      for (const p of [allowlisted(byPath), allowlisted([{ executable: 'ls' }])])
        for (const c of ['./ls -la', `${ws.root}/ls -la`, 'src/../ls -la'])
          await expectNotAllowed('basename reuse', c, p);
      await expectNotAllowed('basename reuse', './rm -rf x', full(byPath));
      // And the other way: approving the workspace's ./ls does not approve the system ls.
      const fake = allowlisted([{ executable: ws.path('ls'), args: '-la' }]);
      await expectNotAllowed('basename reuse', 'ls -la', fake);
      assert.equal((await judge('./ls -la', fake)).decision, 'allow');
      // A relative program after a cd to a place known only at run time matches nothing.
      await expectNotAllowed('basename reuse', 'cd "$D" && ./ls -la', fake);
    });
  });
});
