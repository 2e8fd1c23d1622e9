// Runs commands in the integrated terminal, where the user watches them, through the shell-integration
// API: executeCommand, execution.read() and the end event's exit code. Shell integration can be
// missing or silent (a custom prompt, a shell without the script, an ssh session inside): when a new
// terminal's integration has not started within the configured wait, the command runs as a child
// process instead — before anything ran in the terminal, so nothing runs twice — and the result says so.
import * as vscode from 'vscode';
import type { Executor, OutputStream, RunningProcess, RunOutcome, RunRequest } from '../../core/exec/exec-types';
import { killTree } from '../../core/exec/run/kill-tree';
import { TerminalTextDecoder } from '../../core/exec/run/terminal-text';
import { shellArgv, shellPath, shellQuote } from '../../core/exec/run/shell-command';
import { createExitCodeFile } from '../../core/exec/run/exit-code-file';

interface PooledTerminal {
  terminal: vscode.Terminal;
  key: string;
  busy: boolean;
}

/** How long after SIGKILL a terminal may stay silent before it is closed to end the command for sure. */
const CLOSE_AFTER_KILL_MS = 2000;
/**
 * How long after the status file the output may take to arrive (up to the end mark or the end event)
 * when the terminal has reported nothing else since. The renderer lags behind the shell on a busy
 * machine, and a result cut short loses the very lines (a refused write) that decide what happens
 * next; only a terminal whose shell integration stays silent about the command waits this long.
 */
const OUTPUT_AFTER_STATUS_MS = 20_000;

export class TerminalExecutor implements Executor, vscode.Disposable {
  readonly kind = 'terminal' as const;
  private readonly pool = new Set<PooledTerminal>();
  private readonly closed = vscode.window.onDidCloseTerminal((t) => {
    for (const p of this.pool) if (p.terminal === t) this.pool.delete(p);
  });

  constructor(
    /** The child-process executor used when the terminal cannot run the command (argv, input, no integration). */
    private readonly fallback: Executor,
    private readonly integrationWaitMs: () => number,
  ) {}

  start(req: RunRequest, onOutput: (chunk: string, stream: OutputStream) => void): RunningProcess {
    // A sandboxed command arrives as bwrap's argv around the judged text, and is shown like any other.
    if (!('shell' in req.target) && !req.target.visible) return this.viaFallback(req, onOutput, 'a program run without a shell');
    if (req.interactive) return this.viaFallback(req, onOutput, 'a job that takes input');
    const killer = new KillSwitch();
    const argv = 'shell' in req.target ? shellArgv(req.target.shell) : [...req.target.argv];
    const done = this.run(req, argv, onOutput, killer)
      .catch((e: unknown): RunOutcome => ({ exitCode: null, startError: `The terminal could not run the command: ${(e as Error).message}` }));
    return {
      done,
      write: async () => { throw new Error('This job runs in the terminal without input from tools; start it with interactive: true to write to it.'); },
      endInput: () => undefined,
      kill: async (graceMs = 3000) => {
        killer.request(graceMs);
        await done;
      },
    };
  }

  private async run(req: RunRequest, argv: readonly string[], onOutput: (chunk: string, stream: OutputStream) => void, killer: KillSwitch): Promise<RunOutcome> {
    const p = this.acquire(req);
    const integration = p.terminal.shellIntegration ?? await waitForIntegration(p.terminal, this.integrationWaitMs());
    if (integration === 'closed') {
      this.pool.delete(p);
      return { exitCode: null, startError: 'The Pincer terminal was closed before the command started; nothing ran. Run it again to get a new terminal.' };
    }
    if (!integration || killer.requested) {
      // Nothing ran in the terminal yet, so running it elsewhere cannot run it twice.
      p.terminal.dispose();
      this.pool.delete(p);
      const secs = Math.round(this.integrationWaitMs() / 1000);
      const inner = this.viaFallback(req, onOutput, `shell integration did not start within ${secs} s`);
      killer.arm((g) => inner.kill(g));
      return inner.done;
    }
    const decoder = new TerminalTextDecoder();
    // Through `bash -c '…'`, not typed into the interactive shell: the user's aliases and functions
    // cannot change what the judged text means, and `exit` cannot end the terminal. The folder is set
    // by `cd` rather than the terminal's cwd option: VS Code refuses a folder made moments ago as a
    // terminal's starting folder, and one terminal can then serve every folder.
    // The status also goes to a private file and, after it, an end mark into the output (see
    // exit-code-file.ts): when the shell's end-of-command sequence goes missing, they still end the
    // wait instead of the command's timeout, and the output is read to its end first.
    const statusFile = createExitCodeFile();
    const line = `cd -- ${shellQuote(req.cwd)} && ${argv.map(shellQuote).join(' ')}${statusFile.suffix}`;
    const execution = integration.executeCommand(line);
    const stream = execution.read();
    // Closing the terminal may end the execution first (with no exit code) and close it after.
    const subs: vscode.Disposable[] = [];
    let isClosed = false;
    const closed = new Promise<void>((resolve) => subs.push(vscode.window.onDidCloseTerminal((t) => {
      if (t !== p.terminal) return;
      isClosed = true;
      resolve();
    })));
    const endEvent = new Promise<number | undefined>((resolve) => subs.push(vscode.window.onDidEndTerminalShellExecution((e) => {
      if (e.execution === execution) resolve(e.exitCode);
    })));
    // Another command reported in this terminal after this line was sent: the terminal has got past
    // this line, so if this execution has not ended by then, its output is not coming.
    const passed = new Promise<void>((resolve) => subs.push(vscode.window.onDidStartTerminalShellExecution((e) => {
      if (e.terminal === p.terminal && e.execution !== execution) resolve();
    })));
    // The end mark in the output: everything the command printed has been read once it shows.
    let markSeen: () => void = () => undefined;
    const marked = new Promise<undefined>((resolve) => { markSeen = () => resolve(undefined); });
    const reading = (async () => {
      for await (const chunk of stream) {
        const out = decoder.push(chunk);
        if (out) onOutput(out, 'terminal');
        if (statusFile.mark.push(chunk)) markSeen();
      }
    })().catch(() => undefined);
    let fileCode: number | undefined;
    // The end event comes after all the output (VS Code flushes the stream first), and so does the
    // mark. The file only says the command is over, not that its output has arrived: after it, the
    // wait goes on for them, until the terminal shows it will not send them.
    const fromFile = statusFile.code.then(async (code) => {
      fileCode = code;
      await raceTimeout([endEvent, marked, closed, passed], OUTPUT_AFTER_STATUS_MS);
      return undefined;
    });
    const ended = Promise.race([endEvent, marked, closed.then(() => undefined), fromFile]);
    const shellPid = await p.terminal.processId;
    killer.arm(async (graceMs) => {
      // The command runs in children of the terminal's shell: end their trees, not the shell.
      if (shellPid) await killTree(shellPid, { graceMs, group: false, keepRoot: true });
      // A command that still does not end (or a silent integration) goes with its terminal.
      const quiet = setTimeout(() => p.terminal.dispose(), CLOSE_AFTER_KILL_MS);
      await ended;
      clearTimeout(quiet);
    });
    // The end event's code when it gave one; else the mark's or the file's (the same `$?`).
    const exitCode = (await ended) ?? statusFile.mark.status ?? fileCode;
    // The stream ends with the execution; a little grace for the last chunk (and for the close
    // event when a closing terminal ended the execution without an exit code).
    await Promise.race([Promise.all([reading, exitCode === undefined ? closed : undefined]), new Promise((r) => setTimeout(r, 500))]);
    subs.forEach((d) => d.dispose());
    statusFile.dispose();
    const rest = decoder.flush();
    if (rest) onOutput(rest, 'terminal');
    p.busy = false;
    if (isClosed && !killer.requested) return { exitCode: null, note: 'the terminal was closed before the command finished' };
    return exitCode === undefined
      ? { exitCode: null, note: 'ran in the integrated terminal, which did not report an exit code' }
      : { exitCode, note: `ran in the integrated terminal "${p.terminal.name}"` };
  }

  /** Where new terminals start: the first workspace folder (each command cds to its own folder). */
  private home(): string | undefined {
    return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  }

  /** An idle Pincer terminal with the same environment, or a new one. */
  private acquire(req: RunRequest): PooledTerminal {
    const key = JSON.stringify(Object.entries(req.env).sort());
    for (const p of this.pool) {
      if (!p.busy && p.key === key && p.terminal.exitStatus === undefined) {
        p.busy = true;
        return p;
      }
    }
    const terminal = vscode.window.createTerminal({
      // A shell we know the quoting of (bash when there is one); VS Code injects shell integration into it.
      name: 'Pincer', shellPath: shellPath(), cwd: this.home(), env: { ...req.env }, strictEnv: true, isTransient: true,
      iconPath: new vscode.ThemeIcon('terminal'),
    });
    terminal.show(true);
    const p = { terminal, key, busy: true };
    this.pool.add(p);
    return p;
  }

  private viaFallback(req: RunRequest, onOutput: (chunk: string, stream: OutputStream) => void, why: string): RunningProcess {
    const run = this.fallback.start(req, onOutput);
    const done = run.done.then((o) => ({ ...o, note: [`${why}: ran as a child process, not in the terminal`, o.note].filter(Boolean).join('; ') }));
    return { ...run, pid: run.pid, done, write: (d) => run.write(d), endInput: () => run.endInput(), kill: (g) => run.kill(g) };
  }

  dispose(): void {
    this.closed.dispose();
    for (const p of this.pool) p.terminal.dispose();
    this.pool.clear();
  }
}

/** A kill that may come before the run knows how to kill: it is kept and applied once armed. */
class KillSwitch {
  private handler?: (graceMs: number) => Promise<void>;
  private pending?: number;

  get requested(): boolean {
    return this.pending !== undefined;
  }

  request(graceMs: number): void {
    this.pending = graceMs;
    void this.handler?.(graceMs);
  }

  arm(handler: (graceMs: number) => Promise<void>): void {
    this.handler = handler;
    if (this.pending !== undefined) void handler(this.pending);
  }
}

/** Waits for the first of `ps` to settle, or `ms` at most (the timer does not outlive the wait). */
async function raceTimeout(ps: readonly Promise<unknown>[], ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([...ps, new Promise<void>((r) => { timer = setTimeout(r, ms); })]);
  } finally {
    clearTimeout(timer);
  }
}

/** The terminal's shell integration once it starts; undefined after `ms`; 'closed' when the terminal closes first. */
function waitForIntegration(terminal: vscode.Terminal, ms: number): Promise<vscode.TerminalShellIntegration | undefined | 'closed'> {
  return new Promise((resolve) => {
    const done = (v: vscode.TerminalShellIntegration | undefined | 'closed') => {
      clearTimeout(timer);
      subs.forEach((s) => s.dispose());
      resolve(v);
    };
    const timer = setTimeout(() => done(terminal.shellIntegration), ms);
    const subs = [
      vscode.window.onDidChangeTerminalShellIntegration((e) => { if (e.terminal === terminal) done(e.shellIntegration); }),
      vscode.window.onDidCloseTerminal((t) => { if (t === terminal) done('closed'); }),
    ];
  });
}
