// Persists the tool log and per-tool timing history in the workspace database, so the sidebar shows
// the last calls after a reload and slow-tool notices know each tool's history across sessions.
// Everything stored here was scrubbed by the pipeline before it arrived.
import type { CallEnd } from '../tools/call-record';
import type { TimingStats } from '../guard/tool-timing';
import type { Database, Migration } from './database';

export const TOOL_LOG_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'tool calls and tool timing',
    sql: `CREATE TABLE tool_calls (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            started_at INTEGER NOT NULL,
            record TEXT NOT NULL
          );
          CREATE INDEX tool_calls_started ON tool_calls(started_at);
          CREATE TABLE tool_timing (tool TEXT PRIMARY KEY, samples INTEGER NOT NULL, max_ms REAL NOT NULL);`,
  },
];

/** How many calls the log keeps; older ones are pruned in the same write. */
const KEEP = 2000;

export class ToolLogStore {
  constructor(private readonly db: Database) {}

  async append(rec: CallEnd, timing?: TimingStats): Promise<void> {
    const statements = [
      { sql: 'INSERT INTO tool_calls(started_at, record) VALUES (?, ?)', params: [rec.startedAt, JSON.stringify(rec)] },
      { sql: 'DELETE FROM tool_calls WHERE id <= (SELECT MAX(id) FROM tool_calls) - ?', params: [KEEP] },
    ];
    if (timing) {
      statements.push({
        sql: 'INSERT INTO tool_timing(tool, samples, max_ms) VALUES (?, ?, ?) ON CONFLICT(tool) DO UPDATE SET samples = excluded.samples, max_ms = MAX(max_ms, excluded.max_ms)',
        params: [rec.tool, timing.samples, timing.maxMs],
      });
    }
    await this.db.transaction(statements);
  }

  async recent(limit: number): Promise<CallEnd[]> {
    const rows = await this.db.query<{ record: string }>('SELECT record FROM tool_calls ORDER BY id DESC LIMIT ?', [limit]);
    return rows.map((r) => JSON.parse(r.record) as CallEnd).reverse();
  }

  async timing(): Promise<[string, TimingStats][]> {
    const rows = await this.db.query<{ tool: string; samples: number; max_ms: number }>('SELECT tool, samples, max_ms FROM tool_timing');
    return rows.map((r) => [r.tool, { samples: r.samples, maxMs: r.max_ms }]);
  }
}
