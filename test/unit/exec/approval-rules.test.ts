// What "Always allow" would store (alwaysRulesFor), the escaping that makes those rules exact
// (globMatch / globEscape), and the checks on rules a person edits (validateRule). Real binaries are
// resolved through the real PATH; the judge runs in a real temp workspace.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { alwaysRulesFor, validateRule } from '../../../src/core/exec/approval-rules';
import { globEscape, globMatch, isBlanketArgs } from '../../../src/core/exec/command-allowlist';
import { allGroups, DEFAULT_COMMAND_POLICY, type CommandPolicy } from '../../../src/core/exec/command-policy';
import { removeTempDirs } from '../../support/fs-fixtures';
import { judgeIn } from './judge-support';

const real = (p: string) => fs.realpathSync(p);
const policy = (over: Partial<CommandPolicy>): CommandPolicy => ({ ...DEFAULT_COMMAND_POLICY, denyGroups: allGroups(true), ...over });

describe('approval rules', () => {
  after(removeTempDirs);
  const { ws, judge } = judgeIn({ 'src/a.ts': 'x', 'package.json': '{}' });
  const rules = async (command: string, p: CommandPolicy = DEFAULT_COMMAND_POLICY) => alwaysRulesFor(await judge(command, p), ws.root);
  const unavailable = async (command: string, p?: CommandPolicy): Promise<string> => {
    const r = await rules(command, p);
    assert.ok('unavailable' in r, `${command}: expected no rule, got ${JSON.stringify(r)}`);
    return r.unavailable;
  };

  describe('globMatch escaping', () => {
    it('\\* \\? \\\\ are literal; existing patterns keep their meaning', () => {
      assert.ok(globMatch('a\\*b', 'a*b'));
      assert.ok(!globMatch('a\\*b', 'axxb'), 'an escaped star is not a wildcard');
      assert.ok(globMatch('a\\?', 'a?'));
      assert.ok(!globMatch('a\\?', 'ab'));
      assert.ok(globMatch('a\\\\b', 'a\\b'));
      assert.ok(!globMatch('a\\\\b', 'a\\\\b'));
      // Unchanged: wildcards, regex characters literal, a backslash before anything else is itself.
      assert.ok(globMatch('status*', 'status --short'));
      assert.ok(globMatch('run ?', 'run x'));
      assert.ok(globMatch('a.b(c)+[d]', 'a.b(c)+[d]'));
      assert.ok(!globMatch('a.b', 'axb'));
      assert.ok(globMatch('C:\\dir', 'C:\\dir'));
      assert.ok(globMatch('x\\', 'x\\'), 'a trailing backslash is literal');
    });

    it('globEscape round-trips any text exactly', () => {
      for (const t of ['plain', '*', '?', '\\', 'a*b?c\\d', '\\*', '-rf ./build/*', 'x\\\\*?', '$(id) `x` [a-z]']) {
        assert.ok(globMatch(globEscape(t), t), t);
        assert.ok(!globMatch(globEscape(t), `${t}x`), `${t} + more`);
      }
      assert.ok(!globMatch(globEscape('*'), 'anything'));
      assert.equal(globEscape('a*b'), 'a\\*b');
    });

    it("blanket means omitted or only stars; '' is the exact pattern of no arguments", () => {
      assert.ok(isBlanketArgs(undefined));
      assert.ok(isBlanketArgs('*'));
      assert.ok(isBlanketArgs(' ** '));
      assert.ok(!isBlanketArgs(''));
      assert.ok(!isBlanketArgs('\\*'));
      assert.ok(!isBlanketArgs('* x'));
    });
  });

  describe('alwaysRulesFor', () => {
    it('one rule per asking segment: canonical executable, exact escaped arguments', async () => {
      assert.deepEqual(await rules('git push --force'), { entries: [{ executable: real('/usr/bin/git'), args: 'push --force' }] });
      assert.deepEqual(await rules('rm -rf "build/*"'), { entries: [{ executable: real('/bin/rm'), args: '-rf build/\\*' }] });
      // Only the asking segment; the allowed `ls` gets no rule.
      assert.deepEqual(await rules('ls && rm -rf x'), { entries: [{ executable: real('/bin/rm'), args: '-rf x' }] });
      // An absolute spelling resolves to the same canonical file.
      assert.deepEqual(await rules('/bin/rm -rf x'), { entries: [{ executable: real('/bin/rm'), args: '-rf x' }] });
    });

    it('a wrapper and the command it runs each get their rule', async () => {
      const r = await rules('timeout 5 rm -rf x');
      assert.ok('entries' in r);
      assert.deepEqual(r.entries, [
        { executable: real('/usr/bin/timeout'), args: '5 rm -rf x' },
        { executable: real('/bin/rm'), args: '-rf x' },
      ]);
      // env sh -c: only the inner rm asks; the approval is for it, never for env or sh.
      assert.deepEqual(await rules("env sh -c 'rm -rf x'"), { entries: [{ executable: real('/bin/rm'), args: '-rf x' }] });
    });

    it('in allowlist mode a command without arguments gets the exact "no arguments" rule', async () => {
      const r = await rules('ls', policy({ security: 'allowlist' }));
      assert.deepEqual(r, { entries: [{ executable: real('/bin/ls'), args: '' }] });
    });

    it('never offered: parse problems, dynamic words, builtins, missing programs, look-alikes', async () => {
      assert.match(await unavailable('eval "$X"'), /cannot be read exactly/);
      assert.match(await unavailable('$CMD -rf x'), /cannot be read exactly/);
      assert.match(await unavailable('cat script.sh | sh'), /cannot be read exactly/);
      assert.match(await unavailable('rm -rf "$DIR/x"'), /run time/);
      assert.match(await unavailable('cd /tmp', policy({ security: 'allowlist' })), /builtin or was not found/);
      assert.match(await unavailable('no-such-program-pincer x', policy({ security: 'allowlist' })), /builtin or was not found on PATH/);
      assert.match(await unavailable('./missing-tool x', policy({ security: 'allowlist' })), /builtin or was not found/);
      assert.match(await unavailable('l\u0455 -la'), /imitate or hide/, 'a Cyrillic letter in the name');
    });

    it('never offered when an argument has spaces (a b vs a b) or is empty', async () => {
      assert.match(await unavailable('grep -r "foo /" src', policy({ security: 'allowlist' })), /spaces/);
      assert.match(await unavailable("ls ''", policy({ security: 'allowlist' })), /empty argument/);
    });

    it('writes outside the workspace: offered only when the arguments name every place written', async () => {
      assert.deepEqual(await rules('cp src/a.ts /tmp/pincer-appr-b'), { entries: [{ executable: real('/bin/cp'), args: 'src/a.ts /tmp/pincer-appr-b' }] });
      assert.deepEqual(await rules('sort -o /tmp/pincer-appr-s y'), { entries: [{ executable: real('/usr/bin/sort'), args: '-o /tmp/pincer-appr-s y' }] });
      assert.match(await unavailable('echo x > /tmp/pincer-appr-out'), /through a redirection/);
      assert.match(await unavailable('cp src/a.ts ../b'), /relative path/);
      assert.match(await unavailable('cd /tmp && touch x'), /relative path/);
    });

    it('never offered for asks an approval cannot settle: scripts from input or files, redirected writes', async () => {
      assert.match(await unavailable('awk -f prog.awk x'), /code the policy cannot read/);
      // A segment with a settleable ask (destructive_ops) and an unpinned one (write) shows the
      // unpinned one, so the prompt does not offer a rule that would never be used.
      const v = await judge('git push --force > /tmp/pincer-appr-out');
      assert.equal(v.decision, 'ask');
      assert.equal(v.group, 'write');
      assert.match(await unavailable('git push --force > /tmp/pincer-appr-out'), /through a redirection/);
    });

    it('never a blanket rule and never an interpreter without arguments', async () => {
      const p = policy({ security: 'allowlist' });
      assert.match(await unavailable('python3', p), /interpreter or package manager without arguments/);
      assert.match(await unavailable('npm', p), /interpreter or package manager without arguments/);
      const r = await rules('node -e 1', p);
      assert.deepEqual(r, { entries: [{ executable: real('/usr/bin/node'), args: '-e 1' }] }, 'exact arguments are fine');
      for (const c of ['npm test', 'git status', 'python3 -m pytest']) {
        const x = await rules(c, p);
        assert.ok('entries' in x, c);
        for (const e of x.entries) assert.ok(e.args !== undefined && !isBlanketArgs(e.args), `${c}: ${JSON.stringify(e)}`);
      }
    });

    it('nothing asks, or the command is denied, or ask is always: nothing to store', async () => {
      assert.match(await unavailable('ls'), /nothing in this command asks/);
      assert.match(await unavailable('rm -rf /'), /denied/);
      assert.match(await unavailable('ls', policy({ ask: 'always' })), /pincer\.exec\.ask is 'always'/);
    });
  });

  describe('validateRule', () => {
    it('the executable must be an absolute path', () => {
      assert.match(validateRule({ executable: 'git', args: 'status' }) ?? '', /absolute path/);
      assert.match(validateRule({ executable: './ls' }) ?? '', /absolute path/);
      assert.match(validateRule({ executable: '' }) ?? '', /absolute path/);
      assert.equal(validateRule({ executable: '/usr/bin/git', args: 'status' }), undefined);
      assert.equal(validateRule({ executable: '/usr/bin/ls' }), undefined, 'any arguments are fine for ls');
      assert.equal(validateRule({ executable: '/usr/bin/ls', args: '' }), undefined);
    });

    it('interpreters, package managers and launchers must pin their arguments, and say why', () => {
      for (const exe of ['/usr/bin/python3', '/usr/bin/python3.12', '/usr/bin/node', '/usr/bin/npm', '/usr/bin/env', '/bin/sh', '/usr/bin/git']) {
        for (const args of [undefined, '', '  ', '*', '**']) {
          const m = validateRule({ executable: exe, ...(args === undefined ? {} : { args }) });
          assert.match(m ?? '', /must pin its arguments: .* runs whatever its arguments say/, `${exe} ${String(args)}`);
        }
        assert.match(validateRule({ executable: exe, args: '* -c x' }) ?? '', /must start with fixed text/, exe);
        assert.equal(validateRule({ executable: exe, args: 'test' }), undefined, exe);
        assert.equal(validateRule({ executable: exe, args: 'run build*' }), undefined, exe);
        assert.equal(validateRule({ executable: exe, args: '\\*x' }), undefined, 'an escaped star is fixed text');
      }
    });

    it('a symlink to an interpreter counts as the interpreter', () => {
      // /bin/sh is a link to dash or bash on most systems; either way it must pin its arguments.
      assert.match(validateRule({ executable: real('/bin/sh') }) ?? '', /must pin/);
    });
  });
});
