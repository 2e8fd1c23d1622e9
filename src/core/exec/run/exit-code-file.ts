// A second, independent source for a terminal command's exit code. Shell integration reports the end
// of a command through escape sequences the shell prints; a shell that prints them late, a prompt
// that overwrites them, or a command sent before the prompt was ready leaves the end event unsent,
// and the caller would wait until its timeout. The command line also writes `$?` to a private file;
// whichever arrives first ends the wait.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { shellQuote } from './shell-command';

export interface ExitCodeFile {
  /** Appended to a POSIX command line: writes the line's exit status to the file and keeps it as the line's status. */
  readonly suffix: string;
  /** The exit status once the file holds one; never settles if the line never ran. */
  readonly code: Promise<number>;
  dispose(): void;
}

/** A private folder (mode 0700) with one file the command writes its status into, watched for the write. */
export function createExitCodeFile(): ExitCodeFile {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-exit-'));
  const file = path.join(dir, 'status');
  let watcher: fs.FSWatcher | undefined;
  let settle: (code: number) => void = () => undefined;
  const code = new Promise<number>((resolve) => { settle = resolve; });
  const check = () => {
    let text: string;
    try { text = fs.readFileSync(file, 'utf8'); } catch { return; }
    // The redirection creates the file empty before printf fills it: only a whole number counts.
    const m = /^(\d{1,3})\n$/.exec(text);
    if (!m) return;
    watcher?.close();
    watcher = undefined;
    settle(Number(m[1]));
  };
  watcher = fs.watch(dir, () => check());
  watcher.on('error', () => undefined);
  check();
  return {
    // `;` rather than `&&`: the status of a failed `cd … && command` is written as well. The helper
    // shell exits with that status, so the line's own status (the terminal's success/failure mark)
    // stays the command's, and no variable is left in the user's shell.
    suffix: `; /bin/sh -c 'echo "$1" > "$0"; exit "$1"' ${shellQuote(file)} "$?"`,
    code,
    dispose: () => {
      watcher?.close();
      watcher = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
