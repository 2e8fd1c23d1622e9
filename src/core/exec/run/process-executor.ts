// The `process` host: a command runs as a child process of the extension host (through execa), in
// its own process group, with exactly the environment it was given. Output is read as it arrives and
// decoded per stream, so a UTF-8 character split across two reads stays whole.
import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import type { Executor, OutputStream, RunningProcess, RunOutcome, RunRequest } from '../exec-types';
import { killTree } from './kill-tree';
import { failedProcess, type OnOutput } from './pending-process';
import { shellArgv, shellPath } from './shell-command';

export interface ProcessExecutorOptions {
  /** The shell for `{ shell }` targets; default bash when it exists, else /bin/sh. */
  shellPath?: string;
  /**
   * After the program exits, how long to wait for its output pipes to close (1,000 ms by default).
   * Only a process it left running in the background (holding the pipes) makes this wait at all.
   */
  drainMs?: number;
}

const BACKGROUND_NOTE =
  'A process it started in the background still holds its output, so output printed after it exited is not captured. ' +
  'Redirect a background process\'s output to a file (`cmd > log 2>&1 &`) to keep it.';

export function createProcessExecutor(opts: ProcessExecutorOptions = {}): Executor {
  return { kind: 'process', start: (req, onOutput) => startProcess(req, onOutput, opts) };
}

function startProcess(req: RunRequest, onOutput: OnOutput, opts: ProcessExecutorOptions): RunningProcess {
  const cwdProblem = checkCwd(req.cwd);
  if (cwdProblem) return failedProcess(cwdProblem);
  const argv = 'shell' in req.target ? shellArgv(req.target.shell, opts.shellPath ?? shellPath()) : [...req.target.argv];
  if (!argv.length || !argv[0]) return failedProcess('Nothing to run: the argv is empty. Pass the program as its first element.');
  const [file, ...args] = argv;

  let sub: ReturnType<typeof spawn>;
  try {
    sub = spawn(file, args, req);
  } catch (e) {
    return failedProcess(`${file} could not be started: ${e instanceof Error ? e.message : String(e)}`);
  }
  // With reject:false the promise never rejects; it is only read for a failed spawn (below), and is
  // otherwise left alone: it waits for the pipes, which a background process may hold for hours.
  if (sub.pid === undefined) {
    return failedProcess(sub.then((r) => startErrorOf(file, r as SpawnFailure, req)));
  }
  return watch(sub, req, onOutput, opts.drainMs ?? 1000);
}

/**
 * execa on the first command, not when the runtime loads: evaluating it (with the streams and
 * node:v8 it requires) was a part of the first tool call of every window, a file read included.
 */
function execa(): typeof import('execa').execa {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('execa') as typeof import('execa')).execa;
}

function spawn(file: string, args: string[], req: RunRequest) {
  const windowsShell = process.platform === 'win32' && 'shell' in req.target;
  return execa()(file, args, {
    cwd: req.cwd,
    env: { ...req.env },
    extendEnv: false,
    // Its own process group: kill() can signal the whole group, and a Ctrl+C aimed at the extension
    // host's group never reaches it.
    detached: true,
    stdin: req.interactive ? 'pipe' : 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    windowsHide: true,
    windowsVerbatimArguments: windowsShell,
  });
}

function checkCwd(cwd: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(cwd);
  } catch {
    return `The working directory ${cwd} does not exist. Pass an existing folder as cwd (or create it first).`;
  }
  return st.isDirectory() ? undefined : `The working directory ${cwd} is a file, not a folder. Pass a folder as cwd.`;
}

type SpawnFailure = { code?: string; shortMessage?: string; message?: string };

function startErrorOf(file: string, r: SpawnFailure, req: RunRequest): string {
  if (r.code === 'ENOENT') {
    return `${file} was not found on PATH (${req.env.PATH ?? 'PATH is not set'}). Check the program name, give its full path, or install it.`;
  }
  if (r.code === 'EACCES') return `${file} is not executable (permission denied). Check the path, or make it executable.`;
  return `${file} could not be started: ${r.shortMessage ?? r.message ?? r.code ?? 'unknown error'}`;
}

type Sub = ReturnType<typeof spawn>;

/** Follows a spawned program: output as it arrives, `done` once it exited and its pipes closed. */
function watch(sub: Sub, req: RunRequest, onOutput: OnOutput, drainMs: number): RunningProcess {
  const pid = sub.pid as number;
  let settled = false;
  let exit: RunOutcome | undefined;
  let openStreams = 2;
  let drainTimer: NodeJS.Timeout | undefined;
  let resolveDone!: (o: RunOutcome) => void;
  const done = new Promise<RunOutcome>((r) => (resolveDone = r));
  const streams = [sub.stdout, sub.stderr] as Readable[];

  const settle = (note?: string) => {
    if (settled || !exit) return;
    settled = true;
    if (drainTimer) clearTimeout(drainTimer);
    resolveDone(note ? { ...exit, note } : exit);
  };
  const follow = (stream: Readable, name: OutputStream) => {
    const decoder = new StringDecoder('utf8');
    stream.on('data', (b: Buffer) => {
      if (settled) return;
      const text = decoder.write(b);
      if (text) onOutput(text, name);
    });
    stream.once('end', () => {
      const rest = decoder.end();
      if (rest && !settled) onOutput(rest, name);
    });
    stream.once('close', () => {
      openStreams--;
      if (!openStreams) settle();
    });
    stream.on('error', () => undefined); // a read error ends the stream; 'close' follows
  };
  follow(streams[0], 'stdout');
  follow(streams[1], 'stderr');

  sub.once('exit', (code, signal) => {
    exit = signal ? { exitCode: null, signal } : { exitCode: code };
    if (!openStreams) return settle();
    drainTimer = setTimeout(() => {
      // Something in the background still writes to the pipes. Keep reading and dropping what it
      // writes (closing the pipe would kill it with SIGPIPE, not reading would block it), but let
      // the extension host exit without waiting for it.
      for (const s of streams) (s as Readable & { unref?: () => void }).unref?.();
      settle(BACKGROUND_NOTE);
    }, drainMs);
  });

  const stdin = sub.stdin as Writable | null;
  stdin?.on('error', () => undefined); // EPIPE when the program exits without reading: write() reports it
  return {
    pid,
    done,
    write: (data) => writeInput(stdin, req.interactive === true, settled, data),
    endInput: () => {
      if (stdin && !stdin.writableEnded) stdin.end();
    },
    kill: async (graceMs) => {
      // Also after the program exited but before `done`: then what holds the pipes is in the background.
      if (!settled) await killTree(pid, { graceMs: graceMs ?? 3000, group: true });
      await done;
    },
  };
}

function writeInput(stdin: Writable | null, interactive: boolean, settled: boolean, data: string): Promise<void> {
  if (!interactive || !stdin) {
    return Promise.reject(new Error('This command was not started with interactive input, so nothing can be written to it. Start it again as interactive to send input.'));
  }
  if (settled || stdin.writableEnded || stdin.destroyed) {
    return Promise.reject(new Error('The program\'s input is closed (it ended, or input was already closed with EOF); nothing more can be written.'));
  }
  return new Promise((resolve, reject) => {
    stdin.write(data, (err) => (err ? reject(new Error(`Could not write to the program's input: ${err.message}`)) : resolve()));
  });
}
