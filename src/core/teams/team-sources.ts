// Where a window's teams come from: `.pincer/teams/*.md` in the workspace folder and the
// `pincer.teams` setting, read together (a file wins over a setting of the same id), with every
// problem named by its file or setting. The editor reads them again when a file or the setting changes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { definesNothing } from '../setting-value';
import type { TeamDefinition } from './team-definition';

/**
 * The definitions' schemas, required when there is a team to read: a window without teams (most) does
 * not evaluate them when the runtime loads. A literal path, so that esbuild bundles it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const definitions = () => require('./team-definition') as typeof import('./team-definition');

export const TEAMS_DIR = path.join('.pincer', 'teams');

export function readTeams(folder: string | undefined, setting: unknown): { teams: TeamDefinition[]; problems: string[] } {
  const problems: string[] = [];
  const dir = folder && path.join(folder, TEAMS_DIR);
  let names: string[] = [];
  try {
    names = dir ? fs.readdirSync(dir).filter((n) => n.endsWith('.md')).sort() : [];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${dir}: ${(e as Error).message}`);
  }
  if (!names.length && definesNothing(setting)) return { teams: [], problems };
  const { mergeTeams, parseSettingsTeams, parseTeamFile } = definitions();
  const fromSettings = parseSettingsTeams(setting);
  problems.unshift(...fromSettings.errors);
  const files: TeamDefinition[] = [];
  for (const name of names) {
    const file = path.join(dir!, name);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      problems.push(`${file}: ${(e as Error).message}`);
      continue;
    }
    const r = parseTeamFile(file, text);
    if (r.team) files.push(r.team);
    problems.push(...r.errors);
  }
  return { teams: mergeTeams(files, fromSettings.teams), problems };
}
