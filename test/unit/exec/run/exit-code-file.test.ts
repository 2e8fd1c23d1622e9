// The exit-code file a terminal command line writes: a real shell runs the line with the suffix, and
// the status arrives through the file watch — for success, failure, a failed `cd` and an odd folder name.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execa } from 'execa';
import { createExitCodeFile } from '../../../../src/core/exec/run/exit-code-file';
import { shellQuote } from '../../../../src/core/exec/run/shell-command';
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

  it('keeps the status file private and removes it on dispose', async () => {
    const f = createExitCodeFile();
    const file = /' (\S+) "\$\?"$/.exec(f.suffix)?.[1] ?? '';
    const dir = file.slice(0, file.lastIndexOf('/'));
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    f.dispose();
    assert.equal(fs.existsSync(dir), false);
  });
});
