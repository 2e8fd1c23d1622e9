// An assistant message while it streams. Deltas are appended to a buffer and drawn once per
// animation frame. Only the last block is re-rendered: every block before it is final (text appended
// later can only change the block it lands in), so it is rendered once into `done` and never touched
// again. The whole text is rendered once more at the end only when it holds reference definitions
// (`[1]: https://…`), the one construct that changes earlier blocks.
import { onNextFrame } from './frame';
import { parseMarkdown, renderMarkdown, renderTokens } from './markdown';

const REFERENCE_DEF = /^ {0,3}\[[^\]]+\]:/m;

/** Char offset where (0-based) line `line` starts in `s`. */
function lineOffset(s: string, line: number): number {
  let at = 0;
  for (let i = 0; i < line; i++) {
    const nl = s.indexOf('\n', at);
    if (nl < 0) return s.length;
    at = nl + 1;
  }
  return at;
}

export class StreamingMarkdown {
  readonly el: HTMLElement;
  private readonly done: HTMLElement;
  private readonly tail: HTMLElement;
  private text = '';
  /** Chars of `text` already rendered into `done`. */
  private committed = 0;
  private heldCR = false;
  private readonly flushJob = () => this.flush();

  constructor(private readonly afterRender?: () => void) {
    this.el = document.createElement('div');
    this.el.className = 'md';
    this.done = document.createElement('div');
    this.tail = document.createElement('div');
    this.done.className = this.tail.className = 'md-part';
    this.el.append(this.done, this.tail);
  }

  get value(): string {
    return this.text;
  }

  append(delta: string): void {
    // markdown-it counts lines after turning \r\n into \n; do the same here so offsets agree. A \r at
    // the end of a delta waits for the next one (it may be half of a \r\n).
    let d = (this.heldCR ? '\r' : '') + delta;
    this.heldCR = d.endsWith('\r');
    if (this.heldCR) d = d.slice(0, -1);
    this.text += d.replace(/\r\n?/g, '\n');
    onNextFrame(this.flushJob);
  }

  /** Renders what arrived since the last frame (called by the frame scheduler). */
  flush(): void {
    const src = this.text.slice(this.committed);
    const tokens = parseMarkdown(src);
    let lastTop = -1;
    let blocks = 0;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.level === 0 && t.nesting !== -1 && t.map) {
        blocks++;
        lastTop = i;
      }
    }
    let tailTokens = tokens;
    if (blocks >= 2) {
      renderTokens(tokens.slice(0, lastTop), this.done);
      this.committed += lineOffset(src, tokens[lastTop].map![0]);
      tailTokens = tokens.slice(lastTop);
    }
    const fresh = document.createDocumentFragment();
    renderTokens(tailTokens, fresh);
    this.tail.replaceChildren(fresh);
    this.afterRender?.();
  }

  /** The turn ended: render the rest now (and everything again if references could change it). */
  finish(): void {
    if (this.heldCR) this.text += '\n';
    this.heldCR = false;
    if (REFERENCE_DEF.test(this.text)) {
      this.committed = this.text.length;
      this.done.replaceChildren();
      renderMarkdown(this.text, this.done);
      this.tail.replaceChildren();
    } else {
      this.flush();
    }
  }
}
