// Running ripgrep as a child process and streaming its output, as events, to a consumer that can stop it.
// A search split over several processes (ripgrep-shards.ts) runs them all at once and reads their
// outputs one after the other: a later process's output is held until the ones before it have ended
// (and its pipe paused when much is held, so rg waits instead of this process filling memory).
// node's child_process, not execa (the house choice for processes): this is one long-lived stream
// read line by line and killed the moment the consumer has enough, and execa is not installed yet.
import { spawn, type ChildProcess } from 'node:child_process';
import { LineSplitter, RgRecordParser, type RgEvent } from './ripgrep-output';

export interface RunRipgrepOptions {
  rgPath: string;
  args: string[];
  /** Further command lines run beside `args`; their output is read after it, in this order. */
  moreArgs?: string[][];
  cwd: string;
  signal: AbortSignal;
  /** Epoch milliseconds after which the process is killed and what was found so far is kept. */
  deadline?: number;
  /** Returns false when it has enough: the process is killed and no more events are delivered. */
  onEvent(ev: RgEvent): boolean;
  /** Called with the pid right after the spawn (tests check that the process is gone afterwards). */
  onSpawn?(pid: number): void;
}

export interface RunRipgrepOutcome {
  /** done: rg exited by itself; stopped: the consumer had enough; cancelled: the signal fired. */
  end: 'done' | 'stopped' | 'cancelled' | 'deadline' | 'spawn-error';
  /** rg's exit code when it exited by itself: 0 matches, 1 none, 2 an error (possibly with matches). */
  exitCode: number | null;
  stderr: string;
}

const STDERR_CAP = 8192;
/** After SIGTERM, how long rg gets before SIGKILL. */
const KILL_GRACE_MS = 1500;
/** Characters of a later process's output held before its pipe is paused. */
const HOLD_CAP = 1 << 20;

interface Proc {
  child: ChildProcess;
  splitter: LineSplitter;
  held: string[];
  heldChars: number;
  closed: boolean;
  code: number | null;
  stderr: string;
  spawnError?: string;
}

/** Several processes' exit codes as one: an error in any, else matches in any, else none. */
function combinedCode(codes: (number | null)[]): number | null {
  if (codes.some((c) => c !== 0 && c !== 1)) return codes.find((c) => c !== 0 && c !== 1) ?? null;
  return codes.includes(0) ? 0 : 1;
}

export function runRipgrep(o: RunRipgrepOptions): Promise<RunRipgrepOutcome> {
  return new Promise((resolve) => {
    if (o.signal.aborted) {
      resolve({ end: 'cancelled', exitCode: null, stderr: '' });
      return;
    }
    let end: RunRipgrepOutcome['end'] | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const parser = new RgRecordParser((ev) => {
      if (o.onEvent(ev)) return true;
      stop('stopped');
      return false;
    });
    const onLine = (line: string): boolean => parser.line(line);
    const procs: Proc[] = [];
    /** The process whose output is read now; the ones after it are held. */
    let reading = 0;

    const stop = (why: Exclude<RunRipgrepOutcome['end'], 'done' | 'spawn-error'>) => {
      if (end) return;
      end = why;
      for (const p of procs) {
        if (p.closed) continue;
        p.child.kill('SIGTERM');
        // A paused pipe would never reach its end, and the process's close waits for it.
        p.child.stdout?.resume();
      }
      killTimer = setTimeout(() => { for (const p of procs) if (!p.closed) p.child.kill('SIGKILL'); }, KILL_GRACE_MS);
    };
    const onAbort = () => stop('cancelled');
    o.signal.addEventListener('abort', onAbort, { once: true });
    const deadlineTimer = o.deadline !== undefined ? setTimeout(() => stop('deadline'), Math.max(0, o.deadline - Date.now())) : undefined;

    /** Reads what the processes up to the first still running have printed, in order. */
    const advance = () => {
      while (!end && reading < procs.length) {
        const p = procs[reading];
        for (const chunk of p.held.splice(0)) if (!end) p.splitter.push(chunk, onLine);
        p.heldChars = 0;
        if (!p.closed) {
          p.child.stdout?.resume();
          return;
        }
        if (!end) p.splitter.flush(onLine);
        reading++;
      }
    };

    const finish = () => {
      if (procs.some((p) => !p.closed)) return;
      if (!end) advance();
      if (!end) parser.end();
      o.signal.removeEventListener('abort', onAbort);
      if (deadlineTimer) clearTimeout(deadlineTimer);
      if (killTimer) clearTimeout(killTimer);
      const stderr = [...new Set(procs.map((p) => p.stderr).filter(Boolean))].join('').slice(0, STDERR_CAP);
      const failed = procs.find((p) => p.spawnError !== undefined && p.child.pid === undefined);
      if (failed) {
        resolve({ end: 'spawn-error', exitCode: null, stderr: failed.spawnError ?? '' });
        return;
      }
      resolve({ end: end ?? 'done', exitCode: end ? null : combinedCode(procs.map((p) => p.code)), stderr });
    };

    for (const args of [o.args, ...(o.moreArgs ?? [])]) {
      if (end) break; // stopped from onSpawn (a cancellation): start no more
      // No shell: the pattern and paths reach rg as argv entries, never parsed by anything else.
      const child = spawn(o.rgPath, args, { cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'], shell: false, windowsHide: true });
      const p: Proc = { child, splitter: new LineSplitter(), held: [], heldChars: 0, closed: false, code: null, stderr: '' };
      const index = procs.push(p) - 1;
      if (child.pid !== undefined) o.onSpawn?.(child.pid);
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        if (end) return;
        if (index === reading) {
          p.splitter.push(chunk, onLine);
          return;
        }
        p.held.push(chunk);
        p.heldChars += chunk.length;
        if (p.heldChars >= HOLD_CAP) child.stdout.pause();
      });
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => {
        if (p.stderr.length < STDERR_CAP) p.stderr += chunk.slice(0, STDERR_CAP - p.stderr.length);
      });
      child.on('error', (e) => {
        p.spawnError = e.message;
        // A process that never started: the others are not worth waiting for.
        if (child.pid === undefined) stop('stopped');
      });
      child.on('close', (code) => {
        p.closed = true;
        p.code = code;
        if (index === reading) advance();
        finish();
      });
    }
  });
}
