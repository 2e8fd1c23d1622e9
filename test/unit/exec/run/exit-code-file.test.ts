// The exit-code file a terminal command line writes: a real shell runs the line with the suffix, and
// the status arrives through the file watch — for success, failure, a failed `cd` and an odd folder name.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execa } from 'execa';
import { createExitCodeFile } from '../../../../src/core/exec/run/exit-code-file';
import { shellQuote } from '../../../../src/core/exec/run/shell-command';
import { terminalToText } from '../../../../src/core/exec/run/terminal-text';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';

async function statusOf(line: string): Promise<number> {
  const f = createExitCodeFile();
  try {
    // The line runs as a terminal's shell would run it: the shell's own status is not what is read.
    const shell = await execa('/bin/sh', ['-c', line + f.suffix], { reject: false });
    const code = await f.code;
    assert.equal(shell.exitCode, code, 'the line keeps the command\'s status');
    return code;
  } finally {
    f.dispose();
  }
}

describe('createExitCodeFile', function () {
  this.timeout(20_000);
  after(removeTempDirs);

  it('reports 0 for a command that succeeds and its status for one that fails', async () => {
    assert.equal(await statusOf('true'), 0);
    assert.equal(await statusOf('exit_with() { return "$1"; }; exit_with 7'), 7);
  });

  it('reports the status of a failed cd in `cd … && command`, and the command does not run', async () => {
    const dir = tempDir('exit-code-');
    const marker = `${dir}/ran`;
    const code = await statusOf(`cd -- ${shellQuote(`${dir}/missing`)} && touch ${shellQuote(marker)}`);
    assert.notEqual(code, 0);
    assert.equal(fs.existsSync(marker), false);
  });

  it('works from a folder whose name needs quoting', async () => {
    const dir = tempDir("it's a dir; $(x) ");
    assert.equal(await statusOf(`cd -- ${shellQuote(dir)} && test -d .`), 0);
  });

  it('prints an end mark after the status that the scanner finds, even split across chunks, and never in the line\'s own text', async () => {
    const f = createExitCodeFile();
    try {
      const line = `printf 'out\\n'; exit_with() { return "$1"; }; exit_with 3${f.suffix}`;
      // A terminal echoes the typed line: the mark's text there holds no ESC, so it is not the mark.
      assert.equal(f.mark.push(line), false);
      const shell = await execa('/bin/sh', ['-c', line], { reject: false, stripFinalNewline: false });
      assert.equal(shell.exitCode, 3);
      assert.ok(shell.stdout.startsWith('out\n'), shell.stdout);
      const raw = shell.stdout;
      // Fed one character at a time, the mark is found only with its last character.
      let seenAt = -1;
      for (let i = 0; i < raw.length; i++) if (f.mark.push(raw[i]) && seenAt < 0) seenAt = i;
      assert.equal(seenAt, raw.length - 1);
      assert.equal(f.mark.status, 3);
      assert.equal(terminalToText(raw), 'out\n', 'the mark draws nothing in the terminal');
      assert.equal(await f.code, 3, 'the file holds the same status');
    } finally {
      f.dispose();
    }
  });

  it('does not take another run\'s end mark for its own', async () => {
    const a = createExitCodeFile();
    const b = createExitCodeFile();
    try {
      const shell = await execa('/bin/sh', ['-c', `true${a.suffix}`], { reject: false });
      assert.equal(a.mark.push(shell.stdout), true);
      assert.equal(b.mark.push(shell.stdout), false);
      assert.equal(b.mark.status, undefined);
    } finally {
      a.dispose();
      b.dispose();
    }
  });

  it('keeps the status file private and removes it on dispose', async () => {
    const f = createExitCodeFile();
    const file = /' (\S+) "\$\?"$/.exec(f.suffix)?.[1] ?? '';
    const dir = file.slice(0, file.lastIndexOf('/'));
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    f.dispose();
    assert.equal(fs.existsSync(dir), false);
  });
});
