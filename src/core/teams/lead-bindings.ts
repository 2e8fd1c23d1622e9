// Which chat sessions were started for a team (Pincer: Pick Team…): the lead leads only there, so the
// binding must outlive the window, or a reload would turn a team's session back into an ordinary chat
// while its board and mailbox carry on.
//
// Decisions:
// - Kept in the workspace database beside the chat sessions themselves, whatever store holds the board:
//   a chat session belongs to this workspace, so its binding does too.
// - The row references the session: deleting a chat deletes its binding, and a binding can never name
//   a session that does not exist.
import type { Database, Migration } from '../storage/database';

export const TEAM_BINDING_MIGRATIONS: Migration[] = [
  {
    version: 810,
    name: 'teams: the chat sessions started for a team, which its lead leads',
    sql: `CREATE TABLE team_lead_sessions (
            session_key TEXT PRIMARY KEY REFERENCES sessions(key) ON DELETE CASCADE,
            team_id TEXT NOT NULL,
            bound_at INTEGER NOT NULL
          );`,
  },
];

export interface LeadBinding {
  sessionKey: string;
  teamId: string;
}

/** Where the team service keeps its bindings (the workspace database in the editor). */
export interface LeadBindings {
  /** Every binding, oldest first. */
  all(): Promise<LeadBinding[]>;
  bind(sessionKey: string, teamId: string, at: number): Promise<void>;
}

export class SqlLeadBindings implements LeadBindings {
  constructor(private readonly db: Database) {}

  async all(): Promise<LeadBinding[]> {
    const rows = await this.db.query<{ session_key: string; team_id: string }>('SELECT session_key, team_id FROM team_lead_sessions ORDER BY bound_at, rowid');
    return rows.map((r) => ({ sessionKey: r.session_key, teamId: r.team_id }));
  }

  async bind(sessionKey: string, teamId: string, at: number): Promise<void> {
    await this.db.run(`INSERT INTO team_lead_sessions(session_key, team_id, bound_at) VALUES (?, ?, ?)
      ON CONFLICT(session_key) DO UPDATE SET team_id = excluded.team_id, bound_at = excluded.bound_at`, [sessionKey, teamId, at]);
  }
}
