// A second, independent source for a terminal command's exit code. Shell integration reports the end
// of a command through escape sequences the shell prints; a shell that prints them late, a prompt
// that overwrites them, or a command sent before the prompt was ready leaves the end event unsent,
// and the caller would wait until its timeout. The command line also writes `$?` to a private file;
// whichever arrives first ends the wait.
//
// The file says the command is over, not that its output has reached the caller: the terminal's
// output travels through the renderer, which on a busy machine can lag seconds behind the shell.
// So the same helper then prints an end mark into the terminal (an OSC sequence no terminal draws,
// carrying a per-run nonce and the status): the output stream holds everything the command printed
// once the mark shows up in it, however late that is.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { shellQuote } from './shell-command';

export interface ExitCodeFile {
  /** Appended to a POSIX command line: writes the line's exit status to the file and keeps it as the line's status. */
  readonly suffix: string;
  /** The exit status once the file holds one; never settles if the line never ran. */
  readonly code: Promise<number>;
  /** Finds the end mark in the terminal's raw output, chunk by chunk (a mark may be split across chunks). */
  readonly mark: EndMarkScanner;
  dispose(): void;
}

/** An OSC number no terminal or shell integration uses: xterm.js and others ignore unknown OSCs. */
const MARK_OSC = '5379';
/** Longest tail kept between chunks: the whole mark is shorter than this. */
const MARK_TAIL = 96;

/** Scans raw terminal output for one run's end mark. */
export class EndMarkScanner {
  private tail = '';
  private readonly re: RegExp;
  /** The status the mark carried, once seen. */
  status: number | undefined;

  constructor(nonce: string) {
    // ESC ] 5379 ; pincer-end ; <nonce> ; <status> BEL — the command line itself holds only the
    // backslash text `\033`, never ESC, so its echo in the terminal cannot be taken for the mark.
    this.re = new RegExp(`\\x1b\\]${MARK_OSC};pincer-end;${nonce};(\\d{1,3})(?:\\x07|\\x1b\\\\)`);
  }

  /** True once the mark has been seen (in this chunk or an earlier one). */
  push(chunk: string): boolean {
    if (this.status !== undefined) return true;
    const text = this.tail + chunk;
    const m = this.re.exec(text);
    if (m) {
      this.status = Number(m[1]);
      this.tail = '';
      return true;
    }
    this.tail = text.slice(-MARK_TAIL);
    return false;
  }
}

/** A private folder (mode 0700) with one file the command writes its status into, watched for the write. */
export function createExitCodeFile(): ExitCodeFile {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pincer-exit-'));
  const file = path.join(dir, 'status');
  const nonce = randomBytes(8).toString('hex');
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
    // stays the command's, and no variable is left in the user's shell. The end mark comes after the
    // file, so whoever sees the mark can also read the file.
    suffix: `; /bin/sh -c 'echo "$1" > "$0"; printf "\\033]${MARK_OSC};pincer-end;${nonce};%s\\007" "$1"; exit "$1"' ${shellQuote(file)} "$?"`,
    code,
    mark: new EndMarkScanner(nonce),
    dispose: () => {
      watcher?.close();
      watcher = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
