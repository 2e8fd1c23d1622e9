// RunningProcess shapes that are not (yet) a child process: one that never started (a start error
// the model can act on), and one whose start waits on an asynchronous check (the sandbox's bubblewrap
// probe) and then hands over to a real process. Shared by the executors so none copies the other.
import type { OutputStream, RunningProcess, RunOutcome } from '../exec-types';

/** A run that failed before anything ran: `done` settles (at once, or when the reason is known) with `startError`. */
export function failedProcess(startError: string | Promise<string>): RunningProcess {
  const reason = Promise.resolve(startError);
  return {
    pid: undefined,
    done: reason.then((e) => ({ exitCode: null, startError: e })),
    write: async () => {
      throw new Error(`The command did not start, so there is no input to write to: ${await reason}`);
    },
    endInput: () => undefined,
    kill: async () => void (await reason),
  };
}

export type OnOutput = (chunk: string, stream: OutputStream) => void;

/**
 * A run that starts once `prepare` resolves: with a start error, or a function that starts the real
 * process. A kill before then cancels the start (nothing runs); writes wait for the start.
 */
export function deferredProcess(prepare: Promise<{ startError: string } | { start: () => RunningProcess }>): RunningProcess {
  let cancelled = false;
  let inner: RunningProcess | undefined;
  const started: Promise<RunningProcess> = prepare.then(
    (p) => ('startError' in p ? failedProcess(p.startError) : cancelled ? failedProcess('The command was stopped before it started.') : (inner = p.start())),
    (e: unknown) => failedProcess(`The command could not be started: ${e instanceof Error ? e.message : String(e)}`),
  );
  const done: Promise<RunOutcome> = started.then((p) => p.done);
  return {
    get pid() {
      return inner?.pid;
    },
    done,
    write: async (data) => (await started).write(data),
    endInput: () => void started.then((p) => p.endInput()),
    kill: async (graceMs) => {
      cancelled = true;
      await (await started).kill(graceMs);
    },
  };
}
