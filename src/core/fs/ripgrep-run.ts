// Running ripgrep as a child process and streaming its output, as events, to a consumer that can stop it.
// node's child_process, not execa (the house choice for processes): this is one long-lived stream
// read line by line and killed the moment the consumer has enough, and execa is not installed yet.
import { spawn } from 'node:child_process';
import { LineSplitter, RgRecordParser, type RgEvent } from './ripgrep-output';

export interface RunRipgrepOptions {
  rgPath: string;
  args: string[];
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

export function runRipgrep(o: RunRipgrepOptions): Promise<RunRipgrepOutcome> {
  return new Promise((resolve) => {
    if (o.signal.aborted) {
      resolve({ end: 'cancelled', exitCode: null, stderr: '' });
      return;
    }
    // No shell: the pattern and paths reach rg as argv entries, never parsed by anything else.
    const child = spawn(o.rgPath, o.args, { cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'], shell: false, windowsHide: true });
    let end: RunRipgrepOutcome['end'] | undefined;
    let stderr = '';
    let spawnError: string | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const splitter = new LineSplitter();
    const parser = new RgRecordParser((ev) => {
      if (o.onEvent(ev)) return true;
      stop('stopped');
      return false;
    });
    const onLine = (line: string): boolean => parser.line(line);

    const stop = (why: Exclude<RunRipgrepOutcome['end'], 'done' | 'spawn-error'>) => {
      if (end) return;
      end = why;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    };
    const onAbort = () => stop('cancelled');
    o.signal.addEventListener('abort', onAbort, { once: true });
    const deadlineTimer = o.deadline !== undefined ? setTimeout(() => stop('deadline'), Math.max(0, o.deadline - Date.now())) : undefined;

    if (child.pid !== undefined) o.onSpawn?.(child.pid);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (!end) splitter.push(chunk, onLine);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < STDERR_CAP) stderr += chunk.slice(0, STDERR_CAP - stderr.length);
    });
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('close', (code) => {
      if (!end && splitter.flush(onLine)) parser.end();
      o.signal.removeEventListener('abort', onAbort);
      if (deadlineTimer) clearTimeout(deadlineTimer);
      if (killTimer) clearTimeout(killTimer);
      if (spawnError !== undefined && child.pid === undefined) {
        resolve({ end: 'spawn-error', exitCode: null, stderr: spawnError });
        return;
      }
      resolve({ end: end ?? 'done', exitCode: end ? null : code, stderr });
    });
  });
}
