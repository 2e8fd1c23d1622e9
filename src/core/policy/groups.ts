// Tool groups and profiles. Groups name tools by what they do; profiles are preset allow lists made of
// groups. A tool joins a group by declaring it (`Tool.group`); the static lists below also name tools
// that later issues add, so that policy entries naming them are not reported as unknown typos.

export const STATIC_GROUPS: Readonly<Record<string, readonly string[]>> = {
  fs: ['read_file', 'write_file', 'edit', 'apply_patch', 'list_files', 'grep', 'glob', 'search', 'send_file'],
  runtime: ['exec', 'process', 'credentialed_exec'],
  web: ['web_search', 'web_fetch'],
  memory: ['memory_search', 'memory_get', 'memory_expand'],
  knowledge: ['vault_search', 'vault_read', 'knowledge_graph_search', 'skill_search'],
  sessions: ['sessions_list', 'sessions_history', 'sessions_send', 'session_status', 'spawn', 'subagents'],
  teams: ['team_tasks', 'team_message'],
  automation: ['cron', 'datetime'],
  messaging: ['message'],
  media_gen: ['create_image', 'create_audio', 'create_video', 'tts'],
  media_read: ['read_image', 'read_audio', 'read_document', 'read_video'],
  skills: ['use_skill', 'publish_skill'],
  ui: ['browser', 'canvas'],
};

/** Dynamic groups: `mcp` (every MCP bridge tool), `mcp:<server>`, and `pincer` (every native tool). */
export const DYNAMIC_GROUPS = ['mcp', 'pincer'] as const;

export type ProfileId = 'full' | 'coding' | 'messaging' | 'minimal';
export const PROFILE_IDS: readonly ProfileId[] = ['full', 'coding', 'messaging', 'minimal'];

/**
 * Profile contents follow the newest spec. One Pincer addition: `datetime` in `coding`, a read-only
 * clock a coding agent needs for changelogs and dates, which the spec's coding profile left out.
 * `full` is every registered tool, MCP tools included.
 */
export const PROFILES: Readonly<Record<Exclude<ProfileId, 'full'>, readonly string[]>> = {
  coding: ['group:fs', 'group:runtime', 'group:sessions', 'group:memory', 'group:web', 'group:knowledge',
    'group:media_gen', 'group:media_read', 'group:skills', 'datetime'],
  messaging: ['group:messaging', 'group:web', 'group:sessions', 'group:media_read', 'skill_search'],
  minimal: ['session_status'],
};

/**
 * The one subagent deny list (GoClaw kept two that drifted apart). Subagents work on a task for their
 * parent: they must not administer, schedule, message other sessions, read the user's memory, or
 * run the team board (only the lead does).
 */
export const SUBAGENT_DENY: readonly string[] = [
  'gateway', 'agents_list', 'whatsapp_login', 'session_status', 'cron', 'memory_search', 'memory_get',
  'memory_expand', 'sessions_send', 'team_tasks',
];

/** At the maximum depth a subagent may not look at or create further sessions. */
export const LEAF_DENY: readonly string[] = ['sessions_list', 'sessions_history', 'spawn', 'subagents'];

/** Tools only the owner of this editor may see or call, whatever the policy lists say. */
export const OWNER_ONLY: readonly string[] = ['cron', 'gateway', 'whatsapp_login'];

/** Names an alias may be called by; calling an alias runs its target (real tools win over aliases). */
export const ALIASES: Readonly<Record<string, string>> = {
  bash: 'exec',
  Bash: 'exec',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit',
  edit_file: 'edit',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
  sessions_spawn: 'spawn',
};

/** Every tool name the static tables know of, registered or not. */
export function knownStaticNames(): Set<string> {
  const names = new Set<string>(Object.values(STATIC_GROUPS).flat());
  for (const list of [SUBAGENT_DENY, LEAF_DENY, OWNER_ONLY]) list.forEach((n) => names.add(n));
  return names;
}
