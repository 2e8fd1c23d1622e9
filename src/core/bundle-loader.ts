// Loads one of Pincer's own CommonJS bundles (dist/host-core.js, and the CLI's dist/cli-main.js on
// Node without a compile cache of its own) with V8's code cache: most of the first tool call after a
// window opens was V8 compiling the megabyte of the runtime, the same code every time. The cache is
// V8's own (vm.Script cachedData), kept per bundle file in the person's cache directory and written
// once, after the first use, so it also holds the functions that use compiled. Only this file is
// cached: Node's process-wide compile cache would reach into every other extension sharing the
// extension host.
import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

export interface LoadedBundle {
  /** The bundle's module.exports. */
  exports: unknown;
  /** Whether V8 accepted a cache written by an earlier load (false: compiled from source). */
  fromCache: boolean;
  /** Milliseconds: reading the bundle and its cache, compiling it (from the cache or the source), running its top level. */
  timing: { readMs: number; compileMs: number; runMs: number };
  /**
   * Writes the cache for the next load unless this load already used a valid one; at most once.
   * Errors are swallowed: a cache that cannot be written only costs speed.
   */
  saveCache(): Promise<void>;
}

/**
 * The cache's file name: the bundle's name, size and modification time, and the V8 version. V8
 * checks the flags and the source's length itself, not its text, so a rebuilt bundle must never
 * find the cache of the previous build.
 */
export function cacheFileFor(file: string, cacheDir: string): string {
  const st = fs.statSync(file);
  return path.join(cacheDir, `${path.basename(file, '.js')}-${st.size}-${Math.trunc(st.mtimeMs)}-${process.versions.v8}-${process.arch}.v8cache`);
}

/**
 * The cache becomes code in the extension host, so only a file this user wrote and nobody else may
 * change is used (a shared or loosened cache folder must not let another account inject code).
 */
function ownedAndPrivate(file: string): boolean {
  const st = fs.statSync(file);
  return process.getuid === undefined || (st.uid === process.getuid() && (st.mode & 0o022) === 0);
}

/**
 * The file's text. Pincer's bundles are ASCII (esbuild.mjs checks), and ASCII read as latin1 is the
 * same text, decoded without UTF-8's validation: ~0.1 ms for host-core's 1.6 MB where UTF-8 took ~2.
 */
function readText(file: string): string {
  const bytes = fs.readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** require(file), compiled through the code cache in cacheDir. */
export function loadBundle(file: string, cacheDir: string): LoadedBundle {
  const t0 = performance.now();
  // A `#!` line is valid only at the very start of a file, which the wrapper below no longer is.
  const source = readText(file).replace(/^#!/, '//');
  const cacheFile = cacheFileFor(file, cacheDir);
  let cachedData: Buffer | undefined;
  try {
    if (ownedAndPrivate(cacheFile)) cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache yet (or unreadable): compiled from source, written after the first use.
  }
  const t1 = performance.now();
  // The wrapper Node itself puts around a CommonJS file.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  // The module's own require: resolves beside the bundle, and VS Code sees the bundle as the requirer.
  const mod = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const t2 = performance.now();
  (script.runInThisContext() as (...a: unknown[]) => void)(mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  const t3 = performance.now();
  let saved = fromCache;
  return {
    exports: mod.exports,
    fromCache,
    timing: { readMs: t1 - t0, compileMs: t2 - t1, runMs: t3 - t2 },
    async saveCache() {
      if (saved) return;
      saved = true;
      try {
        const data = script.createCachedData();
        await fs.promises.mkdir(cacheDir, { recursive: true, mode: 0o700 });
        // Older builds' caches of this bundle go, for this V8 only: the CLI may run under two Node
        // versions in turn, each with a cache of its own. A temporary name, so a reader never sees half a file.
        const prefix = `${path.basename(file, '.js')}-`;
        const suffix = `-${process.versions.v8}-${process.arch}.v8cache`;
        for (const old of await fs.promises.readdir(cacheDir)) {
          if (old.startsWith(prefix) && old.endsWith(suffix) && path.join(cacheDir, old) !== cacheFile) await fs.promises.rm(path.join(cacheDir, old), { force: true });
        }
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        await fs.promises.writeFile(tmp, data, { mode: 0o600 });
        await fs.promises.rename(tmp, cacheFile);
      } catch {
        // A cache that cannot be written only costs speed.
      }
    },
  };
}
