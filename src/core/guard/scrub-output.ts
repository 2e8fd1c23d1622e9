// The scrubbed text under construction (runFrom in scrub-combine.ts builds it), with every other
// copy of a redacted value on the same line redacted too.

/** Copies shorter than this are not chased (they would hit ordinary words); longer ones are not copied in practice. */
const COPY_MIN = 8;
const COPY_MAX = 512;
/** How far back on its line a redaction looks for earlier copies; bounds the work on one huge line. */
const COPY_BACK = 1024;
/** At most this many values are chased forward on one line. */
const COPY_ACTIVE = 32;

/**
 * The parts of a scrubbed text, compactly (for a worker's answer): per part a pair in `spans`,
 * either the part's start and end in the text scrubbed (the part is that text, unchanged), or -1
 * and the index of the part in `literals`.
 */
export interface Pieces {
  readonly spans: Int32Array;
  readonly literals: string[];
}

/**
 * The output under construction, with every other copy of a redacted value on the same line
 * redacted too (`-pS3cret … # S3cret`, a token echoed back): values found on the current line are
 * replaced in the unmatched text that follows on that line, and a newly found value is replaced in
 * the unmatched text before it, up to COPY_BACK characters back on its line. Each part remembers
 * where it was cut from the text while it is unchanged, so that it can be sent as two numbers.
 */
export class Output {
  private readonly parts: string[] = [];
  /** Whether parts[i] is unmatched text (where copies may be replaced). */
  private readonly gap: boolean[] = [];
  /** Where parts[i] starts in the text while it is that text unchanged, else -1. */
  private readonly source: number[] = [];
  private active: string[] = [];

  constructor(private readonly placeholder: string) {}

  /** Unmatched text, cut from the text scrubbed at `start`. */
  addGap(text: string, start: number): void {
    if (this.active.length && text) {
      const nl = text.indexOf('\n');
      const end = nl < 0 ? text.length : nl;
      const head = text.slice(0, end);
      let replaced = head;
      for (const v of this.active) replaced = replaced.split(v).join(this.placeholder);
      if (replaced !== head) {
        text = replaced + text.slice(end);
        start = -1;
      }
      if (nl >= 0) this.active = [];
    }
    this.parts.push(text);
    this.gap.push(true);
    this.source.push(start);
  }

  addReplacement(replacement: string, value: string): void {
    if (value.length >= COPY_MIN && value.length <= COPY_MAX && !value.includes('\n') &&
        !value.includes(this.placeholder) && !this.placeholder.includes(value)) {
      this.replaceBack(value);
      if (!this.active.includes(value) && this.active.length < COPY_ACTIVE) this.active.push(value);
    }
    this.parts.push(replacement);
    this.gap.push(false);
    this.source.push(-1);
  }

  private replaceBack(value: string): void {
    let budget = COPY_BACK;
    for (let k = this.parts.length - 1; k >= 0 && budget > 0; k--) {
      const part = this.parts[k];
      const nl = part.lastIndexOf('\n');
      const from = Math.max(nl + 1, part.length - budget);
      if (this.gap[k] && part.length - from >= value.length) {
        const tail = part.slice(from);
        const replaced = tail.split(value).join(this.placeholder);
        if (replaced !== tail) {
          this.parts[k] = part.slice(0, from) + replaced;
          this.source[k] = -1;
        }
      }
      if (nl >= 0) break;
      budget -= part.length;
    }
  }

  /** Concatenated, not joined: V8 keeps a rope and copies once, when the consumer reads it. */
  toString(): string {
    let s = '';
    for (const part of this.parts) s += part;
    return s;
  }

  pieces(): Pieces {
    const spans = new Int32Array(this.parts.length * 2);
    const literals: string[] = [];
    for (let i = 0; i < this.parts.length; i++) {
      const start = this.source[i];
      if (start >= 0) {
        spans[2 * i] = start;
        spans[2 * i + 1] = start + this.parts[i].length;
      } else {
        spans[2 * i] = -1;
        spans[2 * i + 1] = literals.length;
        literals.push(this.parts[i]);
      }
    }
    return { spans, literals };
  }
}

/** The text the pieces of `text` stand for. */
export function joinPieces(text: string, { spans, literals }: Pieces): string {
  let s = '';
  for (let i = 0; i < spans.length; i += 2) s += spans[i] < 0 ? literals[spans[i + 1]] : text.slice(spans[i], spans[i + 1]);
  return s;
}
