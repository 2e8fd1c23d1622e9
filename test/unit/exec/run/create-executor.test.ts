// The executor assembly the editor and the CLI share: which executor a command gets from the
// settings read at that moment, the terminal falling back to a child process where there is none,
// and the sandbox given the current workspace folders (a real bubblewrap run writes inside them and
// is refused outside).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readExecConfig, type ExecConfig } from '../../../../src/core/exec/exec-config';
import type { Executor } from '../../../../src/core/exec/exec-types';
import { createExecutorFactory } from '../../../../src/core/exec/run/create-executor';
import { createProcessExecutor } from '../../../../src/core/exec/run/process-executor';
import { removeTempDirs, tempDir } from '../../../support/fs-fixtures';
import { baseEnv, run } from './executor-support';

const configWith = (settings: Record<string, unknown>): ExecConfig => readExecConfig((k) => settings[k], (m) => assert.fail(m));

describe('createExecutorFactory', function () {
  this.timeout(30_000);
  after(removeTempDirs);
  const processExec = createProcessExecutor();
  const terminal: Executor = { ...createProcessExecutor(), kind: 'terminal' };
  const notices: string[] = [];

  it('reads the settings per command: a change of pincer.exec.sandbox.mode applies to the next one', () => {
    let settings: Record<string, unknown> = { 'exec.sandbox.mode': 'off' };
    const factory = createExecutorFactory({ config: () => configWith(settings), roots: () => ['/ws'], process: processExec, terminal, notice: (m) => notices.push(m) });
    assert.equal(factory('terminal'), terminal);
    assert.equal(factory('process'), processExec);
    settings = { 'exec.sandbox.mode': 'on' };
    const confined = factory('process');
    assert.equal(confined.sandboxed, true);
    assert.equal(confined.kind, 'process');
    assert.equal(factory('process', { sandbox: false }), processExec, 'a re-run allowed outside the sandbox');
  });

  it('without a terminal (the CLI) `terminal` runs as a child process; a dev container is never wrapped again', () => {
    const factory = createExecutorFactory({ config: () => configWith({ 'exec.sandbox.mode': 'off' }), roots: () => ['/ws'], process: processExec, notice: (m) => notices.push(m) });
    assert.equal(factory('terminal'), processExec);
    const dc = createExecutorFactory({ config: () => configWith({}), roots: () => ['/ws'], process: processExec, notice: (m) => notices.push(m) })('devcontainer');
    assert.equal(dc.kind, 'devcontainer');
    assert.notEqual(dc.sandboxed, true);
  });

  it('the sandbox gets the workspace folders of the moment: writes inside them land, writes outside are refused', async () => {
    const first = tempDir('factory-ws1');
    const second = tempDir('factory-ws2');
    let roots = [first];
    const factory = createExecutorFactory({ config: () => configWith({}), roots: () => roots, process: processExec, notice: (m) => notices.push(m) });
    const write = (cwd: string, file: string) => run(factory('process'), { target: { shell: `echo x > '${file}'` }, cwd, env: baseEnv() });
    assert.equal((await write(first, path.join(first, 'in.txt'))).outcome.exitCode, 0);
    const outside = await write(first, path.join(second, 'out.txt'));
    assert.notEqual(outside.outcome.exitCode, 0);
    assert.ok(!fs.existsSync(path.join(second, 'out.txt')));
    roots = [first, second];
    assert.equal((await write(first, path.join(second, 'out.txt'))).outcome.exitCode, 0, 'the added folder is writable at once');
  });
});
