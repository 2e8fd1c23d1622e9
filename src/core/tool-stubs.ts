// What the registry and the policy need of each lazily built tool family of the toolset (toolset.ts),
// without building it: the names, groups, capabilities and owner-only flags the families' factories
// give their tools. A family whose tools drift from these is refused at its first use
// (tools/lazy-tool.ts), and test/unit/tools/lazy-toolset.test.ts builds every family against them.
import type { ToolStub } from './tools/lazy-tool';

export const TOOL_STUBS = {
  readDocument: [{ name: 'read_document', group: 'media_read', capability: 'read-only' }],
  readImage: [{ name: 'read_image', group: 'media_read', capability: 'read-only' }],
  memory: [
    { name: 'memory_search', group: 'memory', capability: 'read-only' },
    { name: 'memory_get', group: 'memory', capability: 'read-only' },
    { name: 'memory_expand', group: 'memory', capability: 'read-only' },
  ],
  sessions: [
    { name: 'sessions_list', group: 'sessions', capability: 'read-only' },
    { name: 'sessions_history', group: 'sessions', capability: 'read-only' },
    { name: 'sessions_send', group: 'sessions', capability: 'external' },
  ],
  spawn: [{ name: 'spawn', group: 'sessions', capability: 'external' }],
  handoff: [{ name: 'handoff', group: 'sessions', capability: 'mutating' }],
  teams: [
    { name: 'team_tasks', group: 'teams', capability: 'mutating' },
    { name: 'team_message', group: 'teams', capability: 'mutating' },
  ],
  skills: [
    { name: 'use_skill', group: 'skills', capability: 'read-only' },
    { name: 'skill_search', group: 'knowledge', capability: 'read-only' },
    { name: 'publish_skill', group: 'skills', capability: 'mutating', ownerOnly: true },
  ],
  web: [
    { name: 'web_fetch', group: 'web', capability: 'external' },
    { name: 'web_search', group: 'web', capability: 'external' },
    { name: 'browser', group: 'ui', capability: 'external' },
  ],
  cron: [{ name: 'cron', group: 'automation', capability: 'mutating', ownerOnly: true }],
  exec: [
    { name: 'exec', group: 'runtime', capability: 'mutating' },
    { name: 'process', group: 'runtime', capability: 'mutating' },
    { name: 'credentialed_exec', group: 'runtime', capability: 'external', ownerOnly: true },
  ],
} as const satisfies Record<string, readonly ToolStub[]>;
