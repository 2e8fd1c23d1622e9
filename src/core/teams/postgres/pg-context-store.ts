// A team's context files (SOUL.md, AGENTS.md, …) on the shared server, with the workspace
// context-file store's API (context-store.ts): one row per (team, agent, name) at the agent level
// and per (team, agent, user, name) at the user level. It stores and returns exactly what it is
// given; levels, fallbacks and permissions stay routed-files.ts's business.
import { systemClock, type Clock } from '../../clock';
import { checkContextKey, type ContextFileRow, type ContextFiles } from '../../memory/context-store';
import type { Scope } from '../../memory/types';
import type { PgConnection } from './pg-connection';

interface RawRow {
  name: string;
  content: string;
  updated_at: number;
}

export class PgContextStore implements ContextFiles {
  constructor(private readonly db: PgConnection, private readonly teamId: string, private readonly clock: Clock = systemClock) {}

  async get(scope: Scope, name: string): Promise<ContextFileRow | undefined> {
    checkContextKey(scope, name);
    const rows = scope.userId
      ? await this.db.query<RawRow>('SELECT name, content, updated_at FROM user_context_files WHERE team_id = $1 AND agent_id = $2 AND user_id = $3 AND name = $4', [this.teamId, scope.agentId, scope.userId, name])
      : await this.db.query<RawRow>('SELECT name, content, updated_at FROM agent_context_files WHERE team_id = $1 AND agent_id = $2 AND name = $3', [this.teamId, scope.agentId, name]);
    return rows[0] ? this.row(scope, rows[0]) : undefined;
  }

  /** Creates or replaces the file at the scope's level. */
  async put(scope: Scope, name: string, content: string): Promise<ContextFileRow> {
    checkContextKey(scope, name);
    const now = this.clock.now();
    if (scope.userId) {
      await this.db.write({
        text: `INSERT INTO user_context_files (team_id, agent_id, user_id, name, content, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (team_id, agent_id, user_id, name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`,
      }, [this.teamId, scope.agentId, scope.userId, name, content, now]);
    } else {
      await this.db.write({
        text: `INSERT INTO agent_context_files (team_id, agent_id, name, content, updated_at) VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (team_id, agent_id, name) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at`,
      }, [this.teamId, scope.agentId, name, content, now]);
    }
    return { agentId: scope.agentId, userId: scope.userId, name, content, updatedAt: now };
  }

  /** Removes the file at the scope's level; false when there was none. */
  async delete(scope: Scope, name: string): Promise<boolean> {
    checkContextKey(scope, name);
    const rows = scope.userId
      ? await this.db.write({ text: 'DELETE FROM user_context_files WHERE team_id = $1 AND agent_id = $2 AND user_id = $3 AND name = $4 RETURNING name' }, [this.teamId, scope.agentId, scope.userId, name])
      : await this.db.write({ text: 'DELETE FROM agent_context_files WHERE team_id = $1 AND agent_id = $2 AND name = $3 RETURNING name' }, [this.teamId, scope.agentId, name]);
    return rows.length > 0;
  }

  /** Every file at the scope's level, by name (byte order, as in the workspace database). */
  async list(scope: Scope): Promise<ContextFileRow[]> {
    checkContextKey(scope);
    const rows = scope.userId
      ? await this.db.query<RawRow>('SELECT name, content, updated_at FROM user_context_files WHERE team_id = $1 AND agent_id = $2 AND user_id = $3 ORDER BY name COLLATE "C"', [this.teamId, scope.agentId, scope.userId])
      : await this.db.query<RawRow>('SELECT name, content, updated_at FROM agent_context_files WHERE team_id = $1 AND agent_id = $2 ORDER BY name COLLATE "C"', [this.teamId, scope.agentId]);
    return rows.map((r) => this.row(scope, r));
  }

  private row(scope: Scope, r: RawRow): ContextFileRow {
    return { agentId: scope.agentId, userId: scope.userId, name: r.name, content: r.content, updatedAt: Number(r.updated_at) };
  }
}
