// Where the shell would find a command, apart from the allowlist's rules: the executors need it to
// find bash, and they load with the runtime, which the judge does not.
import fs from 'node:fs';
import path from 'node:path';

const resolved = new Map<string, string | undefined>();

/** The absolute, canonical path the shell would run, or undefined (not found, or a builtin). */
export function resolveExecutable(exe: string, cwd: string, pathVar = process.env.PATH ?? ''): string | undefined {
  if (!exe) return undefined;
  if (exe.includes('/')) return canonical(path.resolve(cwd, exe));
  const key = `${pathVar}\0${exe}`;
  if (resolved.has(key)) return resolved.get(key);
  let hit: string | undefined;
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue; // a relative PATH entry would make the answer depend on cwd
    const c = path.join(dir, exe);
    try {
      fs.accessSync(c, fs.constants.X_OK);
      if (fs.statSync(c).isFile()) { hit = canonical(c); break; }
    } catch { /* not here */ }
  }
  resolved.set(key, hit);
  return hit;
}

/** The real path, or the path itself when it cannot be resolved (missing, no permission). */
export function canonical(p: string): string {
  try { return fs.realpathSync.native(p); } catch { return p; }
}
