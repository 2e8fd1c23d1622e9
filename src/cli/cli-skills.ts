// Skills in the CLI: the person's ~/.pincer/skills always; the workspace's only with
// --trust-workspace (never with --untrusted), as there is no one to ask and their instructions steer
// the agent. Broken skills are reported on stderr with their file and field. No one can confirm a
// publish here, so publish_skill refuses.
import os from 'node:os';
import { SkillCatalog } from '../core/skills/skill-catalog';
import type { Values } from './main';

export function cliSkills(values: Values, root: string, warn: (m: string) => void): SkillCatalog {
  const catalog = new SkillCatalog({ folders: () => [root], home: os.homedir(), trusted: () => !!values['trust-workspace'] && !values.untrusted });
  const read = catalog.current();
  for (const p of read.problems) warn(`skill: ${p}`);
  const how = values.untrusted ? 'not with --untrusted' : 'pass --trust-workspace to load them';
  for (const s of read.skipped) warn(`skills in ${s.dir} not loaded: their instructions would steer the agent (${how})`);
  return catalog;
}
