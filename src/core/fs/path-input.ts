// What a model may type for a path, turned into one absolute, cleaned path (no symlinks followed
// yet): relative to the first root or to a named root folder, `@path` mentions, `~`, `file://`
// URIs (percent-decoded) and the `/workspace/…` paths of container-trained models.
//
// Only real separators count: backslashes are ordinary name characters on POSIX, and lookalikes
// such as fullwidth `．．／` or `∕` are never folded into `../` (no NFKC here), so they stay names.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isCleanAbsolute } from './path-canonical';
import { PathError } from './types';

export interface InputContext {
  /** Roots as configured (not canonicalised): relative paths join roots[0]. */
  roots: readonly string[];
  rootNames: readonly string[];
  home: string;
  /** Whether `/workspace` exists here; when it does not, `/workspace/x` means roots[0]/x. */
  containerRootExists: () => boolean;
}

const CONTAINER_ROOT = '/workspace';

export function invalid(message: string): PathError {
  return new PathError(message, 'invalid');
}

function shown(input: string): string {
  return JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input);
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Rejects what can never be a path; strips the line breaks models sometimes append. */
export function validateInput(input: unknown): string {
  if (typeof input !== 'string') throw invalid(`A path must be a string, not ${input === null ? 'null' : typeof input}.`);
  if (input.includes('\0')) throw invalid(`The path ${shown(input.replace(/\0/g, '\\0'))} contains a NUL byte, which no file name can hold.`);
  const trimmed = input.replace(/^[\r\n]+|[\r\n]+$/g, '');
  if (trimmed.trim() === '') throw invalid('The path is empty: give a file or folder path relative to the workspace root (for example "src/index.ts").');
  return trimmed;
}

function fromFileUri(input: string): string {
  let out: string;
  try {
    out = fileURLToPath(input);
  } catch (err) {
    throw invalid(`${shown(input)} is not a usable file:// URI (${(err as Error).message}). Give a plain path instead.`);
  }
  if (out.includes('\0')) throw invalid(`The URI ${shown(input)} decodes to a path with a NUL byte.`);
  return out;
}

function fromHome(p: string, home: string): string | undefined {
  if (p === '~') return home;
  if (p.startsWith('~/') || (path.sep === '\\' && p.startsWith('~\\'))) return path.join(home, p.slice(2));
  return undefined;
}

/** `ws2/src/a.ts` in a multi-root workspace names the folder `ws2`, unless roots[0] has a `ws2`. */
function fromRootName(p: string, ctx: InputContext): string | undefined {
  if (ctx.rootNames.length === 0 || ctx.roots.length === 0) return undefined;
  const first = p.split(/[/\\]/)[0];
  const i = ctx.rootNames.indexOf(first);
  if (i < 0 || i >= ctx.roots.length) return undefined;
  if (exists(path.join(ctx.roots[0], first))) return undefined;
  return path.join(ctx.roots[i], p.slice(first.length));
}

function fromContainer(p: string, ctx: InputContext): string | undefined {
  if (path.sep !== '/' || ctx.roots.length === 0) return undefined;
  if (p !== CONTAINER_ROOT && !p.startsWith(`${CONTAINER_ROOT}/`)) return undefined;
  if (ctx.roots.some((r) => path.resolve(r) === CONTAINER_ROOT) || ctx.containerRootExists()) return undefined;
  return path.join(ctx.roots[0], p.slice(CONTAINER_ROOT.length));
}

function mentionStripped(p: string, ctx: InputContext): string {
  if (!p.startsWith('@') || p.length === 1) return p;
  // A real `@scope` folder at the root wins over the mention syntax.
  const first = p.split(/[/\\]/)[0];
  if (ctx.roots.length > 0 && !path.isAbsolute(p) && exists(path.join(ctx.roots[0], first))) return p;
  return p.slice(1);
}

/** The absolute, cleaned path `input` names, before symlinks are followed. */
export function expandInput(raw: string, ctx: InputContext): string {
  let p = mentionStripped(raw, ctx);
  if (/^file:/i.test(p)) p = fromFileUri(p);
  p = fromHome(p, ctx.home) ?? p;
  if (path.isAbsolute(p)) {
    // A clean absolute path is its own path.resolve (the judge's write targets come so).
    const abs = isCleanAbsolute(p) ? p : path.resolve(p);
    const moved = fromContainer(abs, ctx);
    return moved === undefined ? abs : path.resolve(moved);
  }
  if (ctx.roots.length === 0) {
    throw invalid(`${shown(raw)} is relative, but no workspace folder is open. Open a folder or give an absolute path.`);
  }
  return path.resolve(fromRootName(p, ctx) ?? path.join(ctx.roots[0], p));
}
