// The team store's connection when the server says goodbye at the worst moment: in the same network
// read as a session's first "ready" (a pooled session the server ends as it is opened) or as the
// answer to the listening session's LISTEN. A real server stopping does this only now and then (it
// made the restart test in pg-board-store.test.ts fail about one run in three, with an uncaught
// "terminating connection due to administrator command"); a loopback server speaking PostgreSQL's
// wire protocol sends it every time, each session following its own script.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { PgConnection } from '../../../src/core/teams/postgres/pg-connection';
import { teamStoreConnection } from '../../../src/core/teams/postgres/team-store-settings';

/** What the server does with one session: hang up with its first ready, with its first answer, or answer each query with one row. */
type Script = 'goodbye-at-ready' | 'goodbye-after-answer' | 'answer';

const message = (type: string, ...parts: Buffer[]): Buffer => {
  const body = Buffer.concat(parts);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
};
const int32 = (n: number) => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b; };
const int16 = (n: number) => { const b = Buffer.alloc(2); b.writeInt16BE(n); return b; };
const text = (s: string) => Buffer.from(`${s}\0`);

const READY = message('Z', Buffer.from('I'));
const OPENED = Buffer.concat([message('R', int32(0)), message('K', int32(4242), int32(7)), READY]);
const GOODBYE = message('E', text('SFATAL'), text('VFATAL'), text('C57P01'), text('Mterminating connection due to administrator command'), Buffer.from([0]));
/** One int4 column `n` holding 1, then ready: the answer to any simple query. */
const ONE_ROW = Buffer.concat([
  message('T', int16(1), text('n'), int32(0), int16(0), int32(23), int16(4), int32(-1), int16(0)),
  message('D', int16(1), int32(1), Buffer.from('1')),
  message('C', text('SELECT 1')),
  READY,
]);

/** A loopback server that gives its sessions the scripts in turn (the last one to every later session). */
async function scriptedServer(scripts: Script[]): Promise<{ port: number; sessions: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const state = { sessions: 0 };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const script = scripts[Math.min(state.sessions++, scripts.length - 1)]!;
    let pending = Buffer.alloc(0);
    let started = false;
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        // The startup message has no type byte; every later one does.
        const head = started ? 1 : 0;
        if (pending.length < head + 4) return;
        const size = head + pending.readInt32BE(head);
        if (pending.length < size) return;
        const type = started ? String.fromCharCode(pending[0]!) : 'startup';
        pending = pending.subarray(size);
        started = true;
        // Each reply is one write, so that the client reads it (goodbye included) at once.
        if (type === 'startup') socket.write(script === 'goodbye-at-ready' ? Buffer.concat([OPENED, GOODBYE]) : OPENED);
        else if (type === 'Q') socket.write(script === 'goodbye-after-answer' ? Buffer.concat([ONE_ROW, GOODBYE]) : ONE_ROW);
        if (type === 'X' || (type === 'startup' && script === 'goodbye-at-ready') || (type === 'Q' && script === 'goodbye-after-answer')) {
          socket.end();
          return;
        }
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get sessions() { return state.sessions; },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

const connectionTo = (port: number) => teamStoreConnection({ url: `postgres://pincer@127.0.0.1:${port}/postgres`, schema: 'pincer', tls: { mode: 'disable' } });

describe('teams: the team store connection when the server hangs up', () => {
  let server: Awaited<ReturnType<typeof scriptedServer>> | undefined;
  afterEach(async () => { await server?.close(); });

  it('a pooled session ended in the same read as its first "ready": the read fails in words (nothing uncaught), and the next read opens a session that answers', async () => {
    server = await scriptedServer(['goodbye-at-ready', 'answer']);
    const db = new PgConnection(connectionTo(server.port));
    try {
      await assert.rejects(db.query('SELECT 1 AS n'), /^Error: The team store at 127\.0\.0\.1:\d+\/postgres is unreachable \(57P01\): nothing was read\.$/);
      assert.deepEqual(await db.query('SELECT 1 AS n'), [{ n: 1 }]);
      assert.equal(server.sessions, 2);
    } finally {
      await db.close();
    }
  });

  it('a listening session ended in the same read as the answer to its LISTEN is not taken for a live one; a session that stays is', async () => {
    server = await scriptedServer(['goodbye-after-answer', 'answer']);
    const db = new PgConnection(connectionTo(server.port));
    try {
      await assert.rejects(db.listen(), /^Error: The team store at 127\.0\.0\.1:\d+\/postgres is unreachable \(57P01\): the board cannot be opened\.$/);
      assert.equal(db.online, false);
      await db.listen();
      assert.equal(db.online, true);
    } finally {
      await db.close();
    }
  });
});
