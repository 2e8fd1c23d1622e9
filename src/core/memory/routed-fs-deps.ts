// The file tools' dependencies (FsToolDeps) over Pincer's store instead of the disk, for one agent
// and user. The interceptors run the very same read_file / write_file / edit / list_files /
// apply_patch code against these, so paging, fuzzy edit matching, encodings and messages are the
// tools' own, not a second copy.
// - guard: maps a routed path to a virtual absolute path under the first root; refuses a write the
//   model may not make (the reason from RoutedFiles) and a read of a missing file (its message).
// - fs: reads, writes, stats and lists through RoutedFiles as the model ('model' actor).
// - reviewer: applies at once. These are the agent's own files, not the repository's: there is no
//   diff to review and no checkpoint to keep.
import * as path from 'node:path';
import { PathError, type Access, type EditReviewer, type FileStat, type FsToolDeps, type PathResolver, type ResolvedPath, type WorkspaceFs } from '../fs/types';
import type { RoutedFiles } from './routed-files';
import { MEMORY_DIR, MEMORY_ROOT_FILES, routeOf, type Route } from './routed-paths';
import type { Scope } from './types';

/** What the last write of a path did (deleted BOOTSTRAP.md, chunks indexed), for the result note. */
export interface WriteOutcome {
  deleted?: boolean;
  chunks?: number;
  level: 'user' | 'agent';
}

export interface RoutedFsOptions {
  routed: RoutedFiles;
  who: Scope;
  /** The first workspace root: virtual paths live under it. */
  root: string;
  /** The routed file a tool argument names (same answer as the interceptor's). */
  locate: (input: string) => Route | undefined;
  routedNames: () => readonly string[] | undefined;
  /** Filled by writes, keyed by routed path; the interceptor takes the entry after the call. */
  outcomes: Map<string, WriteOutcome>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function notFound(rel: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${rel} does not exist in Pincer's store`), { code: 'ENOENT' });
}

export function routedFsDeps(o: RoutedFsOptions): FsToolDeps {
  const { routed, who, root } = o;
  const routeAbs = (abs: string): Route | undefined => {
    const rel = path.relative(root, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return routeOf(rel.split(path.sep).join('/'), o.routedNames());
  };
  const need = (abs: string): Route => {
    const r = routeAbs(abs);
    if (!r) throw Object.assign(new Error(`${abs} is not one of Pincer's routed files`), { code: 'EINVAL' });
    return r;
  };

  const fs: WorkspaceFs = {
    async stat(abs): Promise<FileStat | undefined> {
      const r = routeAbs(abs);
      if (!r) return undefined;
      if (r.path === MEMORY_DIR) return { type: 'directory', size: 0, mtime: 0 };
      const file = await routed.read(who, r.path);
      if (file) return { type: 'file', size: Buffer.byteLength(file.content, 'utf8'), mtime: file.updatedAt ?? 0 };
      if (r.kind === 'memory' && !MEMORY_ROOT_FILES.includes(r.path) && (await routed.list(who, r.path)).length) {
        return { type: 'directory', size: 0, mtime: 0 };
      }
      return undefined;
    },
    async readFile(abs): Promise<Uint8Array> {
      const r = need(abs);
      const file = await routed.read(who, r.path);
      if (!file) throw notFound(r.path);
      return encoder.encode(file.content);
    },
    async writeFile(abs, data): Promise<void> {
      const r = need(abs);
      o.outcomes.set(r.path, await routed.write(who, r.path, decoder.decode(data), { actor: 'model' }));
    },
    async readDirectory(abs): Promise<[string, FileStat['type']][]> {
      const r = need(abs);
      const entries = await routed.list(who, r.path);
      return entries.map((e) => [e.path.slice(e.path.lastIndexOf('/') + 1), e.directory ? 'directory' : 'file']);
    },
    async delete(abs): Promise<void> {
      const r = need(abs);
      await routed.delete(who, r.path, { actor: 'model' });
      o.outcomes.set(r.path, { deleted: true, level: 'user' });
    },
    async rename(): Promise<void> {
      throw Object.assign(new Error('routed files cannot be renamed in place; write the new name and delete the old one'), { code: 'ENOTSUP' });
    },
  };

  const guard: PathResolver = {
    roots: [root],
    isDenied: () => false,
    async resolve(input: string, access: Access): Promise<ResolvedPath> {
      const route = o.locate(input);
      if (!route) throw new PathError(`${JSON.stringify(input)} is not one of Pincer's routed files.`, 'invalid');
      const abs = path.join(root, ...route.path.split('/'));
      if (access === 'write') {
        if (/[/\\]$/.test(input.trim())) throw new PathError(`${input} ends with a slash: give the path of a file, such as ${route.path}/notes.md.`, 'invalid');
        const w = routed.writable(who, route.path, 'model');
        if (!w.ok) throw new PathError(w.reason, 'denied');
      }
      const exists = (await fs.stat(abs)) !== undefined;
      if (access === 'read' && !exists) throw new PathError(await routed.missingMessageFor(who, route.path), 'not-found');
      return { abs, root, rel: route.path, input, exists };
    },
  };

  // AutoApplyReviewer would do, but it keeps every change it applied (for tests): these deps are
  // cached per agent and user for the session, so that list would only grow.
  const reviewer: EditReviewer = {
    async review(changes, signal) {
      for (const c of changes) {
        signal.throwIfAborted();
        if (c.after === undefined) await fs.delete(c.path.abs);
        else await fs.writeFile(c.path.abs, c.afterBytes ?? encoder.encode(c.after));
      }
      return changes.map(() => ({ decision: 'accepted' as const }));
    },
  };
  return { guard, fs, reviewer };
}
