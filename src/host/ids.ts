// Identifiers shared by package.json contributions, the activation shell and the views.
export const SIDEBAR_VIEW_ID = 'pincer.sidebar';
export const PENDING_VIEW_ID = 'pincer.pendingChanges';
export const MEMORY_VIEW_ID = 'pincer.memory';
export const SUBAGENTS_VIEW_ID = 'pincer.subagents';
export const MCP_VIEW_ID = 'pincer.mcpServers';
export const SKILLS_VIEW_ID = 'pincer.skills';
export const CRON_VIEW_ID = 'pincer.cron';
/** Memory and context files as ordinary documents: pincer-memory://<agent>/<path>, shared level under /.agent/. */
export const MEMORY_SCHEME = 'pincer-memory';
