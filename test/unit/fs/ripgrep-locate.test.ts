// Finding ripgrep: the layouts VS Code has used under its appRoot, then PATH.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { locateRipgrep, ripgrepCandidates } from '../../../src/core/fs/ripgrep-locate';
import { removeTempDirs, tempDir } from '../../support/fs-fixtures';

function fakeRg(file: string, executable = true): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\necho fake\n');
  fs.chmodSync(file, executable ? 0o755 : 0o644);
  return file;
}

const CODE_SERVER_APP = path.join(os.homedir(), '.cache/vscode-host/node_modules/code-server/lib/vscode');

describe('locateRipgrep', () => {
  after(removeTempDirs);

  it('finds the 1.139 layout: @vscode/ripgrep-universal/bin/<platform>-<arch>/rg', () => {
    const app = tempDir('app');
    const rg = fakeRg(path.join(app, 'node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg'));
    assert.equal(locateRipgrep([app], { platform: 'linux', arch: 'x64', pathEnv: '' }), rg);
    assert.equal(locateRipgrep([app], { platform: 'linux', arch: 'arm64', pathEnv: '' }), undefined, 'another arch\'s binary is not ours');
  });

  it('finds the older @vscode/ripgrep/bin/rg layout and the desktop node_modules.asar.unpacked one', () => {
    const old = tempDir('app');
    const a = fakeRg(path.join(old, 'node_modules/@vscode/ripgrep/bin/rg'));
    assert.equal(locateRipgrep([old], { platform: 'linux', arch: 'x64', pathEnv: '' }), a);
    const desktop = tempDir('app');
    const b = fakeRg(path.join(desktop, 'node_modules.asar.unpacked/@vscode/ripgrep/bin/rg'));
    assert.equal(locateRipgrep([desktop], { platform: 'linux', arch: 'x64', pathEnv: '' }), b);
  });

  it('names rg.exe on Windows', () => {
    const c = ripgrepCandidates('/app', 'win32', 'x64');
    assert.ok(c.some((f) => f.endsWith(path.join('ripgrep-universal', 'bin', 'win32-x64', 'rg.exe'))));
    assert.ok(c.every((f) => f.endsWith('rg.exe')));
  });

  it('prefers the newest layout, then the first root', () => {
    const app = tempDir('app');
    const universal = fakeRg(path.join(app, 'node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg'));
    fakeRg(path.join(app, 'node_modules/@vscode/ripgrep/bin/rg'));
    const other = tempDir('app');
    fakeRg(path.join(other, 'node_modules/@vscode/ripgrep/bin/rg'));
    assert.equal(locateRipgrep([app, other], { platform: 'linux', arch: 'x64', pathEnv: '' }), universal);
  });

  it('skips files that are not executable and folders named rg', () => {
    const app = tempDir('app');
    fakeRg(path.join(app, 'node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg'), false);
    fs.mkdirSync(path.join(app, 'node_modules/@vscode/ripgrep/bin/rg'), { recursive: true });
    assert.equal(locateRipgrep([app], { platform: 'linux', arch: 'x64', pathEnv: '' }), undefined);
  });

  it('falls back to rg on PATH, ignoring relative PATH entries (the current folder)', () => {
    const bin = tempDir('bin');
    const rg = fakeRg(path.join(bin, 'rg'));
    const cwdBin = tempDir('cwd');
    fakeRg(path.join(cwdBin, 'rg'));
    const prev = process.cwd();
    process.chdir(cwdBin);
    try {
      assert.equal(locateRipgrep([], { platform: 'linux', pathEnv: ['', '.', 'relative/dir'].join(path.delimiter) }), undefined);
      assert.equal(locateRipgrep(['/nonexistent'], { platform: 'linux', pathEnv: ['.', bin].join(path.delimiter) }), rg);
    } finally {
      process.chdir(prev);
    }
  });

  it('the CLI default (no roots) finds a working rg on this machine\'s PATH', () => {
    const rg = locateRipgrep([]);
    assert.ok(rg, 'no rg on PATH');
    assert.match(execFileSync(rg, ['--version'], { encoding: 'utf8' }), /^ripgrep \d+/);
  });

  it('finds the ripgrep shipped with the VS Code build installed for host tests, or falls through to PATH', () => {
    const found = locateRipgrep([CODE_SERVER_APP]);
    const shipped = path.join(CODE_SERVER_APP, `node_modules/@vscode/ripgrep-universal/bin/${process.platform}-${process.arch}/rg`);
    if (fs.existsSync(shipped)) {
      assert.equal(found, shipped);
      assert.match(execFileSync(shipped, ['--version'], { encoding: 'utf8' }), /^ripgrep \d+/);
    } else {
      assert.equal(found, locateRipgrep([]));
    }
  });
});
