// Which routed file (if any) a file tool's `path` argument names. The argument is expanded exactly
// as the path guard expands it (relative to the first root, absolute, `@path`, `file://`, `~`,
// `/workspace/…`, a multi-root folder name), so every spelling the guard would map to
// <first root>/SOUL.md is routed, and none of them reaches the disk copy. Symlinks are not followed:
// routing is about names, and a routed file never touches the disk.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expandInput, validateInput } from '../fs/path-input';
import { routeOf, type Route } from './routed-paths';

export interface Located {
  /** The input names the first root itself. */
  root: boolean;
  route?: Route;
}

/** Where `input` points, relative to roots[0]; { root: false } for anything unusable (the guard reports it). */
export function locateInput(input: unknown, roots: readonly string[], routedNames?: readonly string[]): Located {
  if (typeof input !== 'string' || roots.length === 0) return { root: false };
  let abs: string;
  try {
    abs = expandInput(validateInput(input), {
      roots,
      rootNames: roots.length > 1 ? roots.map((r) => path.basename(r)) : [],
      home: os.homedir(),
      containerRootExists: () => fs.existsSync('/workspace'),
    });
  } catch {
    return { root: false };
  }
  const rel = path.relative(path.resolve(roots[0]!), abs);
  if (rel === '') return { root: true };
  if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return { root: false };
  const route = routeOf(rel.split(path.sep).join('/'), routedNames);
  return route ? { root: false, route } : { root: false };
}
