// Input for a job that reads commands, cut into whole lines. Nothing reaches such a job until its
// line is complete: a line sent in pieces (`rm -rf ` then `~` and Enter) is judged whole, and the
// held part is never in the program's own line buffer, where a later line would complete it.
// A line ends at "\n" — and in a terminal also at "\r", which the tty turns into "\n". In a
// terminal, C-c / C-z / C-\ are signals (the tty acts on them, they never join a line), so they go
// at once; C-c also drops what was held, as it clears the shell's own line. On a pipe they would be
// bytes at the start of the next line: C-c only drops what was held, and is not sent.
import type { InputStep } from './process-keys';

export type LineEvent =
  /** A complete line without its ending (held or from this input); `ended` false at an EOF. */
  | { line: string; ended: boolean }
  /** Bytes that go now, unjudged: a signal key, C-d on an empty terminal line. */
  | { send: string }
  /** C-c: it drops what is held (`dropped`: there was some); in a terminal a `send` of it follows. */
  | { interrupt: true; dropped: boolean }
  | { eof: true };

/** Per job: the start of a line not yet ended. */
export interface LineBuffer {
  pending: string;
}

const TERMINAL_SIGNALS = new Set(['\x03', '\x1a', '\x1c']);

/** Cuts `steps` into events, in order; text after the last line ending stays in `buf.pending`. */
export function cutLines(buf: LineBuffer, steps: readonly InputStep[], terminal: boolean, held: () => boolean): LineEvent[] {
  const out: LineEvent[] = [];
  for (const step of steps) {
    if ('eof' in step) {
      // The program reads a last line that has no ending, then the end of input.
      if (buf.pending) out.push({ line: buf.pending, ended: false });
      buf.pending = '';
      out.push({ eof: true });
      continue;
    }
    for (const c of step.write) {
      if (c === '\x03') {
        out.push({ interrupt: true, dropped: buf.pending !== '' || held() });
        buf.pending = '';
        if (terminal) out.push({ send: c });
      } else if (terminal && TERMINAL_SIGNALS.has(c)) {
        out.push({ send: c });
      } else if (terminal && c === '\x04' && !buf.pending && !held()) {
        out.push({ send: c }); // on an empty line: the end of input (a shell exits)
      } else if (c === '\n' || (terminal && c === '\r')) {
        out.push({ line: buf.pending, ended: true });
        buf.pending = '';
      } else {
        buf.pending += c;
      }
    }
  }
  return out;
}

/**
 * Keys a line editor acts on (arrows, Tab completion, Backspace, C-a, C-u, C-y …): with one in a
 * terminal line, what runs cannot be read from the text (Up + Enter runs a remembered command). On
 * a pipe nothing edits the line, yet a control byte still hides what the text says.
 */
export function editingKey(line: string, terminal: boolean): string | undefined {
  const c = [...line].find((ch) => {
    const code = ch.charCodeAt(0);
    if (ch === '\t' || ch === '\r') return terminal;
    return code < 0x20 || code === 0x7f;
  });
  if (c === undefined) return undefined;
  if (c === '\x1b') return 'an escape sequence (an arrow or another editing key)';
  if (c === '\t') return 'Tab (completion)';
  if (c === '\x7f' || c === '\b') return 'Backspace';
  return `the control key C-${String.fromCharCode(c.charCodeAt(0) + 64).toLowerCase()}`;
}
