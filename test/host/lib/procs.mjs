// Process bookkeeping shared by the harness and `npm start`: a marker in the environment of every
// process we start, so stragglers that left our process group (terminal shells: node-pty calls
// setsid) can be found in /proc and killed by PID — never by name.
import fs from 'node:fs';
import net from 'node:net';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls fn until it returns a truthy value; throws naming `what` after timeoutMs. */
export async function waitFor(fn, timeoutMs, what, intervalMs = 200) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timeout after ${timeoutMs}ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** PIDs (other than ours) whose environment holds NAME=value exactly. */
export function pidsWithMarker(name, value) {
  const needle = `${name}=${value}\0`;
  const pids = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const env = fs.readFileSync(`/proc/${d}/environ`, 'latin1');
      if (env.startsWith(needle) || env.includes(`\0${needle}`)) pids.push(Number(d));
    } catch { /* gone, or not ours to read */ }
  }
  return pids;
}

/** Kills by PID everything still carrying the marker (TERM first, then KILL). Returns survivors. */
export async function sweepMarker(name, value, onSweep = () => {}) {
  for (let round = 0; round < 3; round++) {
    const left = pidsWithMarker(name, value);
    if (!left.length) break;
    onSweep(left);
    for (const pid of left) { try { process.kill(pid, round ? 'SIGKILL' : 'SIGTERM'); } catch { /* gone */ } }
    await sleep(500);
  }
  return pidsWithMarker(name, value);
}

/** TERM a detached child's whole process group, wait up to graceMs, then KILL it. */
export async function killGroup(child, graceMs = 8000) {
  if (!child?.pid) return;
  try { process.kill(-child.pid, 'SIGTERM'); } catch { return; }
  const t0 = Date.now();
  while (Date.now() - t0 < graceMs) {
    try { process.kill(-child.pid, 0); } catch { return; }
    await sleep(200);
  }
  try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
}

/** Sum of PSS (KiB) of this process and the marked ones; PSS does not double-count shared pages. */
export function pssKb(name, value) {
  let total = 0;
  for (const pid of [process.pid, ...pidsWithMarker(name, value)]) {
    try {
      const m = /^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) total += Number(m[1]);
    } catch { /* gone */ }
  }
  return total;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

/** True when nothing listens on 127.0.0.1:port (we can bind it). */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}
