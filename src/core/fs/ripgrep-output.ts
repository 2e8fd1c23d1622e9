// ripgrep's plain output as events, as rg prints it with `--with-filename --null --line-number
// --column --no-heading --no-context-separator` (see ripgrep-args):
//   <path>NUL<line>:<column>:<text>   a match (column: 1-based byte offset of the first match)
//   <path>NUL<line>-<text>            a context line
// The plain printer writes a sixth of what `--json` writes for the same matches and needs no
// JSON.parse per line, which was most of grep's time over rg's own. With --sort path the lines of
// one file arrive together, so a change of path is where one file ends and the next begins.
//
// A path cannot hold NUL, so the first NUL of a record ends its path. A path may hold a newline: a
// line without NUL is the start of such a path and is joined to the next line, except for rg's two
// binary notices (the only other lines rg writes to stdout here), which name the file they are about.
// Text that is not UTF-8 arrives as raw bytes and is decoded lossily, as the JSON printer's base64
// `bytes` were.

export type RgEvent =
  | { type: 'begin'; path: string }
  | { type: 'match'; path: string; line: number; text: string; atByte: number }
  | { type: 'context'; path: string; line: number; text: string }
  | { type: 'end'; path: string }
  /** rg found a NUL byte in a file it was named explicitly and printed no lines of it. */
  | { type: 'binary'; path: string };

/** `<path>: binary file matches (…)` (a named file) or `<path>: WARNING: stopped searching binary file after match (…)`. */
const BINARY_NOTICE = /^([^]*): (binary file matches|WARNING: stopped searching binary file after match) \(found "\\0" byte around offset \d+\)$/;

/** Reads the digits at `from`; -1 when there are none. */
function digitsEnd(s: string, from: number): number {
  let i = from;
  while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
  return i > from ? i : -1;
}

/**
 * Turns rg's output lines into events. Returns false from `line` or `end` as soon as the consumer
 * does, and delivers nothing after that.
 */
export class RgRecordParser {
  private current: string | undefined;
  /** The lines so far of a path that holds a newline. */
  private pathStart: string | undefined;

  constructor(private readonly onEvent: (ev: RgEvent) => boolean) {}

  line(line: string): boolean {
    const nul = line.indexOf('\0');
    if (nul === -1) return this.lineWithoutNul(line);
    const path = this.pathStart === undefined ? line.slice(0, nul) : `${this.pathStart}\n${line.slice(0, nul)}`;
    this.pathStart = undefined;
    const numEnd = digitsEnd(line, nul + 1);
    if (numEnd === -1) return true; // never written by rg
    const lineNo = Number(line.slice(nul + 1, numEnd));
    const mark = line.charCodeAt(numEnd);
    if (path !== this.current) {
      if (this.current !== undefined && !this.onEvent({ type: 'end', path: this.current })) return false;
      this.current = path;
      if (!this.onEvent({ type: 'begin', path })) return false;
    }
    if (mark === 45 /* - */) return this.onEvent({ type: 'context', path, line: lineNo, text: line.slice(numEnd + 1) });
    const colEnd = mark === 58 /* : */ ? digitsEnd(line, numEnd + 1) : -1;
    if (colEnd === -1 || line.charCodeAt(colEnd) !== 58) return true;
    const atByte = Number(line.slice(numEnd + 1, colEnd)) - 1;
    return this.onEvent({ type: 'match', path, line: lineNo, text: line.slice(colEnd + 1), atByte });
  }

  /** At the end of the output: closes the last file. */
  end(): boolean {
    const last = this.current;
    this.current = undefined;
    return last === undefined || this.onEvent({ type: 'end', path: last });
  }

  private lineWithoutNul(line: string): boolean {
    const notice = this.pathStart === undefined ? BINARY_NOTICE.exec(line) : null;
    if (notice) {
      // After a match, a notice about the file being printed (its lines so far stay, as in --json);
      // before any line, a file named explicitly that holds a NUL byte.
      if (this.current !== undefined && notice[1] === this.current) return true;
      if (this.current === undefined && notice[2] === 'binary file matches') return this.onEvent({ type: 'binary', path: notice[1] });
    }
    this.pathStart = this.pathStart === undefined ? line : `${this.pathStart}\n${line}`;
    return true;
  }
}

/**
 * Splits a stream of text chunks into lines (empty ones too: they can be part of a path). Only the
 * new chunk is scanned for a newline and partial lines are kept as parts, so one multi-megabyte line
 * (a minified file) costs linear time.
 */
export class LineSplitter {
  private parts: string[] = [];

  /** Calls `onLine` for each complete line; stops (returns false) as soon as `onLine` does. */
  push(chunk: string, onLine: (line: string) => boolean): boolean {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', from);
      if (nl === -1) break;
      let line = chunk.slice(from, nl);
      if (this.parts.length) {
        this.parts.push(line);
        line = this.parts.join('');
        this.parts = [];
      }
      from = nl + 1;
      if (!onLine(line)) return false;
    }
    if (from < chunk.length) this.parts.push(chunk.slice(from));
    return true;
  }

  /** The last line when the stream did not end with a newline. */
  flush(onLine: (line: string) => boolean): boolean {
    const rest = this.parts.join('');
    this.parts = [];
    return rest ? onLine(rest) : true;
  }
}
