// Helpers for the executor tests: run a request to the end and keep what it printed, and check
// whether a pid is still a live process (a zombie counts as gone: it only waits to be reaped).
import fs from 'node:fs';
import type { Executor, OutputStream, RunningProcess, RunOutcome, RunRequest } from '../../../../src/core/exec/exec-types';

export interface Collected {
  proc: RunningProcess;
  chunks: { text: string; stream: OutputStream }[];
  stdout(): string;
  stderr(): string;
}

export function startCollecting(ex: Executor, req: RunRequest): Collected {
  const chunks: { text: string; stream: OutputStream }[] = [];
  const proc = ex.start(req, (text, stream) => chunks.push({ text, stream }));
  const join = (s: OutputStream) => chunks.filter((c) => c.stream === s).map((c) => c.text).join('');
  return { proc, chunks, stdout: () => join('stdout'), stderr: () => join('stderr') };
}

export async function run(ex: Executor, req: RunRequest): Promise<Collected & { outcome: RunOutcome }> {
  const c = startCollecting(ex, req);
  return { ...c, outcome: await c.proc.done };
}

/** A minimal environment: PATH only, so nothing of the test runner's environment leaks by accident. */
export const baseEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '/usr/bin:/bin' });

export function isLive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/**
 * Waits until `cond()` holds and returns true. There is no budget of its own: a condition that never
 * holds fails the test at its timeout, so a slow machine only makes the test slower.
 */
export async function waitFor(cond: () => boolean): Promise<boolean> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
  return true;
}

/** The first integer a chunk of output holds once it appears (a pid the script echoed). */
export async function pidFrom(read: () => string): Promise<number> {
  let pid = 0;
  await waitFor(() => {
    const m = /(\d+)/.exec(read());
    pid = m ? Number(m[1]) : 0;
    return pid > 0;
  });
  return pid;
}

/** Kills pids a test left behind (a background process it started), ignoring those already gone. */
export function reap(pids: number[]): void {
  for (const p of pids.splice(0)) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}
