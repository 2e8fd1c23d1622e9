// One SKILL.md: YAML front matter (`name`, `description`, optional `allowed-tools`) between `---`
// lines, then the instructions. The format Claude Code, Copilot and Codex read, so a skill written for
// them works here unchanged. A broken file becomes one problem line `<file>: <field>: <what is wrong>`
// and no skill; nothing in the file can do more than describe itself (unknown fields are ignored, and
// `allowed-tools` can only narrow what a turn may call: use-skill-tool.ts).
import fs from 'node:fs';
import { yaml } from '../yaml-lazy';
import { z } from 'zod';

export const SKILL_FILE = 'SKILL.md';
/** Instructions beyond this are not a skill but a manual: the file is refused before it is read. */
export const MAX_SKILL_FILE_BYTES = 100_000;
/** YAML aliases can expand exponentially ("billion laughs"); a skill's front matter needs few or none. */
const MAX_ALIAS_COUNT = 20;

export type SkillSourceKind = 'workspace' | 'user';

export interface Skill {
  name: string;
  /** One line: newlines and runs of spaces folded, so a description cannot add lines to the tool list. */
  description: string;
  /** `allowed-tools` as written, one entry per tool (`Read`, `group:fs`, `Bash(git status:*)`); absent: no narrowing. */
  allowedTools?: string[];
  /** The instructions below the front matter. */
  body: string;
  /** The skill's folder, canonical (every link followed). */
  dir: string;
  /** Its SKILL.md as found (for messages). */
  file: string;
  source: SkillSourceKind;
  /** The folder of skills it came from, e.g. `<workspace>/.claude/skills` or `~/.pincer/skills`. */
  from: string;
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

// Built on the first SKILL.md parsed, not when the runtime loads (every window's first tool call loads it).
const buildFrontMatterSchema = () => z.object({
  name: z.string({ error: 'is missing or not a string' }).max(64, 'is longer than 64 characters')
    .regex(NAME, 'must be lowercase letters, digits and single hyphens (e.g. "pdf-forms")'),
  description: z.string({ error: 'is missing or not a string' }).trim().min(1, 'is empty').max(1024, 'is longer than 1024 characters'),
  'allowed-tools': z.union([z.string(), z.array(z.string(), { error: 'must be a list of tool names or one comma-separated string' })], {
    error: 'must be a list of tool names or one comma-separated string',
  }).optional(),
});

let frontMatter: ReturnType<typeof buildFrontMatterSchema> | undefined;

export type SkillFileRead = { skill: Skill } | { problem: string };

/** `Read, Grep` or `Bash(git add:*) Bash(git status:*)`: split at commas and spaces outside parentheses. */
export function splitAllowedTools(value: string | string[]): string[] {
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of items) {
    let depth = 0;
    let cur = '';
    for (const ch of item) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
        if (cur) out.push(cur);
        cur = '';
      } else cur += ch;
    }
    if (cur) out.push(cur);
  }
  return out;
}

/** Parses a SKILL.md's text; `file` names it in problems, `dir`, `source` and `from` go into the skill. */
export function parseSkill(text: string, at: Pick<Skill, 'file' | 'dir' | 'source' | 'from'>): SkillFileRead {
  const problem = (field: string, what: string) => ({ problem: `${at.file}: ${field}: ${what}` });
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return problem('front matter', 'SKILL.md must start with YAML front matter between two "---" lines (name, description)');
  const doc = yaml().parseDocument(m[1], { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length) return problem('front matter', `not valid YAML: ${doc.errors[0].message.split('\n')[0]}`);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    return problem('front matter', `not usable YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return problem('front matter', 'must be a YAML mapping with name and description');
  const parsed = (frontMatter ??= buildFrontMatterSchema()).safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return problem(issue.path.map(String).join('.') || 'front matter', issue.message);
  }
  const fm = parsed.data;
  const allowed = fm['allowed-tools'] === undefined ? undefined : splitAllowedTools(fm['allowed-tools']);
  return {
    skill: {
      name: fm.name,
      description: fm.description.replace(/\s+/g, ' '),
      ...(allowed ? { allowedTools: allowed } : {}),
      body: text.slice(m[0].length).replace(/\r\n?/g, '\n').trim(),
      ...at,
    },
  };
}

/**
 * Reads and parses one SKILL.md. Only a regular file of at most MAX_SKILL_FILE_BYTES is read: a FIFO
 * would block the read, and a huge file would be read whole before anything could refuse it.
 */
export function readSkillFile(at: Pick<Skill, 'file' | 'dir' | 'source' | 'from'>): SkillFileRead {
  let fd: number;
  try {
    fd = fs.openSync(at.file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return { problem: `${at.file}: (file): cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { problem: `${at.file}: (file): not a regular file` };
    if (st.size > MAX_SKILL_FILE_BYTES) {
      return { problem: `${at.file}: (file): ${st.size} bytes, more than the ${MAX_SKILL_FILE_BYTES}-byte limit for a SKILL.md; move long material into files beside it` };
    }
    const buf = Buffer.alloc(st.size);
    const n = fs.readSync(fd, buf, 0, st.size, 0);
    return parseSkill(buf.subarray(0, n).toString('utf8'), at);
  } finally {
    fs.closeSync(fd);
  }
}
