// Options read the way the programs read them: short option clusters as getopt and git's parse-options
// read them (`-ix CMD`: flags first, the letter that takes a value takes the rest of the word or the
// next one), long options by any beginning, and the last of an option and its `--no-` form.
import assert from 'node:assert/strict';
import { lastOn, shortOptionIn } from '../../../src/core/exec/command-options';
import { GIT_CLEAN, GIT_RUNS } from '../../../src/core/exec/command-option-tables';
import { removeTempDirs } from '../../support/fs-fixtures';
import { judgeIn } from './judge-support';

describe('exec judge: option clusters, beginnings and the last of an option', () => {
  after(removeTempDirs);
  const { judge } = judgeIn();
  const decisions = async (lines: string[]) => Promise.all(lines.map(async (c) => [c, (await judge(c)).decision] as const));
  const expectAll = async (lines: string[], want: string) => {
    for (const [c, d] of await decisions(lines)) assert.equal(d, want, c);
  };

  it('reads a short option in a cluster as getopt does', () => {
    assert.equal(shortOptionIn('-ix', 'x', GIT_RUNS), '');
    assert.equal(shortOptionIn('-rxmake', 'x', GIT_RUNS), 'make');
    assert.equal(shortOptionIn('-x', 'x', GIT_RUNS), '');
    // In `-Xtheirs` the letters after -X are its value; `--exec` is no cluster.
    assert.equal(shortOptionIn('-Xtheirsx', 'x', GIT_RUNS), undefined);
    assert.equal(shortOptionIn('--exec', 'x', GIT_RUNS), undefined);
    assert.equal(shortOptionIn('x', 'x', GIT_RUNS), undefined);
  });

  it('takes the last of an option and its --no- form', () => {
    assert.equal(lastOn(['-fn'], GIT_CLEAN, 'n', 'dry-run'), true);
    assert.equal(lastOn(['-fn', '--no-dry-run'], GIT_CLEAN, 'n', 'dry-run'), false);
    assert.equal(lastOn(['-f', '--no-dry-run', '--dry-run'], GIT_CLEAN, 'n', 'dry-run'), true);
    assert.equal(lastOn(['-f', '--no-d', '-n'], GIT_CLEAN, 'n', 'dry-run'), true);
    // `-e -n`: the -n is -e's pattern.
    assert.equal(lastOn(['-f', '-e', '-n'], GIT_CLEAN, 'n', 'dry-run'), false);
    assert.equal(lastOn(['-f', '--exclude', '--dry-run'], GIT_CLEAN, 'n', 'dry-run'), false);
  });

  it('judges the pager git grep is told to open the files in as a command', async () => {
    await expectAll(["git grep --open='rm -rf ~' foo", "git grep -O'rm -rf ~' foo", "git grep -iO'rm -rf ~' foo", "git grep --open-files-in-pager='rm -rf ~' foo",
      "git -C sub grep -O'rm -rf ~' foo", "git grep --o='rm -rf ~' foo"], 'deny');
    await expectAll(['git grep -O foo', 'git grep -n -e open src', 'git grep --open-files-in-pager foo', 'git grep -Ovim TODO', 'git grep -e -O src'], 'allow');
  });

  it('finds the command letter of git rebase, difftool and mergetool inside a cluster', async () => {
    await expectAll(["git rebase -ix 'rm -rf ~' HEAD~1", "git rebase -rx 'rm -rf ~' HEAD~1", "git difftool -yx 'rm -rf ~'", "git difftool -gx 'rm -rf ~'",
      "git rebase -ixrm\\ -rf\\ ~ HEAD~1", "git rebase -x 'rm -rf ~' HEAD~1", "git rebase --ex='rm -rf ~' HEAD~1"], 'deny');
    await expectAll(["git rebase -ix 'npm test' HEAD~3", 'git rebase -i HEAD~3', 'git rebase -Xtheirs main', 'git difftool -y', 'git rebase -r main'], 'allow');
  });

  it('finds the command option of su, script, flock and env inside a cluster or by a beginning', async () => {
    await expectAll(["script -qc 'rm -rf ~' /dev/null", "flock -xc 'rm -rf ~' /tmp/lock", "env -iS'rm -rf ~'", "script --comm='rm -rf ~' /dev/null"], 'deny');
    await expectAll(["script -qc 'npm test' /dev/null"], 'allow');
  });

  it('does not take a letter inside the value of a wrapper option for a flag of its own', async () => {
    // In `-uvictor` the v is -u's value, not sudo's -v (validate, which runs no command).
    await expectAll(['sudo -uvictor rm -rf ~', 'sudo -ulee rm -rf /'], 'deny');
    assert.notEqual((await judge('sudo -v')).decision, 'deny');
  });

  it('reads gpg, journalctl and lastlog options by any beginning', async () => {
    await expectAll(['gpg --export-secret-k -a', 'gpg --export-secret-key -a me@example.com', 'gpg --export-secret-sub', 'journalctl --vacuum-t=1s', 'journalctl --vacuum-s=1K',
      'journalctl --vacuum-time 1s', 'lastlog --cl', 'lastlog -Cu alice'], 'deny');
    await expectAll(['gpg --export -a me@example.com', 'gpg --list-keys', 'journalctl -u nginx --since today', 'lastlog -u alice'], 'allow');
    assert.equal((await judge('journalctl --vacuum-t=2weeks')).decision, 'ask');
  });

  it('judges a git template from outside the workspace like init.templateDir', async () => {
    await expectAll(['git clone --template=/tmp/evil https://github.com/a/b.git', 'git init --temp /tmp/evil x', 'git init --template ~/.tpl x', 'git init --template=../../x y'], 'deny');
    await expectAll(['git init --template=.githooks-template x', 'git init x'], 'allow');
  });

  it('counts git clean --dry-run only when no --no-dry-run follows it', async () => {
    await expectAll(['git clean -fn --no-dry-run', 'git clean -fdx --dry-run --no-dry-run', 'git clean -fd -e -n', 'git clean -fdx --dry-run --no-d'], 'ask');
    await expectAll(['git clean -fn', 'git clean -f --no-dry-run --dry-run', 'git clean -fdxn'], 'allow');
  });

  it('reads rsync, cp, install and ln each by its own options', async () => {
    // rsync -t/-o/-g and cp/install/ln -Z are flags: the write still goes where the last operand says.
    for (const [flagged, plain] of [['rsync -avt ./x ~/.bashrc', 'rsync -av ./x ~/.bashrc'], ['rsync --owner ./x ~/.bashrc', 'rsync ./x ~/.bashrc'], ['rsync -og ./x ~/.bashrc', 'rsync ./x ~/.bashrc'],
      ['cp -Z ./x ~/.bashrc', 'cp ./x ~/.bashrc'], ['install -Z ./x ~/.bashrc', 'install ./x ~/.bashrc'], ['ln -sfZ ./x ~/.bashrc', 'ln -sf ./x ~/.bashrc'], ['cp --backup ./x ~/.bashrc', 'cp ./x ~/.bashrc']]) {
      assert.equal((await judge(plain)).decision, 'deny', plain);
      assert.equal((await judge(flagged)).decision, 'deny', flagged);
    }
    await expectAll(['install -m 644 -o root -g root ./x build/x', 'cp --backup=numbered a b', 'cp --reflink=auto a b', 'install -t build ./x', 'rsync -avt src/ out/', 'ln -s -t build ../x'], 'allow');
  });

  it('still reads tar and zip options that run a program by any beginning', async () => {
    await expectAll(["tar --to-command='rm -rf ~' -xf a.tar", "tar --to-c='rm -rf ~' -xf a.tar", 'tar --use-compress-prog=sh -xf a.tar', "zip -TT 'rm -rf ~' a.zip f", "zip --unzip-c='rm -rf ~' -T a.zip f"], 'deny');
    await expectAll(['tar --use-compress-program=zstd -cf a.tar.zst src', 'tar --use-compress-prog xz -cf a.tar.xz src', 'tar -I zstd -xf a.tar.zst'], 'allow');
  });
});
