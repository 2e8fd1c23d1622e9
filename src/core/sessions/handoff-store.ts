// Conversations handed to another agent (the `handoff` tool): while a chat session is handed over, its
// top-level turns run as that agent, with the session's whole history; clearing the handoff gives the
// session back to the agent it belongs to.
//
// Decisions:
// - Kept in the workspace database, so a handoff outlives a window reload like the conversation does.
// - The row references the session: deleting the chat deletes its handoff, and a handoff can never
//   name a session that does not exist. The session's key (and its owner) never changes, so the chat
//   lists it where it always was.
import type { Database, Migration } from '../storage/database';

export const HANDOFF_MIGRATIONS: Migration[] = [
  {
    version: 620,
    name: 'chat sessions handed to another agent',
    sql: `CREATE TABLE session_handoffs (
            session_key TEXT PRIMARY KEY REFERENCES sessions(key) ON DELETE CASCADE,
            agent_id TEXT NOT NULL,
            from_agent TEXT NOT NULL,
            reason TEXT NOT NULL DEFAULT '',
            at INTEGER NOT NULL
          );`,
  },
];

export interface Handoff {
  /** The agent the session's turns run as now. */
  agent: string;
  /** Who handed it over. */
  from: string;
  reason: string;
  at: number;
}

export class HandoffStore {
  constructor(private readonly db: Database) {}

  async get(sessionKey: string): Promise<Handoff | undefined> {
    const [row] = await this.db.query<{ agent_id: string; from_agent: string; reason: string; at: number }>(
      'SELECT agent_id, from_agent, reason, at FROM session_handoffs WHERE session_key = ?', [sessionKey]);
    return row && { agent: row.agent_id, from: row.from_agent, reason: row.reason, at: row.at };
  }

  async set(sessionKey: string, h: Handoff): Promise<void> {
    await this.db.run(`INSERT INTO session_handoffs(session_key, agent_id, from_agent, reason, at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT(session_key) DO UPDATE SET agent_id = excluded.agent_id, from_agent = excluded.from_agent, reason = excluded.reason, at = excluded.at`,
    [sessionKey, h.agent, h.from, h.reason, h.at]);
  }

  /** Whether there was a handoff to clear. */
  async clear(sessionKey: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM session_handoffs WHERE session_key = ?', [sessionKey])).changes > 0;
  }
}
