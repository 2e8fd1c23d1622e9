#!/usr/bin/env node
// `pincer`'s executable (dist/cli.js): turns on Node's compile cache, then loads the CLI itself
// (dist/cli-main.js). Scripts and other agents' hooks start a process per command, and compiling
// the bundle is a large part of what each one pays; from Node 22.1 on, V8's code for the bundles is
// kept between processes, in the person's cache directory. Older Node runs the same code without it.
import nodeModule from 'node:module';
import path from 'node:path';
import { userCacheDir } from '../core/user-cache-dir';

/** Node's own cache (module.enableCompileCache; NODE_DISABLE_COMPILE_CACHE=1 turns it off). */
function enableCompileCache(): void {
  const enable = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  try {
    enable?.(path.join(userCacheDir(), 'compile-cache'));
  } catch {
    // A cache that cannot be used only costs speed; the command itself must run.
  }
}

enableCompileCache();
// Loaded after the cache is on, so the CLI's own code is cached too.
void import('./main').then(({ main }) => main(process.argv.slice(2))).then((code) => {
  process.exitCode = code;
});
