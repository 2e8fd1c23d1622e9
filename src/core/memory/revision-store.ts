// Earlier versions of memory and context files. These files live in Pincer's store, not in the
// repository, so no diff review and no git history stands between a model's overwrite and the
// loss of what was there: before any write or delete replaces content, the old content is kept
// here (the newest KEEP versions of each file), and "Pincer: Restore Memory Revision…" puts one back.
// Kept before the change lands, in its own transaction: a crash in between leaves one revision too
// many, never one too few.
import type { Database, Migration, SqlValue } from '../storage/database';
import type { Scope } from './types';

export const REVISION_MIGRATIONS: Migration[] = [
  {
    version: 401,
    name: 'revisions of memory and context files',
    sql: `CREATE TABLE file_revisions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            agent_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            path TEXT NOT NULL,
            content TEXT NOT NULL,
            replaced_at INTEGER NOT NULL,
            actor TEXT NOT NULL,
            change TEXT NOT NULL
          );
          CREATE INDEX file_revisions_file ON file_revisions(agent_id, user_id, path, id);`,
  },
];

/** Versions kept per file (per agent, level and path). */
export const KEEP_REVISIONS = 20;

export interface RevisionInfo {
  id: number;
  agentId: string;
  /** '' = the agent level. */
  userId: string;
  path: string;
  /** When the content was replaced (epoch ms): this is what the file held until then. */
  replacedAt: number;
  /** Who replaced it. */
  actor: 'model' | 'person';
  change: 'write' | 'delete';
  size: number;
}

export interface Revision extends RevisionInfo {
  content: string;
}

type Row = { id: number; agentId: string; userId: string; path: string; replacedAt: number; actor: string; change: string; size: number };

const COLUMNS = 'id, agent_id AS agentId, user_id AS userId, path, replaced_at AS replacedAt, actor, change, length(CAST(content AS BLOB)) AS size';

function info(r: Row): RevisionInfo {
  return { ...r, actor: r.actor === 'person' ? 'person' : 'model', change: r.change === 'delete' ? 'delete' : 'write' };
}

export class RevisionStore {
  constructor(private readonly db: Database, private readonly now: () => number = Date.now, private readonly keepCount = KEEP_REVISIONS) {}

  /** Keeps `content` as the version of the file at `scope` that a write or delete is about to replace. */
  async keep(scope: Scope, path: string, content: string, actor: 'model' | 'person', change: 'write' | 'delete'): Promise<void> {
    const file: SqlValue[] = [scope.agentId, scope.userId, path];
    await this.db.transaction([
      {
        sql: 'INSERT INTO file_revisions(agent_id, user_id, path, content, replaced_at, actor, change) VALUES (?, ?, ?, ?, ?, ?, ?)',
        params: [...file, content, this.now(), actor, change],
      },
      {
        sql: `DELETE FROM file_revisions WHERE agent_id = ?1 AND user_id = ?2 AND path = ?3 AND id NOT IN
                (SELECT id FROM file_revisions WHERE agent_id = ?1 AND user_id = ?2 AND path = ?3 ORDER BY id DESC LIMIT ?4)`,
        params: [...file, this.keepCount],
      },
    ]);
  }

  /** Newest first: the agent's revisions at the person's level and the agent level, of one path or all. */
  async list(scope: Scope, path?: string): Promise<RevisionInfo[]> {
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM file_revisions WHERE agent_id = ? AND user_id IN (?, '') ${path ? 'AND path = ?' : ''} ORDER BY id DESC LIMIT 500`,
      path ? [scope.agentId, scope.userId, path] : [scope.agentId, scope.userId],
    );
    return rows.map(info);
  }

  /** One revision, if it belongs to this agent and to the person or the agent level. */
  async get(scope: Scope, id: number): Promise<Revision | undefined> {
    const [row] = await this.db.query<Row & { content: string }>(
      `SELECT ${COLUMNS}, content FROM file_revisions WHERE id = ? AND agent_id = ? AND user_id IN (?, '')`, [id, scope.agentId, scope.userId]);
    return row && { ...info(row), content: row.content };
  }
}
