// Conversations in the workspace database: a session per chat (key `agent:<agentId>:<name>`), its
// messages in order (tool calls with their scrubbed results) and its token usage. Look-ups never
// create a session; an agent may only touch keys under its own prefix (GoClaw's phantom-session and
// ownership advisories). Everything is stored as JSON the agent loop produced, so a session reopens
// exactly as it was.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock';
import { systemClock } from '../clock';
import { scrubStrings } from '../guard/scrub-strings';
import type { MessagePart, ModelMessage, TokenUsage } from '../agent/model-types';
import type { Database, Migration } from '../storage/database';

export const SESSION_MIGRATIONS: Migration[] = [
  {
    version: 601,
    name: 'chat sessions and their messages',
    sql: `CREATE TABLE sessions (
            key TEXT PRIMARY KEY,
            agent_id TEXT NOT NULL,
            title TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            model TEXT,
            input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            cached_tokens INTEGER NOT NULL DEFAULT 0
          );
          CREATE INDEX sessions_agent ON sessions(agent_id, updated_at);
          CREATE TABLE session_messages (
            session_key TEXT NOT NULL REFERENCES sessions(key) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            role TEXT NOT NULL,
            parts TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (session_key, seq)
          );`,
  },
  {
    version: 602,
    name: 'chat session marks: what the transcript showed beside the messages',
    sql: `CREATE TABLE session_marks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_key TEXT NOT NULL REFERENCES sessions(key) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            data TEXT NOT NULL,
            created_at INTEGER NOT NULL
          );
          CREATE INDEX session_marks_seq ON session_marks(session_key, seq);`,
  },
];

/**
 * What a chat front end showed beside the model's messages and wants back after a reload: a tool
 * call's duration and outcome, a settled approval or review card, a turn's footer. Never sent to a
 * model. `seq` is the last message stored when the mark was made: it is shown after that message.
 */
export interface SessionMark {
  seq: number;
  kind: 'tool' | 'approval' | 'review' | 'turn-end' | 'subagent';
  data: unknown;
}

export interface SessionRecord {
  key: string;
  agentId: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  model?: string;
  messageCount: number;
  usage: TokenUsage;
}

export interface StoredMessage extends ModelMessage {
  seq: number;
  createdAt: number;
}

/** A refusal the model can act on (unknown session, another agent's session). */
export class SessionError extends Error {
  constructor(message: string, readonly code: 'not-found' | 'not-owner' | 'invalid') {
    super(message);
    this.name = 'SessionError';
  }
}

interface Row {
  key: string; agent_id: string; title: string; created_at: number; updated_at: number; model: string | null;
  input_tokens: number; output_tokens: number; cached_tokens: number; messages: number;
}

const SELECT = `SELECT s.key, s.agent_id, s.title, s.created_at, s.updated_at, s.model, s.input_tokens, s.output_tokens, s.cached_tokens,
  (SELECT COUNT(*) FROM session_messages m WHERE m.session_key = s.key) AS messages FROM sessions s`;

/** The key prefix an agent owns. */
export const sessionPrefix = (agentId: string) => `agent:${agentId}:`;
/** A subagent's session is named for its record; the person's chat lists leave such sessions out. */
export const childSessionName = (subagentId: string) => `subagent-${subagentId}`;

export class SessionStore {
  constructor(private readonly db: Database, private readonly clock: Clock = systemClock, private readonly scrub: (text: string) => string = (t) => t) {}

  async create(agentId: string, opts: { title?: string; model?: string; name?: string } = {}): Promise<SessionRecord> {
    if (!agentId) throw new SessionError('A session needs an agent.', 'invalid');
    const key = `${sessionPrefix(agentId)}${opts.name ?? randomUUID()}`;
    const now = this.clock.now();
    await this.db.run('INSERT INTO sessions(key, agent_id, title, created_at, updated_at, model) VALUES (?, ?, ?, ?, ?, ?)',
      [key, agentId, opts.title ?? 'New chat', now, now, opts.model ?? null]);
    return (await this.find(key))!;
  }

  /** The session, or undefined; never creates one. */
  async find(key: string): Promise<SessionRecord | undefined> {
    const [row] = await this.db.query<Row>(`${SELECT} WHERE s.key = ?`, [key]);
    return row && record(row);
  }

  /** The session if `agentId` owns it; a SessionError saying what to do otherwise. */
  async owned(key: string, agentId: string): Promise<SessionRecord> {
    if (!agentId || !key.startsWith(sessionPrefix(agentId))) {
      throw new SessionError(`Session ${key} does not belong to agent "${agentId}"; sessions_list shows yours.`, 'not-owner');
    }
    const s = await this.find(key);
    if (!s) throw new SessionError(`There is no session ${key}; sessions_list shows yours.`, 'not-found');
    return s;
  }

  /**
   * An agent's sessions, most recently used first; `withoutChildren` leaves out subagents' sessions
   * (they belong to the session that spawned them, not in the person's list of chats).
   */
  async list(agentId: string, opts: { limit?: number; offset?: number; withoutChildren?: boolean } = {}): Promise<SessionRecord[]> {
    const childPrefix = `${sessionPrefix(agentId)}${childSessionName('')}`;
    const children = opts.withoutChildren ? ' AND substr(s.key, 1, length(?)) <> ?' : '';
    const rows = await this.db.query<Row>(`${SELECT} WHERE s.agent_id = ?${children} ORDER BY s.updated_at DESC, s.key LIMIT ? OFFSET ?`,
      [agentId, ...(opts.withoutChildren ? [childPrefix, childPrefix] : []), opts.limit ?? 50, opts.offset ?? 0]);
    return rows.map(record);
  }

  /** Appends messages in order (text scrubbed once more on the way in) and adds the usage, in one transaction. */
  async append(key: string, messages: readonly ModelMessage[], usage?: TokenUsage): Promise<void> {
    const now = this.clock.now();
    const statements = messages.map((m) => ({
      sql: 'INSERT INTO session_messages(session_key, seq, role, parts, created_at) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM session_messages WHERE session_key = ?), ?, ?, ?)',
      params: [key, key, m.role, JSON.stringify(m.parts.map((part) => scrubPart(part, this.scrub))), now],
    }));
    statements.push({
      sql: 'UPDATE sessions SET updated_at = ?, input_tokens = input_tokens + ?, output_tokens = output_tokens + ?, cached_tokens = cached_tokens + ? WHERE key = ?',
      params: [now, usage?.inputTokens ?? 0, usage?.outputTokens ?? 0, usage?.cachedInputTokens ?? 0, key],
    });
    await this.db.transaction(statements);
  }

  /** Messages in order; `fromSeq` and `limit` page through a long history. */
  async messages(key: string, opts: { fromSeq?: number; limit?: number } = {}): Promise<StoredMessage[]> {
    const rows = await this.db.query<{ seq: number; role: ModelMessage['role']; parts: string; created_at: number }>(
      'SELECT seq, role, parts, created_at FROM session_messages WHERE session_key = ? AND seq >= ? ORDER BY seq LIMIT ?',
      [key, opts.fromSeq ?? 1, opts.limit ?? -1]);
    return rows.map((r) => ({ seq: r.seq, role: r.role, parts: JSON.parse(r.parts) as ModelMessage['parts'], createdAt: r.created_at }));
  }

  /** Stores message `seq`'s parts again, scrubbed like append (a stored image given its small copy later). */
  async replaceParts(key: string, seq: number, parts: readonly MessagePart[]): Promise<void> {
    await this.db.run('UPDATE session_messages SET parts = ? WHERE session_key = ? AND seq = ?', [JSON.stringify(parts.map((part) => scrubPart(part, this.scrub))), key, seq]);
  }

  /** Records a mark after the messages stored so far (its strings scrubbed like the messages); its id. */
  async mark(key: string, kind: SessionMark['kind'], data: unknown): Promise<number> {
    const r = await this.db.run(
      'INSERT INTO session_marks(session_key, seq, kind, data, created_at) VALUES (?, (SELECT COALESCE(MAX(seq), 0) FROM session_messages WHERE session_key = ?), ?, ?, ?)',
      [key, key, kind, JSON.stringify(scrubStrings(data, this.scrub)), this.clock.now()]);
    return r.lastInsertRowid;
  }

  /** A mark's data once it is complete (a card that settled); it keeps its place. */
  async updateMark(id: number, data: unknown): Promise<void> {
    await this.db.run('UPDATE session_marks SET data = ? WHERE id = ?', [JSON.stringify(scrubStrings(data, this.scrub)), id]);
  }

  /** The marks made after messages `fromSeq`..`toSeq` (inclusive), in the order they were made. */
  async marks(key: string, opts: { fromSeq?: number; toSeq?: number } = {}): Promise<SessionMark[]> {
    const rows = await this.db.query<{ seq: number; kind: SessionMark['kind']; data: string }>(
      'SELECT seq, kind, data FROM session_marks WHERE session_key = ? AND seq >= ? AND seq <= ? ORDER BY id',
      [key, opts.fromSeq ?? 0, opts.toSeq ?? Number.MAX_SAFE_INTEGER]);
    return rows.map((r) => ({ seq: r.seq, kind: r.kind, data: JSON.parse(r.data) as unknown }));
  }

  async rename(key: string, title: string): Promise<void> {
    await this.db.run('UPDATE sessions SET title = ? WHERE key = ?', [title.slice(0, 200), key]);
  }

  async delete(key: string): Promise<void> {
    await this.db.transaction([
      { sql: 'DELETE FROM session_marks WHERE session_key = ?', params: [key] },
      { sql: 'DELETE FROM session_messages WHERE session_key = ?', params: [key] },
      { sql: 'DELETE FROM sessions WHERE key = ?', params: [key] },
    ]);
  }
}

/** Text, results and arguments pass the scrubber one by one (scrubbing the JSON could break its quoting). */
function scrubPart(part: MessagePart, scrub: (t: string) => string): MessagePart {
  if (part.type === 'text') return { ...part, text: scrub(part.text) };
  if (part.type === 'tool-result') return { ...part, content: scrub(part.content) };
  // An image's pixels cannot be scrubbed; where it came from (a URL with a token in it) can.
  if (part.type === 'image') return { ...part, source: scrub(part.source) };
  const json = JSON.stringify(part.args ?? null);
  const clean = scrub(json);
  if (clean === json) return part;
  try {
    return { ...part, args: JSON.parse(clean) as unknown };
  } catch {
    return { ...part, args: clean };
  }
}

function record(r: Row): SessionRecord {
  return {
    key: r.key, agentId: r.agent_id, title: r.title, createdAt: r.created_at, updatedAt: r.updated_at,
    ...(r.model ? { model: r.model } : {}), messageCount: r.messages,
    usage: { inputTokens: r.input_tokens, outputTokens: r.output_tokens, cachedInputTokens: r.cached_tokens },
  };
}
