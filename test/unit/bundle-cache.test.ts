// The code cache the extension loads its runtime bundle through (src/core/bundle-loader.ts) and
// the cache directory it and the CLI share: real files in temp folders, real V8 caches.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import nodeModule from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cacheFileFor, loadBundle } from '../../src/core/bundle-loader';
import { userCacheDir } from '../../src/core/user-cache-dir';

describe('bundle code cache', () => {
  let dir: string;
  let cacheDir: string;
  let bundle: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-bundle-'));
    cacheDir = path.join(dir, 'cache', 'code-cache');
    fs.writeFileSync(path.join(dir, 'helper.js'), 'module.exports = { twice: (n) => n * 2 };\n');
    bundle = path.join(dir, 'bundle.js');
    // What an esbuild CommonJS bundle uses: exports, require beside the file, __filename, __dirname.
    fs.writeFileSync(bundle, `"use strict";
const helper = require('./helper');
const os = require('node:os');
module.exports = { four: helper.twice(2), file: __filename, dir: __dirname, hasOs: typeof os.homedir === 'function', loaded: module.loaded };
`);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('loads a bundle like require does, and the next load uses the cache the first one wrote', async () => {
    const first = loadBundle(bundle, cacheDir);
    assert.deepEqual(first.exports, { four: 4, file: bundle, dir, hasOs: true, loaded: false });
    assert.equal(first.fromCache, false);
    assert.equal(fs.existsSync(cacheDir), false, 'nothing is written before saveCache');
    await first.saveCache();
    assert.deepEqual(fs.readdirSync(cacheDir), [path.basename(cacheFileFor(bundle, cacheDir))]);
    const second = loadBundle(bundle, cacheDir);
    assert.equal(second.fromCache, true);
    assert.deepEqual(second.exports, first.exports);
  });

  it('reads an ASCII bundle and one with UTF-8 text alike: the same strings as require gives', () => {
    // The ASCII one escapes its arrow; the other carries it (and a character outside the BMP) as UTF-8 bytes.
    fs.writeFileSync(bundle, 'module.exports = { arrow: /^ *(\\d+)\\u2192/.exec(" 12\\u2192x")[1], text: "caf\\xe9" };\n');
    assert.deepEqual(loadBundle(bundle, cacheDir).exports, { arrow: '12', text: 'café' });
    fs.writeFileSync(bundle, 'module.exports = { arrow: /^ *(\\d+)→/.exec(" 12→x")[1], text: "café 😀" };\n');
    assert.deepEqual(loadBundle(bundle, cacheDir).exports, { arrow: '12', text: 'café 😀' });
  });

  it('reports its stages in order: reading and compiling end before the bundle\'s own code runs, inside the running stage', () => {
    fs.writeFileSync(bundle, 'globalThis.__pincerBundleRanAt = performance.now();\nmodule.exports = 1;\n');
    const before = performance.now();
    const { timing } = loadBundle(bundle, cacheDir);
    const after = performance.now();
    const ranAt = (globalThis as { __pincerBundleRanAt?: number }).__pincerBundleRanAt!;
    delete (globalThis as { __pincerBundleRanAt?: number }).__pincerBundleRanAt;
    assert.ok([timing.readMs, timing.compileMs, timing.runMs].every((ms) => Number.isFinite(ms) && ms >= 0), JSON.stringify(timing));
    assert.ok(ranAt - before >= timing.readMs + timing.compileMs, 'the top level ran after the read and compile stages');
    assert.ok(timing.readMs + timing.compileMs + timing.runMs <= after - before, 'the stages lie within the call');
  });

  it('a rebuilt bundle never meets the old cache, and the old cache file goes', async () => {
    await loadBundle(bundle, cacheDir).saveCache();
    const old = cacheFileFor(bundle, cacheDir);
    // Same length, other text: V8 checks only the length, so the file name must tell them apart.
    fs.writeFileSync(bundle, fs.readFileSync(bundle, 'utf8').replace('twice(2)', 'twice(3)'));
    fs.utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    assert.notEqual(cacheFileFor(bundle, cacheDir), old);
    const rebuilt = loadBundle(bundle, cacheDir);
    assert.equal(rebuilt.fromCache, false);
    assert.equal((rebuilt.exports as { four: number }).four, 6);
    await rebuilt.saveCache();
    assert.deepEqual(fs.readdirSync(cacheDir), [path.basename(cacheFileFor(bundle, cacheDir))]);
  });

  it('keeps the caches another V8 (another Node running the CLI) wrote for the bundle', async () => {
    fs.mkdirSync(cacheDir, { recursive: true });
    const otherV8 = path.basename(cacheFileFor(bundle, cacheDir)).replace(process.versions.v8, '1.2.3.4');
    fs.writeFileSync(path.join(cacheDir, otherV8), 'another V8\'s cache');
    await loadBundle(bundle, cacheDir).saveCache();
    assert.deepEqual(fs.readdirSync(cacheDir).sort(), [path.basename(cacheFileFor(bundle, cacheDir)), otherV8].sort());
    assert.equal(loadBundle(bundle, cacheDir).fromCache, true);
  });

  it('a damaged cache is compiled past and replaced; a cache that cannot be written costs nothing but speed', async () => {
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(cacheFileFor(bundle, cacheDir), 'not a V8 cache');
    const damaged = loadBundle(bundle, cacheDir);
    assert.equal(damaged.fromCache, false);
    assert.equal((damaged.exports as { four: number }).four, 4);
    await damaged.saveCache();
    assert.equal(loadBundle(bundle, cacheDir).fromCache, true);

    const blocked = path.join(dir, 'a-file');
    fs.writeFileSync(blocked, '');
    const noCache = loadBundle(bundle, path.join(blocked, 'code-cache'));
    await noCache.saveCache();
    assert.equal((noCache.exports as { four: number }).four, 4);
    assert.equal(fs.readFileSync(blocked, 'utf8'), '');
  });

  it('uses only a cache file nobody else can change, and writes it private', async () => {
    await loadBundle(bundle, cacheDir).saveCache();
    const file = cacheFileFor(bundle, cacheDir);
    if (process.platform !== 'win32') assert.equal(fs.statSync(file).mode & 0o077, 0, 'written readable by its owner only');
    assert.equal(loadBundle(bundle, cacheDir).fromCache, true);
    fs.chmodSync(file, 0o666);
    // A cache others may write is compiled past (on Windows, where modes do not say this, it is used).
    assert.equal(loadBundle(bundle, cacheDir).fromCache, process.platform === 'win32');
  });

  it('loads a bundle that starts with a #! line (the CLI\'s), with the line numbers of the file', () => {
    fs.writeFileSync(bundle, '#!/usr/bin/env node\nmodule.exports = { line: new Error().stack.split("\\n")[1] };\n');
    const loaded = loadBundle(bundle, cacheDir);
    assert.match((loaded.exports as { line: string }).line, /bundle\.js:2:/);
  });

  it('an error thrown while the bundle runs reaches the caller', () => {
    fs.writeFileSync(bundle, 'throw new Error("broken bundle");\n');
    assert.throws(() => loadBundle(bundle, cacheDir), /broken bundle/);
  });

  it('keeps the cache in the person\'s cache directory on each platform', () => {
    const home = path.join(path.sep, 'home', 'ann');
    assert.equal(userCacheDir({}, 'linux', home), path.join(home, '.cache', 'pincer'));
    assert.equal(userCacheDir({ XDG_CACHE_HOME: '/var/cache/ann' }, 'linux', home), path.join('/var/cache/ann', 'pincer'));
    // A relative XDG_CACHE_HOME is invalid by the spec and would land in the current folder (a repository).
    assert.equal(userCacheDir({ XDG_CACHE_HOME: 'relative' }, 'linux', home), path.join(home, '.cache', 'pincer'));
    assert.equal(userCacheDir({}, 'darwin', home), path.join(home, 'Library', 'Caches', 'pincer'));
    assert.equal(userCacheDir({ LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' }, 'win32', home), path.join('C:\\Users\\ann\\AppData\\Local', 'pincer', 'Cache'));
  });

  it('pincer\'s executable answers as the CLI does and keeps compiled code only in the cache directory', () => {
    const cacheHome = path.join(dir, 'xdg-cache');
    const work = path.join(dir, 'work');
    fs.mkdirSync(work);
    const run = (entry: string) => spawnSync(process.execPath, [path.join(__dirname, '..', '..', 'src', 'cli', entry), 'check-command', 'rm -rf /', '--json'],
      { cwd: work, encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cacheHome, NODE_COMPILE_CACHE: '' } });
    const viaBin = run('bin.js');
    const viaMain = run('main.js');
    assert.equal(viaBin.status, 2, viaBin.stderr);
    assert.equal(viaBin.stdout, viaMain.stdout);
    assert.equal(JSON.parse(viaBin.stdout).decision, 'deny');
    assert.deepEqual(fs.readdirSync(work), [], 'nothing is written where the command runs');
    // The CLI's own code goes through V8's code cache, written by the first command and then only read.
    const codeCache = path.join(cacheHome, 'pincer', 'code-cache');
    const [file] = fs.readdirSync(codeCache);
    assert.match(file, /^main-.*\.v8cache$/);
    const written = fs.statSync(path.join(codeCache, file)).mtimeMs;
    const again = run('bin.js');
    assert.equal(again.stdout, viaBin.stdout);
    assert.deepEqual(fs.readdirSync(codeCache), [file]);
    assert.equal(fs.statSync(path.join(codeCache, file)).mtimeMs, written, 'a cache that was used is not written again');
    // Node 22.1 and later also keep the code of the bundles the CLI loads later; older Node has no such cache.
    const cached = fs.existsSync(path.join(cacheHome, 'pincer', 'compile-cache'));
    assert.equal(cached, typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function');
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 keeps the CLI from writing any cache', () => {
    const cacheHome = path.join(dir, 'xdg-cache');
    const r = spawnSync(process.execPath, [path.join(__dirname, '..', '..', 'src', 'cli', 'bin.js'), 'check-command', 'git status', '--json'],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, XDG_CACHE_HOME: cacheHome, NODE_COMPILE_CACHE: '', NODE_DISABLE_COMPILE_CACHE: '1' } });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).decision, 'allow');
    assert.equal(fs.existsSync(cacheHome), false);
  });
});
