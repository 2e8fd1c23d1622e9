#!/usr/bin/env node
// `pincer`'s executable (dist/cli.js): loads the CLI itself (dist/cli-main.js) through a code cache.
// Scripts and other agents' hooks start a process per command, and compiling the bundle is a large
// part of what each one pays, the same work every time. The bundle goes through V8's code cache
// (src/core/bundle-loader.ts), written after the first command so it also holds the functions that
// command compiled: Node's own compile cache (module.enableCompileCache, Node 22.1 and later) keeps
// only what compiles at load, and a check-command through it cost 50 ms more CPU. Node's cache still
// serves the bundles the CLI requires later (cli-run.js, cli-config.js). Both live in the person's
// cache directory; NODE_DISABLE_COMPILE_CACHE=1 turns both off.
import fs from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import { loadBundle } from '../core/bundle-loader';
import { userCacheDir } from '../core/user-cache-dir';
import { shortLivedWasm } from './short-lived-wasm';

type Main = typeof import('./main');

/** Node's own cache, when this Node has it. */
function enableCompileCache(): void {
  const enable = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  try {
    enable?.(path.join(userCacheDir(), 'compile-cache'));
  } catch {
    // A cache that cannot be used only costs speed; the command itself must run.
  }
}

/** The CLI beside this file: the bundle in dist/, main.js when run from tsc's output. */
function mainFile(): string {
  const bundled = path.join(__dirname, 'cli-main.js');
  return fs.existsSync(bundled) ? bundled : path.join(__dirname, 'main.js');
}

async function start(): Promise<number> {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return (await import('./main')).main(process.argv.slice(2));
  enableCompileCache();
  shortLivedWasm(); // before the cache is read, as it will be in force when the cache is written
  const bundle = loadBundle(mainFile(), path.join(userCacheDir(), 'code-cache'));
  const code = await (bundle.exports as Main).main(process.argv.slice(2));
  // After the command, so the cache also holds the functions it compiled (written once).
  await bundle.saveCache();
  return code;
}

void start().then((code) => {
  process.exitCode = code;
});
