// NodeWorkspaceFs against real temp folders: atomic writes that keep the file mode, refusals of
// hard links and late symlinks, stat/readDirectory that report links as links, delete and rename.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeWorkspaceFs } from '../../../src/core/fs/node-fs';
import { PathError } from '../../../src/core/fs/types';
import { link, makeWorkspace, removeTempDirs, tempDir, type Workspace } from '../../support/fs-fixtures';

const bytes = (s: string) => Buffer.from(s, 'utf8');
const text = (u: Uint8Array) => Buffer.from(u).toString('utf8');
const posix = process.platform !== 'win32';

describe('NodeWorkspaceFs', () => {
  const nfs = new NodeWorkspaceFs();
  let ws: Workspace;

  beforeEach(() => {
    ws = makeWorkspace({ 'a.txt': 'alpha', 'dir/b.txt': 'beta', 'empty/': null });
  });

  after(removeTempDirs);

  it('reads bytes exactly, including a file larger than one read and an empty one', async () => {
    assert.equal(text(await nfs.readFile(ws.path('a.txt'))), 'alpha');
    const big = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
    fs.writeFileSync(ws.path('big.bin'), big);
    assert.ok(Buffer.from(await nfs.readFile(ws.path('big.bin'))).equals(big));
    fs.writeFileSync(ws.path('zero'), '');
    assert.equal((await nfs.readFile(ws.path('zero'))).length, 0);
  });

  it('readRange returns a byte range, shorter at the end of the file, through the same verified open', async () => {
    assert.equal(text(await nfs.readRange(ws.path('a.txt'), 1, 3)), 'lp');
    assert.equal(text(await nfs.readRange(ws.path('a.txt'), 3, 100)), 'ha');
    assert.equal((await nfs.readRange(ws.path('a.txt'), 10, 20)).length, 0);
    link('dir', ws.path('alias'));
    await assert.rejects(nfs.readRange(ws.path('alias/b.txt'), 0, 2), (e: unknown) => e instanceof PathError);
  });

  it('readFile honours an aborted signal and refuses a folder', async () => {
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(nfs.readFile(ws.path('a.txt'), ac.signal), { name: 'AbortError' });
    await assert.rejects(nfs.readFile(ws.path('dir')), { code: 'EISDIR' });
  });

  it('writes atomically: parents created, exact bytes, no temp files left, an empty file allowed', async () => {
    await nfs.writeFile(ws.path('new/deep/c.txt'), bytes('gamma\r\n'));
    assert.equal(ws.read('new/deep/c.txt'), 'gamma\r\n');
    await nfs.writeFile(ws.path('a.txt'), bytes(''));
    assert.equal(ws.read('a.txt'), '');
    assert.deepEqual(fs.readdirSync(ws.root).sort(), ['a.txt', 'dir', 'empty', 'new']);
    assert.deepEqual(fs.readdirSync(ws.path('new/deep')), ['c.txt']);
  });

  it('keeps the mode of the file it replaces', async () => {
    fs.chmodSync(ws.path('a.txt'), 0o640);
    fs.chmodSync(ws.path('dir/b.txt'), 0o755);
    await nfs.writeFile(ws.path('a.txt'), bytes('new'));
    await nfs.writeFile(ws.path('dir/b.txt'), bytes('#!/bin/sh\n'));
    if (posix) {
      assert.equal(fs.statSync(ws.path('a.txt')).mode & 0o777, 0o640);
      assert.equal(fs.statSync(ws.path('dir/b.txt')).mode & 0o777, 0o755);
    }
    assert.equal(ws.read('a.txt'), 'new');
  });

  it('refuses a hard-linked file, a read-only file, a folder and a symlink at the target', async () => {
    fs.linkSync(ws.path('a.txt'), ws.path('a-twin.txt'));
    await assert.rejects(nfs.writeFile(ws.path('a.txt'), bytes('x')), (e: unknown) => e instanceof PathError && e.code === 'hardlink');
    assert.equal(ws.read('a-twin.txt'), 'alpha');
    fs.chmodSync(ws.path('dir/b.txt'), 0o444);
    await assert.rejects(nfs.writeFile(ws.path('dir/b.txt'), bytes('x')), { code: 'EACCES' });
    assert.equal(ws.read('dir/b.txt'), 'beta');
    await assert.rejects(nfs.writeFile(ws.path('dir'), bytes('x')), { code: 'EISDIR' });
    link('dir/b.txt', ws.path('late-link'));
    await assert.rejects(nfs.writeFile(ws.path('late-link'), bytes('x')), (e: unknown) => e instanceof PathError && e.code === 'symlink-escape');
  });

  it('refuses paths that are not canonical (a folder on the way is a symlink)', async () => {
    link('dir', ws.path('alias'));
    const refused = (e: unknown) => e instanceof PathError && e.code === 'symlink-escape';
    await assert.rejects(nfs.readFile(ws.path('alias/b.txt')), refused);
    await assert.rejects(nfs.writeFile(ws.path('alias/new.txt'), bytes('x')), refused);
    assert.ok(!ws.exists('dir/new.txt'));
  });

  it('readers see the old bytes or the new ones, never a mix', async () => {
    const a = 'A'.repeat(256 * 1024);
    const b = 'B'.repeat(300 * 1024);
    await nfs.writeFile(ws.path('flip.txt'), bytes(a));
    const reader = spawn(process.execPath, ['-e', `
      const fs = require('fs'); const bad = new Set(); const end = Date.now() + 600;
      while (Date.now() < end) { try { const s = fs.readFileSync(process.argv[1], 'utf8');
        if (!/^(A+|B+)$/.test(s) || (s[0] === 'A' ? s.length !== ${a.length} : s.length !== ${b.length})) bad.add(s.length); } catch (e) { bad.add(e.code); } }
      process.stdout.write(JSON.stringify([...bad]));`, ws.path('flip.txt')]);
    let out = '';
    reader.stdout.on('data', (d) => (out += d));
    const done = new Promise((r) => reader.on('close', r));
    let writes = 0;
    const end = Date.now() + 600;
    while (Date.now() < end) await nfs.writeFile(ws.path('flip.txt'), bytes(writes++ % 2 ? a : b));
    await done;
    assert.ok(writes > 1);
    assert.deepEqual(JSON.parse(out), []);
  });

  it('stat and readDirectory report symlinks as symlinks, without following them', async () => {
    link('dir', ws.path('dir-link'));
    link('missing', ws.path('dangling'));
    assert.deepEqual(await nfs.stat(ws.path('a.txt')), { type: 'file', size: 5, mtime: fs.statSync(ws.path('a.txt')).mtimeMs });
    assert.equal((await nfs.stat(ws.path('dir')))?.type, 'directory');
    assert.equal((await nfs.stat(ws.path('dir-link')))?.type, 'symlink');
    assert.equal((await nfs.stat(ws.path('dangling')))?.type, 'symlink');
    assert.equal(await nfs.stat(ws.path('nope')), undefined);
    assert.equal(await nfs.stat(ws.path('a.txt/under-a-file')), undefined);
    const entries = new Map(await nfs.readDirectory(ws.root));
    assert.deepEqual(Object.fromEntries(entries), { 'a.txt': 'file', dir: 'directory', empty: 'directory', 'dir-link': 'symlink', dangling: 'symlink' });
  });

  it('readDirectories lists many folders at once like readDirectory, links as links, undefined for what it cannot list', async () => {
    link('dir', ws.path('dir-link'));
    link('missing', ws.path('dangling'));
    const dirs = [ws.root, ws.path('dir'), ws.path('empty'), ws.path('nope'), ws.path('a.txt')];
    const got = await nfs.readDirectories(dirs);
    assert.equal(got.length, dirs.length);
    for (let i = 0; i < 3; i++) assert.deepEqual(got[i]?.slice().sort(), (await nfs.readDirectory(dirs[i])).sort());
    assert.deepEqual(Object.fromEntries(got[0] ?? []), { 'a.txt': 'file', dir: 'directory', empty: 'directory', 'dir-link': 'symlink', dangling: 'symlink' });
    assert.equal(got[3], undefined, 'missing folder');
    assert.equal(got[4], undefined, 'a file is not a folder');
  });

  it('statMany answers like stat for each path, without following links, undefined for missing ones', async () => {
    link('dir', ws.path('dir-link'));
    const paths = ['a.txt', 'dir', 'dir-link', 'nope', 'a.txt/under-a-file', 'dir/b.txt'].map((p) => ws.path(p));
    const got = await nfs.statMany(paths);
    assert.deepEqual(got, await Promise.all(paths.map((p) => nfs.stat(p))));
    assert.deepEqual(got.map((s) => s?.type), ['file', 'directory', 'symlink', undefined, undefined, 'file']);
    assert.deepEqual(await nfs.statMany([]), []);
  });

  it('the batch methods leave the event loop free: stats on this thread in slices with turns between, listings off the main thread', async () => {
    // Folders big enough that the listing outlasts a turn of this loop: a warm, idle worker listing
    // small ones can answer before the spinner's next turn comes round.
    const wide = tempDir('wide');
    for (let i = 0; i < 500; i++) fs.writeFileSync(path.join(wide, `f${i}.txt`), '');
    let turns = 0;
    let spinning = true;
    const spin = (): void => { if (spinning) { turns++; setImmediate(spin); } };
    setImmediate(spin);
    const stats = await new NodeWorkspaceFs({ sliceMs: 0, statsOffThread: false }).statMany(Array.from({ length: 20 }, () => ws.path('a.txt')));
    const afterStats = turns;
    const listings = await nfs.readDirectories(Array.from({ length: 100 }, () => wide));
    spinning = false;
    assert.equal(stats.filter((s) => s?.type === 'file').length, 20);
    assert.equal(listings.filter((l) => l?.length === 500).length, 100);
    assert.ok(afterStats >= 19, `the event loop ran ${afterStats} times during 20 stats sliced one by one`);
    assert.ok(turns > afterStats, 'and kept running while 100 folders were listed');
  });

  it('delete removes a file, a link (not its target) and an empty folder; a missing file is an error', async () => {
    link('a.txt', ws.path('a-link'));
    await nfs.delete(ws.path('a-link'));
    assert.equal(ws.read('a.txt'), 'alpha');
    await nfs.delete(ws.path('a.txt'));
    assert.ok(!ws.exists('a.txt'));
    await nfs.delete(ws.path('empty'));
    assert.ok(!ws.exists('empty'));
    await assert.rejects(nfs.delete(ws.path('dir')), { code: 'ENOTEMPTY' });
    await assert.rejects(nfs.delete(ws.path('a.txt')), { code: 'ENOENT' });
  });

  it('rename moves into new folders and never overwrites', async () => {
    await nfs.rename(ws.path('a.txt'), ws.path('moved/here/a.txt'));
    assert.equal(ws.read('moved/here/a.txt'), 'alpha');
    assert.ok(!ws.exists('a.txt'));
    await assert.rejects(nfs.rename(ws.path('moved/here/a.txt'), ws.path('dir/b.txt')), { code: 'EEXIST' });
    assert.equal(ws.read('dir/b.txt'), 'beta');
    assert.equal(ws.read('moved/here/a.txt'), 'alpha');
  });

  it('writes a file in a fresh temp folder tree outside any workspace too (the port does not judge paths)', async () => {
    const other = tempDir('plain');
    await nfs.writeFile(path.join(other, 'x', 'y.txt'), bytes('ok'));
    assert.equal(fs.readFileSync(path.join(other, 'x', 'y.txt'), 'utf8'), 'ok');
  });
});
