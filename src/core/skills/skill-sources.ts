// Where skills are found: the person's `~/.pincer/skills/`, then (only in a trusted workspace: a
// skill's instructions steer the agent, and a repository chose them) each workspace folder's
// `.pincer/skills/`, `.github/skills/` and `.claude/skills/`, in that order. Each skill is a folder
// holding a SKILL.md. The first skill of a name wins; later ones, and every broken one, are reported
// with their file and field and left out. Nothing here runs anything.
import fs from 'node:fs';
import path from 'node:path';
import { isWithin } from '../fs/path-canonical';
import { readSkillFile, SKILL_FILE, type Skill, type SkillSourceKind } from './skill-file';

export const WORKSPACE_SKILL_DIRS: readonly string[] = [path.join('.pincer', 'skills'), path.join('.github', 'skills'), path.join('.claude', 'skills')];
export const USER_SKILL_DIR = path.join('.pincer', 'skills');
/** More skills than this from all places together are reported and left out (a runaway folder). */
export const MAX_SKILLS = 5000;

export interface SkillSourcesInput {
  /** The workspace folders on a local disk. */
  workspaceFolders: readonly string[];
  home: string;
  workspaceTrusted: boolean;
}

export interface SkillsRead {
  /** Sorted by name. */
  skills: Skill[];
  /** `<file>: <field>: <what is wrong>`: that skill is not offered. */
  problems: string[];
  /** Folders of skills not read, and why (an untrusted workspace). */
  skipped: { dir: string; reason: string }[];
}

interface Place {
  from: string;
  source: SkillSourceKind;
  /** A workspace skill must stay inside this canonical folder, links included. */
  within?: string;
}

export function skillPlaces(input: SkillSourcesInput): Place[] {
  const user: Place = { from: path.join(input.home, USER_SKILL_DIR), source: 'user' };
  const workspace = input.workspaceFolders.flatMap((folder) => {
    const within = canonical(folder) ?? path.resolve(folder);
    return WORKSPACE_SKILL_DIRS.map((d): Place => ({ from: path.join(folder, d), source: 'workspace', within }));
  });
  return [user, ...workspace];
}

export function discoverSkills(input: SkillSourcesInput): SkillsRead {
  const out: SkillsRead = { skills: [], problems: [], skipped: [] };
  const byName = new Map<string, Skill>();
  for (const place of skillPlaces(input)) {
    const names = entries(place.from);
    if (!names.length) continue;
    if (place.source === 'workspace' && !input.workspaceTrusted) {
      out.skipped.push({ dir: place.from, reason: 'the workspace is not trusted, and its skills would steer the agent' });
      continue;
    }
    for (const name of names) {
      if (byName.size >= MAX_SKILLS) {
        out.problems.push(`${path.join(place.from, name)}: (folder): more than ${MAX_SKILLS} skills in all; this one and later ones are not loaded`);
        break;
      }
      const r = readPlaceEntry(place, name);
      if (!r) continue;
      if ('problem' in r) {
        out.problems.push(r.problem);
        continue;
      }
      const first = byName.get(r.skill.name);
      if (first) out.problems.push(`${r.skill.file}: name: "${r.skill.name}" is already a skill from ${first.file}; this one is not loaded`);
      else byName.set(r.skill.name, r.skill);
    }
  }
  out.skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

/** One entry of a folder of skills: undefined when it is not a skill folder at all (a stray file). */
function readPlaceEntry(place: Place, name: string): { skill: Skill } | { problem: string } | undefined {
  const given = path.join(place.from, name);
  const dir = canonical(given);
  if (!dir || !isDirectory(dir)) return undefined;
  const file = path.join(given, SKILL_FILE);
  if (!fs.existsSync(file)) return undefined;
  // A link in a repository's skills folder must not turn a folder outside it (~/.ssh) into a skill
  // whose files the agent may list and read.
  if (place.within && !isWithin(place.within, dir, false)) return { problem: `${given}: (folder): leads outside the workspace folder (a link); not loaded` };
  const real = canonical(file);
  if (!real || !isWithin(dir, real, false)) return { problem: `${file}: (file): leads outside the skill's folder (a link); not loaded` };
  return readSkillFile({ file, dir, source: place.source, from: place.from });
}

function entries(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => !n.startsWith('.')).sort();
  } catch {
    return [];
  }
}

function canonical(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
