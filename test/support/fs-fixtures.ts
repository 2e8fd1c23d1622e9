// Real temporary workspaces for the filesystem tests: build a tree from a {path: content} map,
// make links in it, and remove everything in an after() hook.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DEFAULT_DENY_PATHS, PathGuard } from '../../src/core/fs/path-guard';
import type { PathGuardConfig } from '../../src/core/fs/types';

/** A file's content, or null for an empty folder. */
export type TreeSpec = Record<string, string | Uint8Array | null>;

const made: string[] = [];

/** A fresh, canonical (realpath'd) temp folder, removed by removeTempDirs(). */
export function tempDir(label = 'fs'): string {
  const dir = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), `pincer-${label}-`)));
  made.push(dir);
  return dir;
}

/** Writes `files` under `root` (parents created); keys use forward slashes. */
export function writeTree(root: string, files: TreeSpec): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, ...rel.split('/'));
    if (content === null) {
      fs.mkdirSync(abs, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

export interface Workspace {
  /** Canonical root of the workspace. */
  root: string;
  /** Absolute path of `rel` (forward slashes) inside the root. */
  path(rel: string): string;
  read(rel: string): string;
  exists(rel: string): boolean;
}

/** A temp workspace holding `files`. */
export function makeWorkspace(files: TreeSpec = {}, label = 'ws'): Workspace {
  const root = tempDir(label);
  writeTree(root, files);
  return workspaceAt(root);
}

export function workspaceAt(root: string): Workspace {
  const at = (rel: string): string => path.join(root, ...rel.split('/'));
  return {
    root,
    path: at,
    read: (rel) => fs.readFileSync(at(rel), 'utf8'),
    exists: (rel) => fs.existsSync(at(rel)),
  };
}

/** A symlink at `linkPath` pointing to `target` (absolute or relative to the link's folder). */
export function link(target: string, linkPath: string): void {
  fs.mkdirSync(path.dirname(linkPath), { recursive: true });
  fs.symlinkSync(target, linkPath);
}

/** A guard config for `roots` with the usual defaults; override any field. */
export function guardConfig(roots: string[], over: Partial<PathGuardConfig> = {}): PathGuardConfig {
  return { roots, workspaceOnly: true, allowPaths: [], denyPaths: [...DEFAULT_DENY_PATHS], alwaysDeny: [], home: os.homedir(), ...over };
}

export function makeGuard(roots: string[], over: Partial<PathGuardConfig> = {}): PathGuard {
  return new PathGuard(guardConfig(roots, over));
}

/**
 * For an after() hook: removes the folders tempDir made — when the test process ends. Removing them
 * at once would take other suites' folders too (the list is one per process, and a suite may make
 * its workspace while mocha loads the files, long before its tests run).
 */
export function removeTempDirs(): void {
  if (cleanupRegistered) return;
  cleanupRegistered = true;
  process.once('exit', () => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
}
let cleanupRegistered = false;
