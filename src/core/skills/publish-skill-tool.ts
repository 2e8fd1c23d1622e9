// `publish_skill`: copies a workspace skill's folder into the person's own skills (~/.pincer/skills/),
// so every workspace has it — after the person confirms, since a skill steers the agent everywhere
// from then on. Only plain files and folders are copied: a link could point anywhere on this machine,
// and the copy would make it the person's. The new folder appears whole or not at all (written beside
// the destination, then renamed into place).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, fail, ok, type Tool } from '../tools/types';
import type { Skill } from './skill-file';
import { USER_SKILL_DIR } from './skill-sources';
import type { SkillToolPorts } from './skill-tools';

export const PUBLISH_SKILL = 'publish_skill';
export const MAX_PUBLISH_FILES = 500;
export const MAX_PUBLISH_BYTES = 20_000_000;

export interface PublishRequest {
  skill: Skill;
  /** Where the copy goes. */
  dest: string;
  /** Files to copy, relative to the skill's folder. */
  files: string[];
  /** A skill of that name is already in the person's skills and would be replaced. */
  replacing: boolean;
}

/** The files of a folder to copy, or why it cannot be copied. */
function plainFiles(dir: string): { files: string[]; bytes: number } | { refused: string } {
  const files: string[] = [];
  let bytes = 0;
  const walk = (abs: string, rel: string): string | undefined => {
    for (const name of fs.readdirSync(abs).sort()) {
      const r = rel ? path.join(rel, name) : name;
      const st = fs.lstatSync(path.join(abs, name));
      if (st.isSymbolicLink()) return `${r} is a link; publish copies plain files only`;
      if (st.isDirectory()) {
        const why = walk(path.join(abs, name), r);
        if (why) return why;
      } else if (st.isFile()) {
        files.push(r);
        bytes += st.size;
        if (files.length > MAX_PUBLISH_FILES) return `it has more than ${MAX_PUBLISH_FILES} files`;
        if (bytes > MAX_PUBLISH_BYTES) return `it is larger than ${MAX_PUBLISH_BYTES} bytes`;
      } else return `${r} is not a regular file`;
    }
    return undefined;
  };
  const why = walk(dir, '');
  return why ? { refused: why } : { files, bytes };
}

async function copyInto(skill: Skill, files: readonly string[], dest: string): Promise<void> {
  const parent = path.dirname(dest);
  await fs.promises.mkdir(parent, { recursive: true });
  const tmp = path.join(parent, `.publish-${skill.name}-${randomBytes(6).toString('hex')}`);
  const old = `${tmp}-old`;
  try {
    for (const f of files) {
      await fs.promises.mkdir(path.dirname(path.join(tmp, f)), { recursive: true });
      // COPYFILE_EXCL: the temporary folder is new, so anything already there is a race to refuse.
      await fs.promises.copyFile(path.join(skill.dir, f), path.join(tmp, f), fs.constants.COPYFILE_EXCL);
    }
    const exists = await fs.promises.lstat(dest).then(() => true, () => false);
    if (exists) await fs.promises.rename(dest, old);
    await fs.promises.rename(tmp, dest);
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true });
    await fs.promises.rm(old, { recursive: true, force: true });
  }
}

export function createPublishSkillTool(ports: SkillToolPorts): Tool {
  return defineTool({
    name: PUBLISH_SKILL,
    description: 'Copies a skill of this workspace into the person\'s own skills (~/.pincer/skills/), so it is there in every workspace. '
      + 'The person is asked to confirm first.',
    parameters: z.object({
      name: z.string().min(1).describe('The workspace skill\'s name.'),
      replace: z.boolean().optional().describe('Replace a skill of the same name already in the person\'s skills (default false).'),
    }),
    group: 'skills',
    capability: 'mutating',
    ownerOnly: true,
    interactive: true,
    async execute({ name, replace }) {
      const skill = ports.catalog.get(name);
      if (!skill || skill.source !== 'workspace') {
        return fail(skill ? `"${name}" is already one of the person's skills (${skill.file}).` : `There is no workspace skill "${name}".`);
      }
      if (!ports.confirmPublish) return fail('Publishing a skill needs a person to confirm it, and no one can be asked here; publish it from the editor.');
      const dest = path.join(ports.home, USER_SKILL_DIR, skill.name);
      const replacing = fs.existsSync(dest);
      if (replacing && !replace) return fail(`The person already has a skill folder "${skill.name}" (${dest}). Call again with replace: true to replace it (they will be asked).`);
      const plain = plainFiles(skill.dir);
      if ('refused' in plain) return fail(`The skill "${name}" cannot be published: ${plain.refused}.`);
      const yes = await ports.confirmPublish({ skill, dest, files: plain.files, replacing });
      if (!yes) return fail(`The person did not publish the skill "${name}".`, { outcome: 'rejected-by-user' });
      await copyInto(skill, plain.files, dest);
      ports.catalog.invalidate();
      return ok(`Published the skill "${name}" to ${dest} (${plain.files.length} file${plain.files.length === 1 ? '' : 's'}).`, {
        details: { skill: name, dest, files: plain.files.length, replaced: replacing },
      });
    },
  });
}
