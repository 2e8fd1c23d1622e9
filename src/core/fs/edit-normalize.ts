// The fuzzy view of a text that edit and apply_patch fall back to when old text does not match
// byte for byte: line endings unified, trailing whitespace dropped, compatibility forms folded
// (NFKC-equivalent), smart quotes, dashes and non-breaking spaces made plain. Every character of
// the folded text remembers the span of the original it came from, so a match found here replaces
// exactly that span of the original; the rest of the file is never rewritten in folded form.

/** A folded text and, per folded character, the original span [start, end) it came from. */
export interface FoldedText {
  text: string;
  start: Int32Array;
  end: Int32Array;
  /** 1 where a folded character is the first one its original unit produced. */
  unitStart: Uint8Array;
}

const QUOTES: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'", '\u02bc': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u2033': '"', '\u00ab': '"', '\u00bb': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u00a0': ' ', '\u202f': ' ', '\u2007': ' ', '\ufeff': '',
};

/**
 * One code point folded. Compatibility decomposition per code point (NFKD) makes two texts equal
 * under NFKC fold to the same string, and unlike NFKC it never merges neighbouring code points, so
 * the map back to the original stays per code point.
 */
function foldCodePoint(cp: string): string {
  const q = QUOTES[cp];
  if (q !== undefined) return q;
  const d = cp.normalize('NFKD');
  return d.length === 1 ? (QUOTES[d] ?? d) : d;
}

function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return s.length > 0;
}

/** Growable output of fold: folded UTF-16 code units and the original span of each. */
class Out {
  codes: Uint16Array;
  start: Int32Array;
  end: Int32Array;
  unit: Uint8Array;
  n = 0;

  constructor(capacity: number) {
    this.codes = new Uint16Array(capacity);
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.unit = new Uint8Array(capacity);
  }

  push(code: number, from: number, to: number, first: boolean): void {
    if (this.n === this.codes.length) this.grow();
    this.codes[this.n] = code;
    this.start[this.n] = from;
    this.end[this.n] = to;
    this.unit[this.n++] = first ? 1 : 0;
  }

  emit(out: string, from: number, to: number): void {
    for (let k = 0; k < out.length; k++) this.push(out.charCodeAt(k), from, to, k === 0);
  }

  private grow(): void {
    const cap = this.codes.length * 2 + 16;
    const codes = new Uint16Array(cap);
    const start = new Int32Array(cap);
    const end = new Int32Array(cap);
    const unit = new Uint8Array(cap);
    codes.set(this.codes);
    start.set(this.start);
    end.set(this.end);
    unit.set(this.unit);
    Object.assign(this, { codes, start, end, unit });
  }

  text(): string {
    return Buffer.from(this.codes.buffer, this.codes.byteOffset, this.n * 2).toString('utf16le');
  }
}

/**
 * Folds `s`. Whitespace before a line break is dropped; at the very end of `s` it is dropped only
 * when `dropTrailingAtEnd` (true for a file, false for an old_string that may end mid-line, where
 * dropping would leave the file's own space outside the matched span).
 */
export function fold(s: string, dropTrailingAtEnd = true): FoldedText {
  const out = new Out(s.length + 16);
  // Blank units [from, to) waiting to see whether a line break (drop) or text (keep) follows.
  let blankFrom = -1;
  let blanks: { text: string; from: number; to: number }[] = [];
  const flush = () => {
    for (const b of blanks) out.emit(b.text, b.from, b.to);
    blanks = [];
    blankFrom = -1;
  };
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 13 || c === 10) {
      blanks = [];
      blankFrom = -1;
      const len = c === 13 && s.charCodeAt(i + 1) === 10 ? 2 : 1;
      out.push(10, i, i + len, true);
      i += len;
      continue;
    }
    if (c < 0x80) {
      if (c === 32 || c === 9) {
        if (blankFrom === -1) blankFrom = i;
        blanks.push({ text: c === 32 ? ' ' : '\t', from: i, to: i + 1 });
      } else {
        if (blankFrom !== -1) flush();
        out.push(c, i, i + 1, true);
      }
      i++;
      continue;
    }
    const cp = String.fromCodePoint(s.codePointAt(i)!);
    const folded = foldCodePoint(cp);
    if (isBlank(folded)) {
      if (blankFrom === -1) blankFrom = i;
      blanks.push({ text: folded, from: i, to: i + cp.length });
    } else if (folded !== '') {
      if (blankFrom !== -1) flush();
      out.emit(folded, i, i + cp.length);
    }
    i += cp.length;
  }
  if (!dropTrailingAtEnd) flush();
  return { text: out.text(), start: out.start.subarray(0, out.n), end: out.end.subarray(0, out.n), unitStart: out.unit.subarray(0, out.n) };
}

/** The folded form of one line, for comparing lines (plain ASCII takes a shortcut). */
export function foldLine(s: string): string {
  if (/[^\x00-\x7f]|[\r\n]/.test(s)) return fold(s).text;
  // Trailing blanks by hand: /[ \t]+$/ is quadratic on a long run of blanks followed by text.
  let end = s.length;
  while (end > 0 && (s.charCodeAt(end - 1) === 32 || s.charCodeAt(end - 1) === 9)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** The original span of folded [a, b), or undefined when the match cuts through one original unit. */
export function originalSpan(f: FoldedText, a: number, b: number): { start: number; end: number } | undefined {
  if (b <= a || !f.unitStart[a]) return undefined;
  if (b < f.text.length && !f.unitStart[b]) return undefined;
  return { start: f.start[a]!, end: f.end[b - 1]! };
}
