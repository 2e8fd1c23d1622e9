// `process send-keys`: named keys as the bytes a program reads for them. A job reads a pipe unless it
// runs in the integrated terminal, and the two differ: Enter is "\n" on a pipe (what `read` and line
// readers wait for) but "\r" in a terminal (the tty turns it into "\n"); C-d on a pipe is an EOF only
// when the pipe is closed, so it closes stdin; C-c on a pipe is just a byte, no SIGINT.

/** An input step: text to write, or the end of input. */
export type InputStep = { write: string } | { eof: true };

export interface KeyPlan {
  steps: InputStep[];
  /** Things the model should know about what the keys will (not) do. */
  notes: string[];
}

const NAMED: Record<string, string> = {
  tab: '\t',
  escape: '\x1b', esc: '\x1b',
  backspace: '\x7f', bs: '\x7f',
  up: '\x1b[A', down: '\x1b[B', right: '\x1b[C', left: '\x1b[D',
  home: '\x1b[H', end: '\x1b[F',
  pageup: '\x1b[5~', pgup: '\x1b[5~', pagedown: '\x1b[6~', pgdn: '\x1b[6~',
  insert: '\x1b[2~', delete: '\x1b[3~', del: '\x1b[3~',
  space: ' ',
};

/** C-c, Ctrl-c, Ctrl+C, ^C, and the punctuation controls (C-@, C-[, C-\, C-], C-^, C-_, C-?). */
const CTRL = /^(?:c-|ctrl[-+]|\^)([a-z@[\\\]^_?])$/i;

/** The key names the tool documents (for its description and error messages). */
export const KEY_NAMES = 'Enter, Tab, Escape, Backspace, Up, Down, Left, Right, Home, End, PageUp, PageDown, Delete, Space, C-a … C-z (C-c, C-d, C-z …)';

function ctrlChar(c: string): string {
  if (c === '?') return '\x7f';
  return String.fromCharCode(c.toUpperCase().charCodeAt(0) & 0x1f);
}

/** The input for `keys`; `terminal` when the job runs in a terminal (then the tty interprets controls). */
export function planKeys(keys: readonly string[], terminal: boolean): KeyPlan {
  const steps: InputStep[] = [];
  const notes: string[] = [];
  let text = '';
  const flush = (): void => {
    if (text) steps.push({ write: text });
    text = '';
  };
  for (const key of keys) {
    const lower = key.toLowerCase();
    if (lower === 'enter' || lower === 'return') {
      text += terminal ? '\r' : '\n';
      continue;
    }
    const named = NAMED[lower];
    if (named !== undefined) {
      text += named;
      continue;
    }
    const ctrl = CTRL.exec(key);
    if (!ctrl) {
      text += key; // literal text
      continue;
    }
    const letter = ctrl[1].toLowerCase();
    if (!terminal && letter === 'd') {
      flush();
      steps.push({ eof: true });
      continue;
    }
    if (!terminal && (letter === 'c' || letter === 'z' || letter === '\\')) {
      notes.push(`${key} was sent as a byte: the job reads a pipe, not a terminal, so no signal reaches it. Use process kill to stop it.`);
    }
    text += ctrlChar(letter);
  }
  flush();
  return { steps, notes: [...new Set(notes)] };
}
