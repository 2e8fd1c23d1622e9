// The files beside a SKILL.md (scripts, templates, reference notes): listed when the skill is used and
// read one at a time through a path guard whose only root is the skill's folder — the same resolver
// the file tools use — so `../`, an absolute path, `~` or a link leading out of the folder is refused
// as it would be for read_file, and the deny rules (`.git` internals, Pincer's storage) apply.
import fs from 'node:fs';
import path from 'node:path';
import { PathGuard, openVerified } from '../fs/path-guard';
import type { Skill } from './skill-file';
import { SKILL_FILE } from './skill-file';

/** Entries listed at most, and how deep the listing goes: a skill with more is a repository, not a skill. */
export const MAX_LISTED_FILES = 200;
const MAX_DEPTH = 4;
/** A file of a skill larger than this is not read at all (its head would rarely be what is wanted). */
export const MAX_SKILL_ASSET_BYTES = 1_000_000;

export interface SkillFileLimits {
  denyPaths: readonly string[];
  alwaysDeny: readonly string[];
  home: string;
  maxChars: number;
}

/** Paths relative to the skill's folder (forward slashes), SKILL.md left out; `more` when the listing stopped early. */
export function listSkillFiles(skill: Skill): { files: string[]; more: boolean } {
  const files: string[] = [];
  let more = false;
  const walk = (dir: string, rel: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && e.name === SKILL_FILE) continue;
      if (files.length >= MAX_LISTED_FILES) {
        more = true;
        return;
      }
      // Links are listed, never followed: reading one goes through the guard, which refuses a way out.
      if (e.isDirectory()) {
        if (depth < MAX_DEPTH) walk(path.join(dir, e.name), r, depth + 1);
        else more = true;
      } else files.push(r);
    }
  };
  walk(skill.dir, '', 1);
  return { files, more };
}

/** One file of a skill as text, cut at `maxChars` with a note; a PathError when the path leaves the folder. */
export async function readSkillAsset(skill: Skill, file: string, limits: SkillFileLimits): Promise<{ text: string; path: string; truncated: boolean }> {
  const guard = new PathGuard({
    roots: [skill.dir], workspaceOnly: true, allowPaths: [], denyPaths: [...limits.denyPaths], alwaysDeny: [...limits.alwaysDeny], home: limits.home,
  });
  const resolved = await guard.resolve(file, 'read');
  if (!resolved.exists) throw new SkillAssetError(`"${file}" is not a file of the skill "${skill.name}". Its files are listed when you use it.`);
  // O_NONBLOCK: a FIFO placed in the folder must not hang the call; it is refused below as not a file.
  const handle = await openVerified(resolved, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new SkillAssetError(`"${file}" in the skill "${skill.name}" is not a regular file.`);
    if (st.size > MAX_SKILL_ASSET_BYTES) throw new SkillAssetError(`"${file}" in the skill "${skill.name}" is ${st.size} bytes, more than the ${MAX_SKILL_ASSET_BYTES}-byte limit for a skill's file.`);
    const buf = Buffer.alloc(st.size);
    const { bytesRead } = await handle.read(buf, 0, st.size, 0);
    const bytes = buf.subarray(0, bytesRead);
    if (bytes.includes(0)) throw new SkillAssetError(`"${file}" in the skill "${skill.name}" is a binary file; only text files can be read this way.`);
    const text = bytes.toString('utf8');
    const truncated = text.length > limits.maxChars;
    return { text: truncated ? text.slice(0, limits.maxChars) : text, path: resolved.rel, truncated };
  } finally {
    await handle.close();
  }
}

/** A refusal with a message meant for the model (the tool turns it into an error result). */
export class SkillAssetError extends Error {}
