// Finding a ripgrep binary. VS Code ships one under its install folder (vscode.env.appRoot), but the
// layout moved between releases, and on desktop builds executables live outside the asar archive.
// Core cannot import vscode, so the host passes the roots and the CLI passes none and uses PATH.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface LocateOptions {
  platform?: NodeJS.Platform;
  arch?: string;
  /** The PATH to fall back on; default process.env.PATH. '' disables the fallback. */
  pathEnv?: string;
}

function isExecutable(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The places, under one root, where a VS Code build has kept its ripgrep, newest layout first. */
export function ripgrepCandidates(root: string, platform: NodeJS.Platform = process.platform, arch: string = process.arch): string[] {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  const out: string[] = [];
  for (const modules of ['node_modules', 'node_modules.asar.unpacked']) {
    // 1.139+: one package holding every platform's binary.
    out.push(path.join(root, modules, '@vscode', 'ripgrep-universal', 'bin', `${platform}-${arch}`, exe));
    // Older builds: the per-platform package installed at build time.
    out.push(path.join(root, modules, '@vscode', 'ripgrep', 'bin', exe));
    out.push(path.join(root, modules, 'vscode-ripgrep', 'bin', exe));
  }
  return out;
}

/**
 * The first runnable ripgrep under `candidatesRoots` (each one a VS Code appRoot or a folder holding
 * node_modules), else `rg` on PATH, else undefined (the grep tool then uses its worker fallback).
 */
export function locateRipgrep(candidatesRoots: string[], opts: LocateOptions = {}): string | undefined {
  const platform = opts.platform ?? process.platform;
  const arch = opts.arch ?? process.arch;
  for (const root of candidatesRoots) {
    if (!root) continue;
    for (const file of ripgrepCandidates(root, platform, arch)) if (isExecutable(file, platform)) return file;
  }
  const pathEnv = opts.pathEnv ?? process.env.PATH ?? '';
  const names = platform === 'win32' ? ['rg.exe'] : ['rg'];
  for (const dir of pathEnv.split(path.delimiter)) {
    // An empty or relative PATH entry means "the current directory": never run a binary from there.
    if (!dir || !path.isAbsolute(dir)) continue;
    for (const name of names) {
      const file = path.join(dir, name);
      if (isExecutable(file, platform)) return file;
    }
  }
  return undefined;
}
