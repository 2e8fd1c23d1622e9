// Files dropped on the chat from VS Code (the Explorer, an editor tab) arrive as URIs, not bytes: the
// host looks each one up and this file decides what becomes of it. An image file of the workspace is
// attached as an image (the host reads it, as the page would read one dropped from the desktop);
// another file of the workspace becomes a file chip (the model reads it with read_file, through the
// path guard); anything outside the workspace, a folder, or a file that is gone is refused in words.
// URIs are compared by their normalised paths, so `/ws/../etc/x.png` is not taken for a file of `/ws`.
// Being inside a workspace folder is not enough: every dropped file is also put to the path guard the
// file tools use (planGuardedDrop), so a drop attaches nothing read_file or read_image would refuse.
import { posix } from 'node:path';
import type { PathResolver } from '../fs/types';
import { CHAT_LIMITS, type ContextChip, type PastedImage } from './chat-protocol-parts';

/** One dropped URI as the host found it. */
export interface DroppedEntry {
  /** The URI's path (its `path` part: forward slashes, absolute). */
  path: string;
  /** What the host found there; `missing` also for an address that is not a file's. */
  kind: 'file' | 'folder' | 'missing';
  /** Bytes, for a file. */
  size?: number;
  /** The path on this machine's disk (a `file:` URI's), which the path guard checks; absent for other URIs. */
  local?: string;
}

const IMAGE_TYPES: Record<string, PastedImage['mimeType']> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The image type a file's name says, or undefined (the host recognises the image by its bytes later). */
export function imageTypeOf(path: string): PastedImage['mimeType'] | undefined {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') ? IMAGE_TYPES[path.slice(dot + 1).toLowerCase()] : undefined;
}

/** `path` relative to the first of `roots` that holds it (all normalised first), or undefined. */
export function insideRoots(path: string, roots: readonly string[]): string | undefined {
  const p = posix.normalize(path);
  for (const root of roots) {
    const r = posix.normalize(root).replace(/\/+$/, '');
    if (p.startsWith(`${r}/`) && p.length > r.length + 1) return p.slice(r.length + 1);
  }
  return undefined;
}

export interface DropPlan<T extends DroppedEntry> {
  /** Image files to read and attach, with their workspace-relative path and type. */
  images: { entry: T; rel: string; mimeType: PastedImage['mimeType'] }[];
  chips: ContextChip[];
  refused: string[];
}

/** What to do with each dropped entry; `roots`: the paths of the workspace folders on the entry's file system. */
export function planDrop<T extends DroppedEntry>(entries: readonly T[], roots: (entry: T) => readonly string[]): DropPlan<T> {
  const plan: DropPlan<T> = { images: [], chips: [], refused: [] };
  for (const entry of entries) {
    const rel = insideRoots(entry.path, roots(entry));
    const name = rel ?? posix.normalize(entry.path);
    const type = imageTypeOf(name);
    if (rel === undefined) plan.refused.push(`${name} is outside this workspace: drop it from your desktop instead, or copy it into the workspace.`);
    else if (entry.kind === 'missing') plan.refused.push(`${name} was not found.`);
    else if (entry.kind === 'folder') plan.refused.push(`${name} is a folder: drop the files in it, or name it in your message.`);
    else if (!type) plan.chips.push({ kind: 'file', path: rel, origin: 'user' });
    else if ((entry.size ?? 0) > CHAT_LIMITS.imageBytes) plan.refused.push(`${name} is ${((entry.size ?? 0) / 1e6).toFixed(1)} MB; an image may have at most ${CHAT_LIMITS.imageBytes / 1e6} MB.`);
    else if (plan.images.length >= CHAT_LIMITS.images) plan.refused.push(`${name} was not added: a message takes at most ${CHAT_LIMITS.images} images.`);
    else plan.images.push({ entry, rel, mimeType: type });
  }
  return plan;
}

/** A dropped entry the path guard cleared: `abs` is the canonical path it resolved (symlinks followed). */
export type Guarded<T extends DroppedEntry> = T & { abs?: string };

/**
 * planDrop for entries the path guard has seen first: each file inside a workspace folder is resolved
 * for reading by `guard` (the toolset's own, as read_file and read_image use it), and one it refuses (a
 * denied glob such as `.env`, a `.git` internal, a configured deny path, Pincer's storage, a symlink
 * that leads out of the workspace) is refused here with the guard's own reason. A file with no local
 * path cannot be checked, so it is refused too. Cleared files carry the canonical path the guard
 * resolved, and the host reads an image from there rather than through whatever link was dropped.
 */
export async function planGuardedDrop<T extends DroppedEntry>(
  entries: readonly T[], roots: (entry: T) => readonly string[], guard: Pick<PathResolver, 'resolve'>,
): Promise<DropPlan<Guarded<T>>> {
  const refused: string[] = [];
  const cleared: Guarded<T>[] = [];
  for (const entry of entries) {
    // Folders, missing files and files outside every folder are refused by planDrop in its own words.
    if (entry.kind !== 'file' || insideRoots(entry.path, roots(entry)) === undefined) {
      cleared.push(entry);
      continue;
    }
    const name = posix.normalize(entry.path);
    if (entry.local === undefined) {
      refused.push(`${name} is not on this machine's disk, so Pincer's path guard cannot check it: name it in your message instead.`);
      continue;
    }
    try {
      cleared.push({ ...entry, abs: (await guard.resolve(entry.local, 'read')).abs });
    } catch (e) {
      // Whatever the guard throws refuses the file: a PathError says why, anything else is not a clearance.
      const why = e instanceof Error ? e.message : String(e);
      refused.push(e instanceof Error && e.name === 'PathError' ? `Not attached: ${why}` : `${name} was not attached: the path guard could not check it (${why}).`);
    }
  }
  const plan = planDrop(cleared, roots);
  plan.refused.unshift(...refused);
  return plan;
}
