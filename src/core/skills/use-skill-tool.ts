// `use_skill`: loads a skill's instructions into the turn and lists the files beside them; with
// `file`, reads one of those files. The skills themselves are listed in this tool's description (name
// and description only, sorted by name, so the prefix providers cache stays the same from request to
// request); the instructions arrive only when the model uses a skill. A skill with `allowed-tools`
// narrows the rest of the turn to them (ToolResult.narrowTools), never widens it.
import { z } from 'zod';
import { defineTool, fail, ok, type Tool } from '../tools/types';
import { narrowFor } from './allowed-tools';
import type { Skill } from './skill-file';
import { listSkillFiles, readSkillAsset, SkillAssetError } from './skill-files';
import type { SkillToolPorts } from './skill-tools';

export const USE_SKILL = 'use_skill';
/** How much of the description the skills list may take; beyond it skill_search finds the rest. */
export const LISTING_BUDGET_CHARS = 12_000;

export function describeSkills(skills: readonly Skill[]): string {
  const head = 'Loads a skill: instructions for a kind of task, with files beside them, written by the person or the workspace. '
    + 'When a task matches a skill below, use it before doing the task and follow its instructions; pass `file` to read one of the files it lists.';
  if (!skills.length) return `${head}\n\nNo skills are installed now.`;
  const lines: string[] = [];
  let used = 0;
  for (const s of skills) {
    const line = `- ${s.name}: ${s.description}`;
    if (used + line.length > LISTING_BUDGET_CHARS) break;
    lines.push(line);
    used += line.length + 1;
  }
  const rest = skills.length - lines.length;
  const more = rest ? `\n(${rest} more skill${rest === 1 ? '' : 's'}: find them with skill_search.)` : '';
  return `${head}\n\nSkills:\n${lines.join('\n')}${more}`;
}

function whereFrom(s: Skill): string {
  return s.source === 'user' ? `your skills (${s.from})` : `the workspace (${s.from})`;
}

export function createUseSkillTool(ports: SkillToolPorts): Tool {
  return defineTool({
    name: USE_SKILL,
    description: describeSkills(ports.catalog.enabled()),
    parameters: z.object({
      name: z.string().min(1).describe('The skill\'s name, as listed.'),
      file: z.string().min(1).optional().describe('A file the skill lists, relative to its folder: returns that file instead of the instructions.'),
    }),
    group: 'skills',
    capability: 'read-only',
    async execute({ name, file }, ctx) {
      const skill = ports.catalog.get(name);
      if (!skill) {
        const like = ports.catalog.search(name, 3).map((s) => s.name);
        return fail(`There is no skill "${name}".${like.length ? ` Similar: ${like.join(', ')}.` : ''} skill_search finds skills by what they do.`);
      }
      if (file !== undefined) {
        try {
          const r = await readSkillAsset(skill, file, { ...ports.files(), maxChars: ports.maxChars() });
          const cut = r.truncated ? `\n\n[cut at ${ports.maxChars()} characters]` : '';
          return ok(`${r.text}${cut}`, { details: { skill: skill.name, file: r.path, truncated: r.truncated } });
        } catch (e) {
          if (e instanceof SkillAssetError) return fail(e.message);
          throw e;
        }
      }
      const listing = listSkillFiles(skill);
      const parts = [`# Skill "${skill.name}" from ${whereFrom(skill)}`, '', skill.body || '(This skill has no instructions beyond its description.)'];
      if (listing.files.length) {
        parts.push('', `Files of this skill (read one with ${USE_SKILL} {"name": "${skill.name}", "file": "<path>"}):`, ...listing.files.map((f) => `- ${f}`));
        if (listing.more) parts.push('- … (more files not listed)');
      }
      const extra: { narrowTools?: string[] } = {};
      if (skill.allowedTools) {
        const n = narrowFor(skill.allowedTools, ports.registry(), ctx);
        extra.narrowTools = n.keep;
        parts.push('', `This skill allows only these tools for the rest of the turn: ${n.keep.join(', ') || '(none)'}.`);
        if (n.reduced.length) parts.push(`Argument patterns are not checked here (${n.reduced.join(', ')}): those tools' own rules and approvals still apply.`);
      }
      ports.used?.(skill.name);
      return ok(parts.join('\n'), {
        ...extra,
        forUser: `Used the skill **${skill.name}** from ${whereFrom(skill)}.`,
        details: { skill: skill.name, source: skill.source, file: skill.file, files: listing.files.length, ...(extra.narrowTools ? { narrowTools: extra.narrowTools } : {}) },
      });
    },
  });
}
