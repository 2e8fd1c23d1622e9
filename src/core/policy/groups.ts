// Tool groups and profiles. Groups name tools by what they do; profiles are preset allow lists made of
// groups. A tool joins a group by declaring it (`Tool.group`); the static lists below name only tools
// Pincer provides, so Show Effective Tools and the profiles never promise a tool that is not there. A
// later feature adds its group, its profile entries and its deny-list names together with its tools.

export const STATIC_GROUPS: Readonly<Record<string, readonly string[]>> = {
  fs: ['read_file', 'write_file', 'edit', 'apply_patch', 'list_files', 'grep', 'glob'],
  runtime: ['exec', 'process', 'credentialed_exec'],
  memory: ['memory_search', 'memory_get', 'memory_expand'],
  sessions: ['sessions_list', 'sessions_history', 'sessions_send', 'session_status', 'spawn', 'handoff'],
  automation: ['datetime', 'cron'],
  teams: ['team_tasks', 'team_message'],
  web: ['web_fetch', 'web_search'],
  // A real browser a model drives (src/core/browser): pages, forms, screenshots.
  ui: ['browser'],
  // SKILL.md folders (src/core/skills): loading one and publishing a workspace's skill to the person's own.
  skills: ['use_skill', 'publish_skill'],
  knowledge: ['skill_search'],
  // Documents and media read for the model (src/core/media): a PDF's text page by page, an image file as an image.
  media_read: ['read_document', 'read_image'],
  // The person's own tools (src/core/customtools): members only by declaring the group, none built in.
  custom: [],
};

export type ProfileId = 'full' | 'coding' | 'messaging' | 'minimal';
export const PROFILE_IDS: readonly ProfileId[] = ['full', 'coding', 'messaging', 'minimal'];

/**
 * `coding`: files, commands, sessions, memory, the clock, the tools of the MCP servers the person
 * configured (and, for a workspace's servers, agreed to start), the custom tools defined in JSON, the team tools, the skill tools and
 * the document and image readers (workspace files through the path guard, like read_file) (not cron: scheduling is allowed on purpose, e.g. `alsoAllow: ["cron"]`). `messaging`: sessions (the messaging
 * tools it is meant for do not exist yet). `full` is every registered tool, MCP tools included.
 */
export const PROFILES: Readonly<Record<Exclude<ProfileId, 'full'>, readonly string[]>> = {
  coding: ['group:fs', 'group:runtime', 'group:sessions', 'group:memory', 'datetime', 'group:mcp', 'group:custom', 'group:teams', 'group:skills', 'group:knowledge', 'group:media_read'],
  messaging: ['group:sessions'],
  minimal: ['session_status'],
};

/**
 * The one subagent deny list. Subagents work on a task for their parent: they must not read the
 * user's memory, report on or message other sessions, take over the person's conversation (handoff),
 * nor change the person's own skills or scheduled work.
 */
export const SUBAGENT_DENY: readonly string[] = ['session_status', 'memory_search', 'memory_get', 'memory_expand', 'sessions_send', 'handoff', 'publish_skill', 'cron'];

/** At the maximum depth a subagent may not look at other sessions, nor start children of its own. */
export const LEAF_DENY: readonly string[] = ['sessions_list', 'sessions_history', 'spawn'];

/** Names an alias may be called by; calling an alias runs its target (real tools win over aliases). */
export const ALIASES: Readonly<Record<string, string>> = {
  bash: 'exec',
  Bash: 'exec',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit',
  edit_file: 'edit',
  sessions_spawn: 'spawn',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
};

/** Every tool name the static tables know of (the deny lists name only grouped tools). */
export function knownStaticNames(): Set<string> {
  return new Set<string>(Object.values(STATIC_GROUPS).flat());
}
