// SKILL.md text for the skills tests.
export const skillMd = (name: string, description: string, body = `Instructions of ${name}.`, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;

import { SkillCatalog } from '../../../src/core/skills/skill-catalog';
import type { PublishRequest } from '../../../src/core/skills/publish-skill-tool';
import { createSkillTools } from '../../../src/core/skills/skill-tools';
import type { PincerRuntime } from '../../../src/core/runtime';
import { policyTools, runtimeWith } from '../../support/test-tools';
import { tempDir, writeTree, type TreeSpec } from '../../support/fs-fixtures';

export interface SkillRig {
  rt: PincerRuntime;
  home: string;
  ws: string;
  catalog: SkillCatalog;
  /** What publish_skill asked, in order. */
  asked: PublishRequest[];
  /** The skills use_skill reported as loaded, in order. */
  used: string[];
}

/**
 * A runtime with Pincer-shaped stub tools and the real skill tools over a temp home and workspace
 * holding `home` and `ws` (written before the tools are made: use_skill lists the skills it saw).
 * `confirm` answers publish_skill's question (undefined: no one to ask, as in the CLI).
 */
export function skillRig(opts: { home?: TreeSpec; ws?: TreeSpec; settings?: Record<string, unknown>; confirm?: boolean; maxChars?: number } = {}): SkillRig {
  const home = tempDir('skills-home');
  const ws = tempDir('skills-ws');
  writeTree(home, opts.home ?? {});
  writeTree(ws, opts.ws ?? {});
  const rt = runtimeWith(opts.settings ?? {});
  // The runtime brings its builtins (session_status, datetime): the stubs stand in for the rest.
  for (const t of policyTools()) if (!rt.registry.get(t.name)) rt.registry.register(t);
  const catalog = new SkillCatalog({ folders: () => [ws], home, trusted: () => true });
  const asked: PublishRequest[] = [];
  const used: string[] = [];
  for (const t of createSkillTools({
    catalog, registry: () => rt.registry, home,
    files: () => ({ denyPaths: ['**/.git/**'], alwaysDeny: [], home }), maxChars: () => opts.maxChars ?? 10_000, used: (name: string) => used.push(name),
    ...(opts.confirm === undefined ? {} : { confirmPublish: async (req: PublishRequest) => { asked.push(req); return opts.confirm!; } }),
  })) rt.registry.register(t);
  return { rt, home, ws, catalog, asked, used };
}
