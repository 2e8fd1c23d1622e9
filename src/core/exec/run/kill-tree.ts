// Ending a whole process tree. Signalling the process group alone misses a descendant that left it
// (`setsid`, a daemonising server); signalling the pid alone misses everything it started. So the
// tree is snapshotted first (children are reparented to init the moment their parent dies, after
// which nothing links them to us any more), then the group and every snapshotted pid get SIGTERM,
// and whatever is still alive after the grace period gets SIGKILL.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

export interface KillTreeOptions {
  /** How long SIGTERM gets before SIGKILL; 3,000 ms by default. */
  graceMs?: number;
  /** The pid leads its own process group (spawned detached): signal the group (-pid) as well. */
  group?: boolean;
  /**
   * End everything below the pid but leave the pid itself (a terminal's shell, whose command runs
   * in its children): the shell stays for the person to read and reuse.
   */
  keepRoot?: boolean;
}

const POLL_MS = 25;
/** After SIGKILL, how long to wait for the kernel to take them away before returning anyway. */
const AFTER_KILL_MS = 1000;

/** pid → parent pid of every process we can see. */
function parentTable(): Map<number, number> {
  const table = new Map<number, number>();
  if (process.platform === 'linux') {
    for (const [pid, st] of procTable()) table.set(pid, st.ppid);
    return table;
  }
  if (process.platform === 'win32') return table;
  // macOS and the BSDs: one `ps` for the whole table rather than one call per process.
  let out = '';
  try {
    out = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return table;
  }
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
    if (m) table.set(Number(m[1]), Number(m[2]));
  }
  return table;
}

interface ProcStat {
  state: string;
  ppid: number;
  pgrp: number;
}

/** The state letter, parent and process group from /proc/<pid>/stat (Linux); undefined when it is gone. */
function procStat(pid: number): ProcStat | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: rest[0], ppid: Number(rest[1]), pgrp: Number(rest[2]) };
}

const isZombie = (st: ProcStat) => st.state === 'Z' || st.state === 'X';

/** Every process we can see on Linux, with its stat. */
function procTable(): Map<number, ProcStat> {
  const table = new Map<number, ProcStat>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = procStat(Number(name));
    if (st) table.set(Number(name), st);
  }
  return table;
}

/** Every descendant of `pid` (children, grandchildren, …), parents before their children. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const [child, parent] of parentTable()) {
    const list = children.get(parent);
    if (list) list.push(child);
    else children.set(parent, [child]);
  }
  const out: number[] = [];
  const seen = new Set<number>([pid]);
  const queue = [pid];
  while (queue.length) {
    for (const c of children.get(queue.shift() as number) ?? []) {
      if (seen.has(c)) continue;
      seen.add(c);
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** Sends a signal; a process (or group) that is already gone is not an error. */
function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ESRCH' && code !== 'EPERM') throw e;
  }
}

/** Alive and not a zombie (a zombie is dead; it only waits for its parent to reap it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform === 'linux') {
    const st = procStat(pid);
    return st !== undefined && !isZombie(st);
  }
  return true;
}

/** Whether the group has a live member (zombies wait for a reaper that may take seconds: not live). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  for (const st of procTable().values()) if (st.pgrp === pgid && !isZombie(st)) return true;
  return false;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls until every pid in `pids` is gone (zombies count as gone) and `more()` is false, or `ms`
 * passed; returns the pids left.
 */
async function waitGone(pids: readonly number[], ms: number, more = () => false): Promise<number[]> {
  const until = Date.now() + ms;
  let left = pids.filter(alive);
  while ((left.length || more()) && Date.now() < until) {
    await sleep(Math.min(POLL_MS, Math.max(1, until - Date.now())));
    left = left.filter(alive);
  }
  return left;
}

/**
 * SIGTERM to the tree (the group when `group`, the pid, every descendant), SIGKILL to what is left
 * after the grace period. Resolves once they are gone (or a short while after SIGKILL, for a process
 * stuck in the kernel). Never rejects for a process that is already gone.
 */
export async function killTree(pid: number, opts: KillTreeOptions = {}): Promise<void> {
  const graceMs = opts.graceMs ?? 3000;
  if (process.platform === 'win32') {
    // Windows has no signals to be graceful with; taskkill walks the tree itself. Untested here.
    spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return;
  }
  const below = descendants(pid);
  if (opts.keepRoot && !below.length) return;
  const tree = opts.keepRoot ? below : [pid, ...below];
  // SIGCONT after SIGTERM: a stopped process (Ctrl+Z, SIGSTOP) only acts on SIGTERM once it runs.
  for (const sig of ['SIGTERM', 'SIGCONT'] as const) {
    if (opts.group) signal(-pid, sig);
    for (const p of tree) signal(p, sig);
  }
  // A group member forked after the snapshot is not in `tree`: it got the group's SIGTERM, and the
  // grace period lasts until it is gone too.
  const groupLeft = () => opts.group === true && groupAlive(pid);
  const left = await waitGone(tree, graceMs, groupLeft);
  if (!left.length && !groupLeft()) return;

  // Re-snapshot: what the survivors started during the grace period is killed too.
  const rest = new Set(left);
  for (const p of left) for (const d of descendants(p)) rest.add(d);
  if (opts.group) signal(-pid, 'SIGKILL');
  for (const p of rest) signal(p, 'SIGKILL');
  await waitGone([...rest], AFTER_KILL_MS);
}
