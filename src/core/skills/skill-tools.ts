// The skill tools of one toolset build: use_skill and publish_skill (group `skills`) and skill_search
// (group `knowledge`), over the entry point's skill catalog.
import type { Registry } from '../tools/registry';
import type { Tool } from '../tools/types';
import type { PublishRequest } from './publish-skill-tool';
import { createPublishSkillTool } from './publish-skill-tool';
import type { SkillCatalog } from './skill-catalog';
import { createSkillSearchTool } from './skill-search-tool';
import { createUseSkillTool } from './use-skill-tool';

export interface SkillToolPorts {
  catalog: SkillCatalog;
  registry: () => Registry;
  home: string;
  /** What a skill's files are read with: the deny rules and Pincer's own storage. */
  files: () => { denyPaths: readonly string[]; alwaysDeny: readonly string[]; home: string };
  /** The most characters of a skill's file one call returns. */
  maxChars: () => number;
  /** Asks the person whether to publish; absent where no one can be asked (the CLI): publish_skill refuses. */
  confirmPublish?: (req: PublishRequest) => Promise<boolean>;
  /** Told each time use_skill loads a skill's instructions (the Skills view counts uses). */
  used?: (skill: string) => void;
}

export function createSkillTools(ports: SkillToolPorts): Tool[] {
  return [createUseSkillTool(ports), createSkillSearchTool(ports), createPublishSkillTool(ports)];
}
