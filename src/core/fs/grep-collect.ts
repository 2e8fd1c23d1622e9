// What grep shows, built as matches stream in from either engine (ripgrep or the worker fallback):
// grouped by file, `12: text` for a match and `12- text` for a context line, `--` between groups
// that do not touch. The caps are enforced here, as lines arrive, so the engine can be stopped the
// moment the answer is complete instead of after it has searched everything.

export interface GrepQuery {
  pattern: string;
  literal: boolean;
  ignoreCase: boolean;
  glob?: string;
  before: number;
  after: number;
  includeIgnored: boolean;
}

export interface GrepCaps {
  /** Matches shown at most (`limit`). */
  limit: number;
  /** Characters of one line shown at most (`maxLineChars`). */
  maxLineChars: number;
  /** UTF-8 bytes of output at most (`maxBytes`). */
  maxBytes: number;
}

export const DEFAULT_CAPS: GrepCaps = { limit: 100, maxLineChars: 500, maxBytes: 50_000 };

export interface CutLine {
  file: string;
  line: number;
  chars: number;
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/**
 * At most `max` characters of `text`: a window that shows the match at `at` (a character index)
 * with some text before it, `…` where something was cut, never splitting a surrogate pair.
 */
export function sliceLine(text: string, max: number, at = 0): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const room = Math.max(1, max - 2); // the two `…` markers count towards the cap
  let start = Math.max(0, Math.min(at - Math.floor(room / 5), text.length - room));
  if (start > 0 && isLow(text.charCodeAt(start))) start++;
  let end = Math.min(text.length, start + room);
  if (end < text.length && isHigh(text.charCodeAt(end - 1))) end--;
  return { text: `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`, cut: true };
}

/** ripgrep reports match offsets in UTF-8 bytes; slicing needs characters. Only called for long lines. */
export function byteToCharIndex(text: string, byteOffset: number): number {
  if (byteOffset <= 0) return 0;
  return Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8').length;
}

function stripEol(text: string): string {
  let end = text.length;
  if (end && text.charCodeAt(end - 1) === 10) end--;
  if (end && text.charCodeAt(end - 1) === 13) end--;
  return end === text.length ? text : text.slice(0, end);
}

export class GrepCollector {
  matches = 0;
  files = 0;
  /** Why the output stopped early, if it did. */
  stopped: 'limit' | 'bytes' | undefined;
  readonly cut: CutLine[] = [];
  cutCount = 0;
  binarySkipped = 0;

  private readonly out: string[] = [];
  private bytes = 0;
  private file: string | undefined;
  private headerWritten = false;
  private skipFile = false;
  private lastLine = 0;
  private lastMatch = 0;
  private pending: { line: number; text: string }[] = [];
  private readonly contextOn: boolean;

  constructor(private readonly caps: GrepCaps, private readonly after: number, before: number) {
    this.contextOn = before > 0 || after > 0;
  }

  get full(): boolean {
    return this.stopped !== undefined;
  }

  beginFile(display: string): void {
    this.endFile();
    this.file = display;
    this.headerWritten = false;
    this.skipFile = false;
    this.lastLine = 0;
    this.lastMatch = 0;
  }

  /** `at`: where the first match starts in `text`, in characters (for slicing long lines). */
  addMatch(line: number, text: string, at?: number | (() => number)): boolean {
    if (this.stopped) return false;
    if (this.skipFile || this.file === undefined) return true;
    if (this.isBinary(text)) return true;
    if (this.matches >= this.caps.limit) {
      // The after-context of the last shown match is complete; the rest is this match's before-context.
      if (this.lastMatch > 0 && !this.flushPending(this.lastMatch + this.after)) return false;
      this.pending = [];
      this.stopped = 'limit';
      return false;
    }
    if (!this.flushPending(Infinity)) return false;
    const raw = stripEol(text);
    const where = raw.length > this.caps.maxLineChars ? (typeof at === 'function' ? at() : at ?? 0) : 0;
    if (!this.emit(line, raw, ':', where)) return false;
    this.matches++;
    this.lastMatch = line;
    return true;
  }

  addContext(line: number, text: string): boolean {
    if (this.stopped) return false;
    if (this.skipFile || this.file === undefined) return true;
    if (this.isBinary(text)) return true;
    this.pending.push({ line, text });
    return true;
  }

  endFile(): void {
    if (this.file !== undefined && !this.stopped) this.flushPending(Infinity);
    this.pending = [];
    this.file = undefined;
  }

  text(): string {
    return this.out.join('\n');
  }

  /** A NUL means a binary file ripgrep only noticed late: show nothing more of it. */
  private isBinary(text: string): boolean {
    if (text.indexOf('\0') === -1) return false;
    this.skipFile = true;
    this.pending = [];
    this.binarySkipped++;
    return true;
  }

  private flushPending(upTo: number): boolean {
    // Called before every match: without context lines there is nothing held (and no array to replace).
    if (!this.pending.length) return true;
    const lines = this.pending;
    this.pending = [];
    for (const p of lines) {
      if (p.line > upTo) break;
      if (!this.emit(p.line, stripEol(p.text), '-', 0)) return false;
    }
    return true;
  }

  private emit(line: number, raw: string, mark: ':' | '-', at: number): boolean {
    const sliced = sliceLine(raw, this.caps.maxLineChars, at);
    const parts: string[] = [];
    if (!this.headerWritten) {
      if (this.files > 0) parts.push('');
      parts.push(this.file as string);
    } else if (this.contextOn && line > this.lastLine + 1) {
      parts.push('--');
    }
    parts.push(`${line}${mark} ${sliced.text}`);
    let size = 0;
    for (const p of parts) size += Buffer.byteLength(p, 'utf8') + 1;
    if (this.bytes + size > this.caps.maxBytes) {
      this.stopped = 'bytes';
      return false;
    }
    if (!this.headerWritten) {
      this.headerWritten = true;
      this.files++;
    }
    this.bytes += size;
    for (const p of parts) this.out.push(p);
    this.lastLine = line;
    if (sliced.cut) {
      this.cutCount++;
      if (this.cut.length < 3) this.cut.push({ file: this.file as string, line, chars: raw.length });
    }
    return true;
  }
}
