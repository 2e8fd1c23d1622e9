// Which workspace paths are Pincer's own files rather than the repository's: the agent's context
// files at the workspace root, and its memory (MEMORY.md, memory.md, memory/**). One function
// decides, for the interceptors in front of the file tools and for the pincer-memory: provider.
//
// Decisions:
// - Routing is by meaning, not spelling: the path is normalised first ('./SOUL.md', 'a/../SOUL.md'
//   and 'memory\\a.md' are SOUL.md and memory/a.md), so no spelling reaches the disk copy of a
//   routed file. Backslashes count as separators here even on POSIX: a model writing
//   'memory\\a.md' means the memory folder.
// - Only root-level names are context files: src/SOUL.md is an ordinary file.
// - Names are case-sensitive (MEMORY.md and memory.md are two documents, as in GoClaw).
// - What normalises to outside the root ('memory/../../x'), absolute paths, '~' paths and paths
//   with NUL are not routed: they go on to the path guard, which refuses or resolves them as for
//   any file. Routing never turns a hostile path into a row.
// - TOOLS.md is not routed (it describes the local machine's tools, which belong with the repo).
import * as path from 'node:path';

export type RoutedKind = 'context' | 'memory';

/** The routed context files (GoClaw's seven; TOOLS.md deliberately not among them). */
export const CONTEXT_FILE_NAMES: readonly string[] = Object.freeze([
  'SOUL.md', 'IDENTITY.md', 'AGENTS.md', 'USER.md', 'USER_PREDEFINED.md', 'BOOTSTRAP.md', 'HEARTBEAT.md',
]);

/** Root-level memory documents, and the memory folder. */
export const MEMORY_ROOT_FILES: readonly string[] = Object.freeze(['MEMORY.md', 'memory.md']);
export const MEMORY_DIR = 'memory';

export interface Route {
  kind: RoutedKind;
  /** Normalised, forward slashes, relative to the workspace root; 'memory' is the folder itself. */
  path: string;
}

/** The context names actually routed: the setting's names that are among the seven. */
export function effectiveRoutedNames(routedNames: readonly string[] | undefined): readonly string[] {
  if (!routedNames) return CONTEXT_FILE_NAMES;
  return CONTEXT_FILE_NAMES.filter((n) => routedNames.includes(n));
}

/** The normalised relative form of `relPath`, or undefined when it is not a plain in-root relative path. */
export function normaliseRelative(relPath: string): string | undefined {
  if (typeof relPath !== 'string' || relPath.includes('\0')) return undefined;
  const slashed = relPath.replace(/\\/g, '/');
  if (slashed.startsWith('/') || slashed.startsWith('~') || /^[A-Za-z]:/.test(slashed) || /^[a-z][a-z0-9+.-]*:\/\//i.test(slashed)) return undefined;
  const norm = path.posix.normalize(slashed).replace(/\/+$/, '');
  if (norm === '' || norm === '.' || norm === '..' || norm.startsWith('../')) return undefined;
  return norm;
}

/**
 * Whether a workspace-relative path is routed, and its normalised form. `routedNames` is the
 * pincer.contextFiles.routed setting (default: all seven context files).
 */
export function routeOf(relPath: string, routedNames?: readonly string[]): Route | undefined {
  const norm = normaliseRelative(relPath);
  if (norm === undefined) return undefined;
  if (MEMORY_ROOT_FILES.includes(norm)) return { kind: 'memory', path: norm };
  if (norm === MEMORY_DIR || norm.startsWith(`${MEMORY_DIR}/`)) return { kind: 'memory', path: norm };
  if (!norm.includes('/') && effectiveRoutedNames(routedNames).includes(norm)) return { kind: 'context', path: norm };
  return undefined;
}
