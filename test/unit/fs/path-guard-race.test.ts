// Swap races: a file (or a folder above it) replaced by a symlink to outside the workspace between
// the guard's check and the open. First deterministic swaps, then a real one: a child process
// swapping as fast as it can while we resolve and read/write in a loop.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { checkedStat, descriptorPath, openVerified, pathStillNames, verifyOpened } from '../../../src/core/fs/path-open';
import { PathError } from '../../../src/core/fs/types';
import { makeGuard, makeWorkspace, removeTempDirs, tempDir, writeTree, type Workspace } from '../../support/fs-fixtures';

const isCode = (code: PathError['code']) => (e: unknown) => e instanceof PathError && e.code === code;
const nodeFs = new NodeWorkspaceFs();

describe('path guard: swaps between check and open', () => {
  let ws: Workspace;
  let outside: string;

  beforeEach(() => {
    ws = makeWorkspace({ 'src/a.ts': 'INSIDE', 'b.txt': 'B' });
    outside = tempDir('outside');
    writeTree(outside, { 'a.ts': 'SECRET', 'secret.txt': 'SECRET' });
  });

  after(removeTempDirs);

  it('a checked file replaced by a symlink to outside: open, read and write all refuse', async () => {
    const guard = makeGuard([ws.root]);
    const read = await guard.resolve('src/a.ts', 'read');
    const write = await guard.resolve('src/a.ts', 'write');
    fs.rmSync(ws.path('src/a.ts'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), ws.path('src/a.ts'));
    await assert.rejects(openVerified(read, fs.constants.O_RDONLY), isCode('symlink-escape'));
    await assert.rejects(nodeFs.readFile(read.abs), isCode('symlink-escape'));
    await assert.rejects(nodeFs.writeFile(write.abs, Buffer.from('PWNED')), isCode('symlink-escape'));
    assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'SECRET');
    assert.ok(fs.lstatSync(ws.path('src/a.ts')).isSymbolicLink(), 'the link itself is left alone');
  });

  it('a folder above the checked file replaced by a symlink to outside: refused, nothing lands outside', async () => {
    const guard = makeGuard([ws.root]);
    const existing = await guard.resolve('src/a.ts', 'read');
    const fresh = await guard.resolve('src/new.ts', 'write');
    fs.renameSync(ws.path('src'), ws.path('src-old'));
    fs.symlinkSync(outside, ws.path('src'));
    await assert.rejects(openVerified(existing, fs.constants.O_RDONLY), isCode('symlink-escape'));
    await assert.rejects(nodeFs.readFile(existing.abs), isCode('symlink-escape'));
    await assert.rejects(nodeFs.writeFile(fresh.abs, Buffer.from('PWNED')), isCode('symlink-escape'));
    await assert.rejects(nodeFs.writeFile(existing.abs, Buffer.from('PWNED')), isCode('symlink-escape'));
    await assert.rejects(nodeFs.readDirectory(path.dirname(existing.abs)), isCode('symlink-escape'));
    await assert.rejects(nodeFs.delete(existing.abs), isCode('symlink-escape'));
    assert.deepEqual(fs.readdirSync(outside).sort(), ['a.ts', 'secret.txt']);
    assert.equal(fs.readFileSync(path.join(outside, 'a.ts'), 'utf8'), 'SECRET');
  });

  it('opened through a link and swapped back before the check: the descriptor is not the file at the path', async () => {
    const handle = await fs.promises.open(path.join(outside, 'secret.txt'), 'r');
    try {
      await assert.rejects(verifyOpened(handle, ws.path('b.txt')), isCode('symlink-escape'));
    } finally {
      await handle.close();
    }
  });

  it('without /proc, the path checks catch a descriptor that is not the file at the path', async () => {
    const handle = await fs.promises.open(path.join(outside, 'secret.txt'), 'r');
    try {
      const st = await handle.stat();
      await assert.rejects(pathStillNames(ws.path('b.txt'), st), isCode('symlink-escape'));
      fs.symlinkSync(outside, ws.path('via'));
      await assert.rejects(pathStillNames(ws.path('via/secret.txt'), st), isCode('symlink-escape'));
      await pathStillNames(path.join(outside, 'secret.txt'), st);
      if (process.platform === 'linux') assert.equal(descriptorPath(handle.fd), path.join(outside, 'secret.txt'));
    } finally {
      await handle.close();
    }
  });

  it('replaced by another regular file: the guard-resolved open refuses; a plain path open is consistent and works', async () => {
    const resolved = await makeGuard([ws.root]).resolve('b.txt', 'read');
    fs.writeFileSync(ws.path('b.tmp'), 'B2');
    fs.renameSync(ws.path('b.tmp'), ws.path('b.txt'));
    await assert.rejects(openVerified(resolved, fs.constants.O_RDONLY), isCode('symlink-escape'));
    const handle = await openVerified(resolved.abs, fs.constants.O_RDONLY);
    try {
      assert.equal((await handle.readFile()).toString(), 'B2');
    } finally {
      await handle.close();
    }
  });

  it("the guard's recorded stat describes the path at check time; a swap after it is still refused at the open", async () => {
    const guard = makeGuard([ws.root]);
    const file = await guard.resolve('src/a.ts', 'read');
    assert.deepEqual({ ...checkedStat(file), mtime: 0 }, { type: 'file', size: 'INSIDE'.length, mtime: 0 });
    assert.equal(checkedStat(await guard.resolve('src', 'list'))?.type, 'directory');
    assert.equal(checkedStat(await guard.resolve('src/new.ts', 'write')), undefined, 'a missing path has no stat');
    fs.rmSync(ws.path('src/a.ts'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), ws.path('src/a.ts'));
    assert.equal(checkedStat(file)?.type, 'file', 'the record is of the check, not a fresh look');
    await assert.rejects(nodeFs.readFile(file.abs), isCode('symlink-escape'));
  });

  it('unchanged: the verified open returns the checked file', async () => {
    const resolved = await makeGuard([ws.root]).resolve('src/a.ts', 'read');
    const handle = await openVerified(resolved, fs.constants.O_RDONLY);
    try {
      assert.equal((await handle.readFile()).toString(), 'INSIDE');
    } finally {
      await handle.close();
    }
  });

  it('a hard link made after the check: the write refuses and both names keep their bytes', async () => {
    const resolved = await makeGuard([ws.root]).resolve('b.txt', 'write');
    fs.linkSync(ws.path('b.txt'), path.join(outside, 'b-link.txt'));
    await assert.rejects(openVerified(resolved, fs.constants.O_RDONLY, { refuseHardLinks: true }), isCode('hardlink'));
    await assert.rejects(nodeFs.writeFile(resolved.abs, Buffer.from('PWNED')), isCode('hardlink'));
    assert.equal(fs.readFileSync(path.join(outside, 'b-link.txt'), 'utf8'), 'B');
    assert.equal(ws.read('b.txt'), 'B');
  });
});

/** A child process that keeps swapping `target` between a regular file and a symlink to `evil`. */
function startSwapper(target: string, evil: string, insideContent: string | null): { stop: () => Promise<number> } {
  const script = `
    const fs = require('fs');
    const [target, evil, content] = process.argv.slice(1);
    const isDir = content === '';
    let n = 0;
    const stageFile = target + '.stage-file', stageLink = target + '.stage-link';
    process.on('message', () => { process.send(n); process.exit(0); });
    setTimeout(() => process.exit(0), 15000).unref();
    const spin = () => {
      for (let i = 0; i < 200; i++, n++) {
        try {
          if (isDir) { fs.mkdirSync(stageFile, { recursive: true }); fs.writeFileSync(stageFile + '/f.txt', 'INSIDE'); }
          else fs.writeFileSync(stageFile, content);
          try { fs.rmSync(target + '.old', { recursive: true, force: true }); fs.renameSync(target, target + '.old'); } catch {}
          fs.renameSync(stageFile, target);
          fs.symlinkSync(evil, stageLink);
          fs.rmSync(target + '.old', { recursive: true, force: true });
          fs.renameSync(target, target + '.old');
          fs.renameSync(stageLink, target);
        } catch {}
      }
      setImmediate(spin);
    };
    spin();`;
  const child = spawn(process.execPath, ['-e', script, target, evil, insideContent ?? ''], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('message', (n) => resolve(Number(n)));
        child.send('stop');
      }),
  };
}

describe('path guard: a real concurrent swapper', () => {
  after(removeTempDirs);

  async function hammer(ms: number, attempt: () => Promise<void>): Promise<{ ok: number; refused: number }> {
    const counts = { ok: 0, refused: 0 };
    const until = Date.now() + ms;
    while (Date.now() < until) {
      try {
        await attempt();
        counts.ok++;
      } catch (err) {
        if (!(err instanceof PathError) && !['ENOENT', 'EISDIR', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
        counts.refused++;
      }
    }
    return counts;
  }

  it('reads never return the outside file while a file flips between regular and symlink', async () => {
    const ws = makeWorkspace({ 'victim.txt': 'INSIDE' });
    const outside = tempDir('outside');
    writeTree(outside, { 'secret.txt': 'SECRET' });
    const guard = makeGuard([ws.root]);
    const swapper = startSwapper(ws.path('victim.txt'), path.join(outside, 'secret.txt'), 'INSIDE');
    const seen = new Set<string>();
    const counts = await hammer(700, async () => {
      const r = await guard.resolve('victim.txt', 'read');
      seen.add(Buffer.from(await nodeFs.readFile(r.abs)).toString());
    });
    const swaps = await swapper.stop();
    assert.ok(swaps > 0 && counts.ok + counts.refused > 0, `swaps ${swaps}, ${JSON.stringify(counts)}`);
    assert.ok(!seen.has('SECRET'), `read the outside file (${JSON.stringify(counts)})`);
  });

  it('reads never return a file of an outside folder while a folder flips between real and symlink', async () => {
    const ws = makeWorkspace({ 'dir/f.txt': 'INSIDE' });
    const outside = tempDir('outside');
    writeTree(outside, { 'f.txt': 'SECRET' });
    const guard = makeGuard([ws.root]);
    const swapper = startSwapper(ws.path('dir'), outside, null);
    const seen = new Set<string>();
    const counts = await hammer(700, async () => {
      const r = await guard.resolve('dir/f.txt', 'read');
      seen.add(Buffer.from(await nodeFs.readFile(r.abs)).toString());
    });
    const swaps = await swapper.stop();
    assert.ok(swaps > 0 && counts.ok + counts.refused > 0, `swaps ${swaps}, ${JSON.stringify(counts)}`);
    assert.ok(!seen.has('SECRET'), `read the outside file (${JSON.stringify(counts)})`);
  });

  it('writes never change or add a file outside while a folder flips between real and symlink', async () => {
    const ws = makeWorkspace({ 'dir/f.txt': 'INSIDE' });
    const outside = tempDir('outside');
    writeTree(outside, { 'f.txt': 'SECRET' });
    const guard = makeGuard([ws.root]);
    const swapper = startSwapper(ws.path('dir'), outside, null);
    const counts = await hammer(700, async () => {
      const r = await guard.resolve('dir/f.txt', 'write');
      await nodeFs.writeFile(r.abs, Buffer.from('PWNED'));
    });
    const swaps = await swapper.stop();
    assert.ok(swaps > 0 && counts.ok + counts.refused > 0, `swaps ${swaps}, ${JSON.stringify(counts)}`);
    assert.deepEqual(fs.readdirSync(outside), ['f.txt']);
    assert.equal(fs.readFileSync(path.join(outside, 'f.txt'), 'utf8'), 'SECRET');
  });
});
