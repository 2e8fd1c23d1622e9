// The connection to a team store's server: a pool for reads and transactions, and one listening
// session that receives the board's notifications. When the listening session drops, the store is
// offline: it says so to whoever watches, and reconnects with backoff (doubling from 250 ms to 5 s);
// once back it announces a resync, since changes made meanwhile were not heard. A write while the
// server is unreachable fails with a message that says so — nothing is queued to be sent later.
import type pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
import { BOARD_CHANNEL } from './pg-board-schema';
import type { TeamStoreConnection } from './team-store-settings';

/** A change some editor made on the board, as announced by the server. `resync`: changes may have been missed. */
export interface BoardChange {
  teamId?: string;
  taskId?: number;
  /** The audit event's action (claim, complete, …), `message` for mail, `resync` after a reconnect. */
  action: string;
  /** A message's recipient. */
  to?: string;
}

type Listener<T> = (value: T) => void;

/** A committed change its writer announces itself (see announce). */
interface Announcement { teamId: string; taskId: number; action: string }

/** How long a writer gathers its announcements before sending them together (well under the second a change may take to reach the others). */
const ANNOUNCE_GATHER_MS = 20;

/** PostgreSQL's error codes (and Node's socket errors) that mean the server could not be reached or went away. */
const UNREACHABLE = /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH|EPIPE|08\w{3}|57P0[123])$/;
const LOST = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed/i;

const isUnreachable = (e: unknown) => UNREACHABLE.test(String((e as { code?: string }).code ?? '')) || LOST.test(String((e as Error).message));

/**
 * pg on the first connection, not when the runtime loads: loading it probes which JavaScript runtime
 * it is in (which starts Node's fetch), a cost every window's first tool call paid while most windows
 * never reach a team store.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pgLib = (): typeof pg => require('pg') as typeof pg;

// int8 (BIGINT) columns hold millisecond times here, exact as JavaScript numbers.
const typeParsers = {
  getTypeParser: ((oid: number, format?: string) => (oid === 20 ? Number : pgLib().types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
};

/**
 * pg's Client with an 'error' listener from its creation to its end. pg reports the server's goodbye
 * (57P01 when the server shuts down) as an 'error' event on a session that runs no statement, and an
 * event nobody listens for is an uncaught exception. The pool listens only while a session is idle in
 * it: a session it has just opened is handed out with no listener until the caller's code resumes,
 * and a goodbye that arrived in the same network read as the session's first "ready" (a server
 * stopping while sessions were being opened) was emitted in that gap. Nothing is lost by listening:
 * the session's next statement fails, and the pool drops an idle session that reported it. What the
 * server said is kept (`cutOff`): it names the cause better than that statement's "not queryable".
 */
interface Listened { cutOff?: Error }
let listenedClientClass: typeof pg.Client | undefined;
const listenedClient = (): typeof pg.Client => (listenedClientClass ??= class extends pgLib().Client implements Listened {
  cutOff?: Error;
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', (e: Error) => { this.cutOff ??= e; });
  }
});

export class PgConnection {
  private readonly pool: pg.Pool;
  private listener: pg.Client | undefined;
  private closed = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private backoffMs = 250;
  private isOnline = false;
  private readonly changeListeners = new Set<Listener<BoardChange>>();
  private readonly statusListeners = new Set<Listener<boolean>>();
  private gathered: Announcement[] = [];
  private gathering: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly conn: TeamStoreConnection) {
    this.pool = new (pgLib().Pool)({ ...this.clientConfig(), Client: listenedClient(), max: 10, idleTimeoutMillis: 30_000 });
    // An idle pooled session the server ended: the pool drops it; the next query opens another.
    this.pool.on('error', () => undefined);
  }

  get schema(): string {
    return this.conn.schema;
  }

  /** The listening session is connected: changes by other editors arrive. */
  get online(): boolean {
    return this.isOnline;
  }

  /** Connects the listening session; rejects (with the reason in words) when the server cannot be reached. */
  async listen(): Promise<void> {
    await this.connectListener();
  }

  onChange(fn: Listener<BoardChange>): { dispose(): void } {
    this.changeListeners.add(fn);
    return { dispose: () => this.changeListeners.delete(fn) };
  }

  onStatus(fn: Listener<boolean>): { dispose(): void } {
    this.statusListeners.add(fn);
    return { dispose: () => this.statusListeners.delete(fn) };
  }

  /** A read on a pooled session, its failure explained as a write's is. */
  async query<R extends QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return this.onSession(async (c) => (await c.query<R>(sql, params)).rows, 'read');
  }

  /**
   * Announces committed changes the schema's triggers do not announce (claims), as they would. What
   * is announced within ANNOUNCE_GATHER_MS goes out in one statement, so a burst of claims wakes each
   * listening editor a few times, not once per claim. A lost announcement loses nothing: the changes
   * are committed, and the others see them at their next read.
   */
  announce(changes: Announcement[]): void {
    if (!changes.length) return;
    this.gathered.push(...changes);
    this.gathering ??= setTimeout(() => void this.sendAnnouncements(), ANNOUNCE_GATHER_MS);
  }

  /** The notifications are sent at commit, which need not wait for the disk: what they name is durable already. */
  private async sendAnnouncements(): Promise<void> {
    clearTimeout(this.gathering);
    this.gathering = undefined;
    const payloads = this.gathered.splice(0).map((c) => JSON.stringify({ schema: this.conn.schema, teamId: c.teamId, taskId: c.taskId, action: c.action, to: null }));
    if (!payloads.length) return;
    await this.query(`SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, p) FROM unnest($2::text[]) AS p`, [BOARD_CHANNEL, payloads]).catch(() => undefined);
  }

  /** Runs `fn` in one transaction on one session: all of it commits, or none of it. */
  tx<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    return this.onSession(async (c, sent) => {
      await c.query('BEGIN');
      try {
        const out = await fn(c);
        sent();
        await c.query('COMMIT');
        return out;
      } catch (e) {
        if (!isUnreachable(e)) await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }

  /**
   * One statement as its own transaction, in one round trip (a named statement is prepared once per
   * session). Cut off once sent, whether it was written is unknown, and the error says so.
   */
  write<R extends QueryResultRow>(statement: { name?: string; text: string }, params: unknown[]): Promise<R[]> {
    return this.onSession(async (c, sent) => {
      sent();
      return (await c.query<R>({ ...statement, values: params })).rows;
    });
  }

  /** A pooled session for `fn`, which calls `sent()` once what it does next may commit. */
  private async onSession<T>(fn: (c: PoolClient, sent: () => void) => Promise<T>, first: 'before' | 'read' = 'before'): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw this.explain(e, first);
    }
    let phase: 'before' | 'read' | 'commit' = first;
    try {
      const out = await fn(client, () => { phase = 'commit'; });
      client.release();
      return out;
    } catch (e) {
      // A session the server cut off is closed, not handed to the next caller.
      const lost = isUnreachable(e);
      client.release(lost ? (e as Error) : undefined);
      throw this.explain(lost ? ((client as PoolClient & Listened).cutOff ?? e) : e, phase);
    }
  }

  /** A session of its own, outside the pool (migrations hold a session-level lock on it). */
  async session<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
    const c = new (listenedClient())(this.clientConfig());
    try {
      await c.connect();
    } catch (e) {
      throw this.explain(e, 'open');
    }
    try {
      return await fn(c);
    } finally {
      await c.end().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.sendAnnouncements();
    this.closed = true;
    clearTimeout(this.retry);
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
    await this.pool.end().catch(() => undefined);
  }

  private clientConfig(): pg.ClientConfig {
    return {
      ...this.conn.client, connectionTimeoutMillis: 5_000, types: typeParsers,
      // Every statement names tables without their schema; the session finds them in the team's.
      // Generic plans at once: the board's statements look rows up by key, so planning them for each
      // set of values (five times per session before a prepared statement's plan is kept) buys nothing.
      options: `-c search_path=${this.conn.schema} -c plan_cache_mode=force_generic_plan`, application_name: 'pincer-team-store',
    };
  }

  /** A storage error as the person (or model) reading it needs it: the rules' refusals pass unchanged. */
  private explain(e: unknown, phase: 'open' | 'before' | 'commit' | 'read'): Error {
    const err = e as Error & { code?: string };
    if (err.message?.startsWith('Refused:')) return new Error(err.message);
    if (err.code === '28P01' || err.code === '28000') {
      return new Error(`The team store at ${this.conn.where} refused the login (${err.message}). Set its password with "Pincer: Set Team Store Password" (or PGPASSWORD); it is never read from settings.`);
    }
    if (isUnreachable(e)) {
      const what = phase === 'open' ? 'the board cannot be opened' : phase === 'read' ? 'nothing was read'
        : phase === 'before' ? 'nothing was written; the change is not queued, make it again once the server is back'
          : 'the server went away while committing, so whether the change was written is unknown: look at the board once it is back';
      return new Error(`The team store at ${this.conn.where} is unreachable (${err.code ?? err.message}): ${what}.`);
    }
    return err instanceof Error ? err : new Error(String(e));
  }

  private setOnline(on: boolean): void {
    if (this.isOnline === on) return;
    this.isOnline = on;
    for (const fn of this.statusListeners) fn(on);
  }

  private emit(change: BoardChange): void {
    for (const fn of this.changeListeners) fn(change);
  }

  private async connectListener(): Promise<void> {
    const c = new (pgLib().Client)(this.clientConfig());
    // Cut off before it is this store's listening session (the server stopping as it was opened): it
    // is not taken for one, or the store would say it is online on a session that is gone.
    let gone: Error | undefined;
    c.on('error', (e: Error) => { gone ??= e; this.lost(c); });
    c.on('end', () => { gone ??= new Error('Connection terminated'); this.lost(c); });
    c.on('notification', (n) => {
      if (n.channel !== BOARD_CHANNEL || !n.payload) return;
      const p = JSON.parse(n.payload) as { schema: string; teamId: string; taskId: number | null; action: string; to: string | null };
      if (p.schema !== this.conn.schema) return;
      this.emit({ teamId: p.teamId, action: p.action, ...(p.taskId !== null ? { taskId: p.taskId } : {}), ...(p.to !== null ? { to: p.to } : {}) });
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${BOARD_CHANNEL}`);
      if (gone) throw gone;
    } catch (e) {
      c.removeAllListeners('end');
      await c.end().catch(() => undefined);
      throw this.explain(e, 'open');
    }
    if (this.closed) {
      await c.end().catch(() => undefined);
      return;
    }
    this.listener = c;
    this.backoffMs = 250;
    this.setOnline(true);
  }

  private lost(c: pg.Client): void {
    if (this.listener !== c) return;
    this.listener = undefined;
    c.removeAllListeners('end');
    void c.end().catch(() => undefined);
    this.setOnline(false);
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    this.retry = setTimeout(() => {
      this.connectListener().then(
        () => this.emit({ action: 'resync' }),
        () => {
          this.backoffMs = Math.min(this.backoffMs * 2, 5_000);
          this.schedule();
        },
      );
    }, this.backoffMs);
    this.retry.unref?.();
  }
}
