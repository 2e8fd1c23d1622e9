// The team board on a real PostgreSQL server (Debian's, started by the bench in a temp folder on a
// loopback port, fsync on; see test/support/postgres-server.ts), two figures:
// - teamstore-claim-pg: 16 claimers (4 editors, each a store with its own connections, 4 members
//   each) race over a board of 1,000 pending tasks, each walking the tasks in its own random order;
//   every task must be claimed exactly once; p95 latency of a claim call, won or refused, as the
//   caller sees it. The same race as board-claim-contention (the workspace database), on the server.
// - teamstore-notify-latency: an audit event written by one editor until the other editor's board
//   hears of it (LISTEN/NOTIFY), one at a time; p95.
// Median of ROUNDS rounds, each on a fresh schema. Imports the compiled tree (PINCER_OUT, default out/).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile, record } from './lib/record.mjs';
import { shuffled } from './lib/shuffle.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.resolve(ROOT, process.env.PINCER_OUT ?? 'out');
const out = (...p) => require(path.join(OUT, ...p));
const { startPostgres } = out('test', 'support', 'postgres-server.js');
const { PgBoardStore } = out('src', 'core', 'teams', 'postgres', 'pg-board-store.js');
const { teamStoreConnection } = out('src', 'core', 'teams', 'postgres', 'team-store-settings.js');

const TASKS = 1000;
const EDITORS = 4;
const MEMBERS = 4;
const PINGS = 200;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TEAM = 'bench';

async function claimRound(server, r) {
  const options = { connection: teamStoreConnection({ url: server.url, schema: `bench_${randomBytes(4).toString('hex')}`, tls: { mode: 'disable' } }, server.password) };
  const editors = [];
  for (let e = 0; e < EDITORS; e++) editors.push(await PgBoardStore.open(options));
  try {
    const ids = [];
    for (let i = 0; i < TASKS; i++) ids.push((await editors[0].create(TEAM, { subject: `Task ${i}`, description: `work item ${i}` }, { name: 'lead', at: i })).id);
    const won = new Map();
    const latencies = [];
    let refused = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: EDITORS * MEMBERS }, async (_, c) => {
      const me = `m${c}`;
      const board = editors[c % EDITORS];
      for (const id of shuffled(ids, r * 1000 + c + 1)) {
        if (won.has(id)) continue; // a member that saw the task taken on the board does not try it
        const t = performance.now();
        try {
          await board.claim(TEAM, id, `run-${me}`, { name: me, at: Date.now() });
          latencies.push(performance.now() - t);
          if (won.has(id)) throw new Error(`task ${id} claimed twice (${won.get(id)} and ${me})`);
          won.set(id, me);
        } catch (e) {
          latencies.push(performance.now() - t);
          if (!String(e.message).startsWith('Refused:')) throw e;
          refused++;
        }
      }
    }));
    const wallMs = performance.now() - started;
    const tasks = await editors[0].list(TEAM, 'all', 'newest', TASKS * 2);
    const claims = (await editors[0].events(TEAM, { limit: TASKS * 3 })).filter((e) => e.action === 'claim');
    const exactlyOnce = won.size === TASKS && tasks.every((t) => t.status === 'in_progress' && t.owner === won.get(t.id))
      && claims.length === TASKS && new Set(claims.map((e) => e.taskId)).size === TASKS;
    return { p95: percentile(latencies, 95), p50: percentile(latencies, 50), attempts: latencies.length, refused, wallMs, exactlyOnce };
  } finally {
    for (const e of editors) await e.close();
  }
}

async function notifyRound(server) {
  const options = { connection: teamStoreConnection({ url: server.url, schema: `bench_${randomBytes(4).toString('hex')}`, tls: { mode: 'disable' } }, server.password) };
  const writer = await PgBoardStore.open(options);
  const reader = await PgBoardStore.open(options);
  try {
    const ms = [];
    for (let i = 0; i < PINGS; i++) {
      const heard = new Promise((resolve) => {
        const sub = reader.onChange((c) => {
          if (c.action !== `ping-${i}`) return;
          sub.dispose();
          resolve(performance.now());
        });
      });
      const t = performance.now();
      await writer.note(TEAM, undefined, `ping-${i}`, 'bench', { name: 'lead', at: i });
      ms.push((await heard) - t);
    }
    return { p95: percentile(ms, 95), p50: percentile(ms, 50) };
  } finally {
    await writer.close();
    await reader.close();
  }
}

const server = await startPostgres({ durable: true });
try {
  const loadBefore = os.loadavg();
  const claims = [];
  const notes = [];
  for (let r = 0; r < ROUNDS; r++) {
    const c = await claimRound(server, r);
    console.log(`round ${r + 1} claims: p95 ${c.p95.toFixed(2)} ms (p50 ${c.p50.toFixed(2)}), ${c.attempts} attempts, ${c.refused} refused, ${Math.round(c.wallMs)} ms, exactly once: ${c.exactlyOnce}`);
    claims.push(c);
    const n = await notifyRound(server);
    console.log(`round ${r + 1} notify: p95 ${n.p95.toFixed(2)} ms (p50 ${n.p50.toFixed(2)})`);
    notes.push(n);
  }
  const claimP95 = median(claims.map((x) => x.p95));
  const allOnce = claims.every((x) => x.exactlyOnce);
  record({
    name: 'teamstore-claim-pg', unit: 'ms', value: claimP95, goal: 'every task claimed exactly once; p95 claim latency <= 15 ms', pass: allOnce && claimP95 <= 15,
    runs: ROUNDS, statistic: 'median of per-round p95 over every claim call (won or refused)',
    corpus: `${TASKS} pending tasks, ${EDITORS * MEMBERS} concurrent claimers (${EDITORS} stores with their own connections, ${MEMBERS} members each) in one process, PostgreSQL ${server.version} on loopback (fsync on)`,
    extra: { exactlyOnce: allOnce, p50: median(claims.map((x) => x.p50)), attempts: median(claims.map((x) => x.attempts)), refused: median(claims.map((x) => x.refused)), wallMs: median(claims.map((x) => x.wallMs)) },
    loadBefore,
  });
  const notifyP95 = median(notes.map((x) => x.p95));
  record({
    name: 'teamstore-notify-latency', unit: 'ms', value: notifyP95, goal: 'p95 <= 200 ms', pass: notifyP95 <= 200,
    runs: ROUNDS, statistic: 'median of per-round p95',
    corpus: `${PINGS} audit events one at a time, written by one store and heard by another (LISTEN/NOTIFY), PostgreSQL on loopback`,
    extra: { p50: median(notes.map((x) => x.p50)) },
    loadBefore,
  });
} finally {
  await server.remove();
}
