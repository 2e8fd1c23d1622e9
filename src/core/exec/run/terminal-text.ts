// Output read from the integrated terminal is what a terminal draws, not what a log holds: colour
// and cursor sequences, VS Code's shell-integration marks (OSC 633, OSC 133), and progress bars
// that redraw one line with carriage returns. This turns it into the text a person would see: escape
// sequences removed, carriage-return overwrites applied within a line (a progress bar keeps its last
// state), CRLF as LF. The decoder is stateful, so a sequence split across two chunks is still removed.

type State = 'text' | 'esc' | 'escInter' | 'csi' | 'string' | 'stringEsc';

/** A line this long without a line feed is emitted as it stands, so memory stays bounded. */
const MAX_LINE = 1 << 20;

/** An OSC/DCS body this long without its terminator is abandoned (a stray ESC ] in binary output). */
const MAX_STRING = 1 << 16;

/** Characters that end a run of plain text: C0 controls, DEL, C1 controls. */
const SPECIAL = /[\x00-\x1f\x7f-\x9f]/g;

export class TerminalTextDecoder {
  private state: State = 'text';
  private line = '';
  private col = 0;
  private params = '';
  private stringLen = 0;
  /** The current string sequence is an OSC, which BEL may also end. */
  private osc = false;

  /** Completed lines of `chunk` (each ending in "\n"); the unfinished line waits for its end or for end(). */
  push(chunk: string): string {
    let out = '';
    let i = 0;
    while (i < chunk.length) {
      if (this.state !== 'text') {
        // A sequence may span chunks: its state is kept, so the rest of it is recognised here.
        if (this.escape(chunk.charCodeAt(i))) i++;
        continue;
      }
      SPECIAL.lastIndex = i;
      const m = SPECIAL.exec(chunk);
      const stop = m ? m.index : chunk.length;
      if (stop > i) this.write(chunk.slice(i, stop));
      if (m) out += this.control(chunk.charCodeAt(stop));
      if (this.line.length >= MAX_LINE) out += this.takeLine();
      i = stop + 1;
    }
    return out;
  }

  /** The unfinished line as it would look now (a prompt waiting for input, a progress bar). */
  get partial(): string {
    return this.line;
  }

  /** Ends the stream: returns the unfinished line (no line feed added) and forgets any half sequence. */
  end(): string {
    const rest = this.line;
    this.line = '';
    this.col = 0;
    this.state = 'text';
    this.params = '';
    return rest;
  }

  /** The same as end(): the stream is over, hand back what is left. */
  flush(): string {
    return this.end();
  }

  private takeLine(): string {
    const l = this.line;
    this.line = '';
    this.col = 0;
    return l;
  }

  /** Writes printable text at the cursor, overwriting what a carriage return left behind. */
  private write(run: string): void {
    const { line, col } = this;
    if (col === line.length) this.line = line + run;
    else if (col > line.length) this.line = line + ' '.repeat(col - line.length) + run;
    else this.line = line.slice(0, col) + run + line.slice(col + run.length);
    this.col = col + run.length;
  }

  /** A control character in text: returns a finished line when it ends one. */
  private control(c: number): string {
    switch (c) {
      case 0x0a: return `${this.takeLine()}\n`;
      case 0x0d: this.col = 0; return '';
      case 0x08: this.col = Math.max(0, this.col - 1); return '';
      case 0x09: this.write('\t'); return '';
      case 0x1b: this.state = 'esc'; return '';
      case 0x9b: this.beginCsi(); return '';
      case 0x9d: this.beginString(true); return '';
      case 0x90: case 0x98: case 0x9e: case 0x9f: this.beginString(false); return '';
      default: return ''; // BEL, NUL and the other controls draw nothing.
    }
  }

  private beginCsi(): void {
    this.state = 'csi';
    this.params = '';
  }

  private beginString(osc: boolean): void {
    this.state = 'string';
    this.osc = osc;
    this.stringLen = 0;
  }

  /** One character inside an escape sequence; false when it ends the sequence and must be read as text. */
  private escape(c: number): boolean {
    // A line feed or carriage return inside a cursor sequence is a terminal's control, not part of it.
    if ((c === 0x0a || c === 0x0d) && this.state !== 'string' && this.state !== 'stringEsc') {
      this.state = 'text';
      return false;
    }
    switch (this.state) {
      case 'esc':
        if (c === 0x5b) this.beginCsi(); // [
        else if (c === 0x5d) this.beginString(true); // ]
        else if (c === 0x50 || c === 0x58 || c === 0x5e || c === 0x5f) this.beginString(false); // P X ^ _
        else if (c >= 0x20 && c <= 0x2f) this.state = 'escInter'; // ESC ( B and friends
        else if (c !== 0x1b) this.state = 'text'; // ESC 7, ESC =, ESC M …: one character, nothing drawn
        return true;
      case 'escInter':
        if (c < 0x20 || c > 0x2f) this.state = 'text';
        return true;
      case 'csi':
        if (c >= 0x20 && c <= 0x3f) {
          if (this.params.length < 64) this.params += String.fromCharCode(c);
        } else if (c >= 0x40 && c <= 0x7e) {
          this.csi(String.fromCharCode(c));
          this.state = 'text';
        } else {
          this.state = c === 0x1b ? 'esc' : 'text'; // malformed: give up on it
        }
        return true;
      case 'string':
        if ((c === 0x07 && this.osc) || c === 0x9c) this.state = 'text';
        else if (c === 0x1b) this.state = 'stringEsc';
        else if (++this.stringLen > MAX_STRING) this.state = 'text';
        return true;
      case 'stringEsc':
        // ESC \ is the string terminator; any other ESC also ends the string and starts a new sequence.
        if (c === 0x5c) {
          this.state = 'text';
          return true;
        }
        this.state = 'esc';
        return this.escape(c);
      default:
        this.state = 'text';
        return false;
    }
  }

  /** The few cursor sequences that change what a line shows; everything else is dropped. */
  private csi(final: string): void {
    if (this.params.startsWith('?') || this.params.startsWith('>') || this.params.startsWith('<') || this.params.startsWith('=')) return;
    const arg = Number.parseInt(this.params.split(';')[0] || '0', 10) || 0;
    switch (final) {
      case 'K': // erase in line
        if (arg === 0) this.line = this.line.slice(0, this.col);
        else if (arg === 1) this.line = ' '.repeat(Math.min(this.col + 1, this.line.length)) + this.line.slice(this.col + 1);
        else this.line = '';
        return;
      case 'G': this.col = Math.max(0, (arg || 1) - 1); return;
      case 'C': this.col += arg || 1; return;
      case 'D': this.col = Math.max(0, this.col - (arg || 1)); return;
      default: return;
    }
  }
}

/** The text a person would see in the terminal for `raw` (see the file comment). */
export function terminalToText(raw: string): string {
  const d = new TerminalTextDecoder();
  return d.push(raw) + d.end();
}
