// Every table of a workspace database, in one list: the extension and the CLI open the same database
// shape, so a state folder written by one can be read by the other.
import { CHECKPOINT_MIGRATIONS } from '../fs/checkpoint-store';
import { EXEC_APPROVAL_MIGRATIONS } from '../exec/approval-store';
import { CONTEXT_MIGRATIONS } from '../memory/context-schema';
import { MEMORY_MIGRATIONS } from '../memory/memory-schema';
import { REVISION_MIGRATIONS } from '../memory/revision-store';
import { HANDOFF_MIGRATIONS } from '../sessions/handoff-store';
import { SESSION_MIGRATIONS } from '../sessions/session-store';
import { SUBAGENT_MIGRATIONS } from '../subagents/subagent-store';
import { TEAM_MIGRATIONS } from '../teams/board-schema';
import { TEAM_BINDING_MIGRATIONS } from '../teams/lead-bindings';
import { TOOL_LOG_MIGRATIONS } from './tool-log-store';
import { CRON_MIGRATIONS } from '../automation/cron-store';
import type { Migration } from './types';

export const WORKSPACE_MIGRATIONS: readonly Migration[] = [
  ...TOOL_LOG_MIGRATIONS, ...CHECKPOINT_MIGRATIONS, ...MEMORY_MIGRATIONS, ...CONTEXT_MIGRATIONS, ...REVISION_MIGRATIONS,
  ...EXEC_APPROVAL_MIGRATIONS, ...SESSION_MIGRATIONS, ...HANDOFF_MIGRATIONS, ...SUBAGENT_MIGRATIONS, ...TEAM_MIGRATIONS, ...TEAM_BINDING_MIGRATIONS, ...CRON_MIGRATIONS,
];
