// Ports and shared types of running commands. The judge (command-judge.ts) decides whether a
// command may run; an Executor runs it somewhere (a child process, bubblewrap, a dev container, the
// integrated terminal); the JobManager keeps what runs and what it printed; an Approver asks a
// person. Core owns these interfaces; the host implements the terminal executor and the approval UI.
import type { AllowlistEntry } from './command-policy';
import type { SegmentVerdict } from './command-types';

/** Where a command runs (pincer.exec.host). */
export type ExecHostKind = 'terminal' | 'process' | 'sandbox' | 'devcontainer';

/**
 * What to run: shell text (exec: the judge's normalised text) or an argv run without any shell
 * (credentialed_exec). `visible`: an argv the terminal host shows and runs in the terminal anyway
 * (the sandbox's bwrap line around judged shell text); other argvs run as child processes.
 */
export type RunTarget = { shell: string } | { argv: readonly string[]; visible?: boolean };

export interface RunRequest {
  target: RunTarget;
  /** Absolute working directory, already checked by the path guard. */
  cwd: string;
  /** The whole environment the program gets (already sanitised by the caller); nothing is inherited beyond it. */
  env: Readonly<Record<string, string>>;
  /** Stdin stays open (a pipe) for `process write` / `send-keys`; otherwise it is closed at once. */
  interactive?: boolean;
}

/** Which stream a chunk came from; the terminal host only has one ('terminal'). */
export type OutputStream = 'stdout' | 'stderr' | 'terminal';

export interface RunOutcome {
  /** null when the program did not exit on its own (killed by a signal) or the host could not tell. */
  exitCode: number | null;
  /** The signal that ended it (SIGTERM, SIGKILL …), if one did. */
  signal?: string;
  /**
   * Failure before the program ran (not found, bubblewrap missing, dev container CLI missing):
   * a sentence the model can act on. exitCode is null then.
   */
  startError?: string;
  /** Something the model should know about how it ran ("shell integration unavailable: ran as a child process"). */
  note?: string;
  /** The run failed because the sandbox refused something (a write outside, a domain): what, in one sentence. */
  sandboxDenied?: { kind: 'write' | 'network'; detail: string };
}

/** One started program. */
export interface RunningProcess {
  readonly pid?: number;
  /** Settles when the program (and its output) is done; never rejects. */
  readonly done: Promise<RunOutcome>;
  /** Appends to stdin (interactive runs only); rejects with a clear message when stdin is closed. */
  write(data: string): Promise<void>;
  /** Closes stdin (EOF). */
  endInput(): void;
  /**
   * Ends the whole tree: SIGTERM to the process group and every descendant, then SIGKILL to what
   * is left after `graceMs` (3,000 by default). Resolves when `done` has settled.
   */
  kill(graceMs?: number): Promise<void>;
}

export interface Executor {
  readonly kind: ExecHostKind;
  /** Runs what it starts inside the sandbox (pincer.exec.sandbox). */
  readonly sandboxed?: boolean;
  /**
   * Starts the program. `onOutput` gets every chunk as it arrives, in order, decoded as UTF-8
   * (a multi-byte character split across reads is kept whole); no chunk arrives after `done` settles.
   * Never throws for a program that cannot start: `done` settles with `startError` instead.
   */
  start(req: RunRequest, onOutput: (chunk: string, stream: OutputStream) => void): RunningProcess;
}

/** What a person answers to an approval prompt. */
export type ApprovalAnswer = 'once' | 'always' | 'deny';

export interface ApprovalRequest {
  /** Unique per prompt; the chat view and tests answer by it. */
  id: string;
  /** `spawn`: a subagent is about to start (pincer.subagents.askBeforeSpawn); `command` is its task. `mcp`: an MCP tool that declares itself destructive; `command` is the tool and its arguments. `custom`: a custom tool's argv. `browser`: JavaScript the browser tool would run in a page; `command` is the script, `cwd` the page's URL. */
  tool: 'exec' | 'credentialed_exec' | 'spawn' | 'mcp' | 'custom' | 'browser';
  /** With `custom`: the custom tool's name (`command` is its argv, quoted). */
  customTool?: string;
  /** The text that will run, exactly (the normalised command, or argv joined for display). */
  command: string;
  cwd: string;
  /** Where it will run. */
  host: ExecHostKind;
  /** The verdict's one-sentence reason (why it asks). */
  reason: string;
  /** Every segment with its own decision and reason, for the prompt. */
  segments: readonly SegmentVerdict[];
  /**
   * The rules "Always allow" would store (resolved executable + exact argument pattern, one per
   * asking segment), or undefined with `alwaysUnavailable` saying why it is not offered.
   */
  always?: readonly AllowlistEntry[];
  alwaysUnavailable?: string;
  sessionKey: string;
  agentId: string;
}

export interface Approver {
  /** Resolves with the answer; a signal abort (cancel, the 2-minute timeout) must settle it as 'deny'. */
  request(req: ApprovalRequest, signal: AbortSignal): Promise<{ answer: ApprovalAnswer; note?: string }>;
}

/** An "Always allow" kept per workspace. */
export interface StoredApproval extends AllowlistEntry {
  id: string;
  /** Epoch ms. */
  createdAt: number;
  lastUsedAt?: number;
  /** The command it was first approved for, for the Manage view. */
  example: string;
}

export interface ApprovalStore {
  list(): Promise<StoredApproval[]>;
  add(entry: AllowlistEntry, example: string): Promise<StoredApproval>;
  update(id: string, args: string | undefined): Promise<void>;
  remove(id: string): Promise<void>;
  touch(id: string): Promise<void>;
}
