// Tables of the context-file store (SOUL.md, USER.md, …, see routed-paths.ts). Versions 301 and up:
// the tool log owns 1+, checkpoints 101+, the memory store 201+; all share one workspace database.
//
// Two levels, as GoClaw keeps them: the agent's own files (its shared template, and for predefined
// agents the files every user sees) and each user's copies. An empty string is a real (empty) file,
// except a user's empty BOOTSTRAP.md, which marks first-run setup as done (see routed-files.ts).
import type { Migration } from '../storage/database';

export const CONTEXT_MIGRATIONS: Migration[] = [
  {
    version: 301,
    name: 'context files per agent and per user',
    sql: `CREATE TABLE agent_context_files (
            agent_id TEXT NOT NULL,
            name TEXT NOT NULL,
            content TEXT NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (agent_id, name)
          );
          CREATE TABLE user_context_files (
            agent_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            name TEXT NOT NULL,
            content TEXT NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (agent_id, user_id, name)
          );`,
  },
];
