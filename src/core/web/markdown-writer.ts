// HTML → markdown from the page's htmlparser2 events (main-content.ts keeps them), with no DOM: ATX headings, fenced code
// (its language from a `language-*` / `lang-*` class), "-" bullets, "_" emphasis, GitHub tables (a
// blank header when the table marks none), links and images made absolute, an inline image's data
// replaced by its alt text. What markdown cannot hold (a table in a table cell, blocks inside a link)
// is flattened to text. Nesting deeper than a reader can follow adds no more indentation, so a hostile
// page of ten thousand nested lists writes lines of bounded length.
import { CLOSE, OPEN, type LeaveOut, type PageEvents } from './main-content';
import { LinkResolver, collapse, escapeLineStart, escapeText, urlText } from './markdown-text';
import { BLOCK_TAGS, type Attributes } from './page-rules';

const MAX_INDENT_LEVELS = 12;
const MAX_INLINE_MARKS = 8;
// Maps, not objects: a tag name read from the page is a new string each time, and looking one up as an
// object's key first searches V8's table of known strings (ten times slower than a Map); an object
// would also answer for a page's <constructor> from its prototype.
const HEADINGS = new Map([['h1', 1], ['h2', 2], ['h3', 3], ['h4', 4], ['h5', 5], ['h6', 6]]);
const EMPHASIS = new Map([['em', '_'], ['i', '_'], ['strong', '**'], ['b', '**']]);
const LANGUAGE = /(?:^|\s)(?:language|lang)-([\w+#.-]{1,40})/;

interface Table { rows: string[][]; header: boolean[]; row: string[] | undefined; rowIsHeader: boolean; inHead: boolean; inCell: boolean }
interface Opener { kind: 'mark' | 'link'; at: number; close: string }

export class MarkdownWriter {
  /**
   * The output, one string grown by appending (V8 joins appended strings lazily, several times faster
   * than an array joined at the end) — but for a last space written on its own, held in `spaceLast`:
   * a line break written next drops it, and a link's or emphasis' end goes before it.
   */
  private out = '';
  private spaceLast = false;
  /** Outer outputs while a nested one (code, a table cell) is written. */
  private readonly outs: Array<{ out: string; spaceLast: boolean }> = [];
  /** Newlines owed before the next text (1 = line break, 2 = paragraph break). */
  private breaks = 0;
  /** The line prefix when the owed breaks were asked for: a blank line never takes a quote's ">" it is outside of. */
  private breakPrefix = '';
  private atStart = true;
  private lastSpace = true;
  private prefixes: string[] = [];
  private prefix = '';
  private afterMarker = false;
  /** Inline openers ("[", "_", "**") not yet written: they go out with the next visible text. */
  private pending = '';
  private readonly openers: Opener[] = [];
  private readonly tables: Table[] = [];
  private readonly lists: Array<{ ordered: boolean; n: number }> = [];
  private inlineDepth = 0; // inside a heading, link or table cell: blocks become spaces
  private preDepth = 0;
  private preLanguage = '';
  private codeDepth = 0;
  private flatTables = 0; // tables inside table cells, written as text
  private marks = 0;
  private links = 0;
  private overMarks = 0; // emphasis nested past MAX_INLINE_MARKS: written as plain text

  private readonly resolver: LinkResolver;

  /** `leaveOut`: elements not written. */
  constructor(baseUrl: string, private readonly leaveOut: LeaveOut) {
    this.resolver = new LinkResolver(baseUrl);
  }

  /** Writes events [from, to): whole elements, as htmlparser2 closes every element it opens. */
  convert(events: PageEvents, from: number, to: number): void {
    const { kinds, values, attribs } = events;
    // Each opening event is compared with the next left-out one only (a lookup per element cost more).
    let skip = this.leaveOut.next(from);
    for (let i = from; i < to; i++) {
      const kind = kinds[i];
      if (kind === OPEN) {
        if (i === skip) {
          i = this.leaveOut.ends.get(i)!;
          skip = this.leaveOut.next(i + 1);
        } else {
          this.open(values[i], attribs[i]!);
        }
      } else if (kind === CLOSE) {
        this.close(values[i]);
      } else {
        this.text(values[i]);
      }
    }
    this.block();
  }

  result(): string {
    return (this.spaceLast ? `${this.out} ` : this.out).trim();
  }

  private open(name: string, a: Attributes): void {
    if (this.preDepth > 0) {
      if (name === 'br') this.raw('\n');
      if (name === 'code' && !this.preLanguage) this.preLanguage = LANGUAGE.exec(a.class ?? '')?.[1] ?? '';
      if (name === 'pre') this.preDepth++;
      return;
    }
    if (this.codeDepth > 0) { if (name === 'code') this.codeDepth++; return; }
    if (this.flatTables > 0 || (name === 'table' && this.tables.length > 0 && this.tables[this.tables.length - 1].inCell)) {
      if (name === 'table') this.flatTables++;
      if (name === 'td' || name === 'th' || name === 'tr') this.space();
      return;
    }
    const heading = HEADINGS.get(name);
    if (heading) {
      if (this.inlineDepth > 0) this.space();
      else { this.block(); this.pending += '#'.repeat(heading) + ' '; }
      this.inlineDepth++;
      return;
    }
    switch (name) {
      case 'br': return this.inlineDepth > 0 ? this.space() : this.line();
      case 'hr': this.block(); this.write('---'); return this.block();
      case 'p': case 'div': return this.inlineDepth > 0 ? this.space() : this.block();
      case 'pre':
        this.block();
        this.preDepth = 1;
        this.preLanguage = LANGUAGE.exec(a.class ?? '')?.[1] ?? '';
        return this.push();
      case 'code': this.codeDepth = 1; return this.push();
      case 'blockquote':
        if (this.inlineDepth > 0) { this.space(); return this.indent(''); }
        this.block();
        return this.indent('> ');
      case 'ul': case 'ol':
        this.lists.push({ ordered: name === 'ol', n: Number.parseInt(a.start ?? '1', 10) || 1 });
        return this.lists.length > 1 ? this.line() : this.block();
      case 'li': return this.listItem();
      case 'table':
        this.block();
        this.tables.push({ rows: [], header: [], row: undefined, rowIsHeader: true, inHead: false, inCell: false });
        return;
      case 'thead': if (this.tables.length) this.tables[this.tables.length - 1].inHead = true; return;
      case 'tr': return this.startRow();
      case 'td': case 'th': return this.startCell(name);
      case 'a': return this.openLink(a.href);
      case 'img': return this.image(a.src, a.alt);
    }
    const mark = EMPHASIS.get(name);
    if (mark) {
      if (this.marks >= MAX_INLINE_MARKS) { this.overMarks++; return; }
      this.marks++;
      this.openers.push({ kind: 'mark', at: this.pending.length, close: mark });
      this.pending += mark;
      return;
    }
    if (BLOCK_TAGS.has(name)) return this.inlineDepth > 0 ? this.space() : this.block();
  }

  private close(name: string): void {
    if (this.preDepth > 0) {
      if (name === 'pre' && --this.preDepth === 0) this.endPre();
      return;
    }
    if (this.codeDepth > 0) { if (name === 'code' && --this.codeDepth === 0) this.endCode(); return; }
    if (this.flatTables > 0) { if (name === 'table') this.flatTables--; return; }
    if (HEADINGS.has(name)) {
      this.inlineDepth--;
      if (this.inlineDepth > 0) return this.space();
      this.dropPending();
      return this.block();
    }
    switch (name) {
      case 'blockquote': this.outdent(); return this.block();
      case 'ul': case 'ol': this.lists.pop(); return this.lists.length ? this.line() : this.block();
      case 'li': this.outdent(); this.afterMarker = false; return this.line();
      case 'table': return this.endTable();
      case 'thead': if (this.tables.length) this.tables[this.tables.length - 1].inHead = false; return;
      case 'tr': return this.endRow();
      case 'td': case 'th': return this.endCell();
      case 'a': return this.closeOpener('link');
    }
    if (EMPHASIS.has(name)) {
      if (this.overMarks > 0) { this.overMarks--; return; }
      this.marks--;
      return this.closeOpener('mark');
    }
    if (BLOCK_TAGS.has(name) && name !== 'td' && name !== 'th') return this.inlineDepth > 0 ? this.space() : this.block();
  }

  private text(text: string): void {
    if (this.preDepth > 0) return this.raw(text);
    let t = collapse(text);
    if (this.codeDepth > 0) return this.raw(t);
    if (t === ' ') return this.space();
    // Collapsed text has at most one space at each end: those become the writer's own spaces.
    const startsInSpace = t.charCodeAt(0) === 32;
    const endsInSpace = t.charCodeAt(t.length - 1) === 32;
    if (startsInSpace) this.space();
    if (startsInSpace || endsInSpace) t = t.slice(startsInSpace ? 1 : 0, endsInSpace ? -1 : t.length);
    let escaped = escapeText(t);
    if ((this.breaks > 0 || this.atStart || this.afterMarker) && !this.pending) escaped = escapeLineStart(escaped);
    this.inline(escaped);
    if (endsInSpace) this.space();
  }

  // ---- writing ----

  /** Visible inline text: owed breaks first, then any openers waiting for it. */
  private inline(s: string): void {
    if (this.pending) {
      const p = this.pending;
      this.pending = '';
      for (const o of this.openers) if (o.at >= 0) o.at = -1; // written
      this.write(p + s);
    } else {
      this.write(s);
    }
  }

  private write(s: string): void {
    if (!s) return;
    if (this.breaks > 0 && !this.atStart) {
      this.spaceLast = false; // no line ends in a space
      const blank = (this.breakPrefix.length < this.prefix.length ? this.breakPrefix : this.prefix).trimEnd();
      this.append(this.breaks > 1 ? `\n${blank}\n${this.prefix}` : `\n${this.prefix}`);
    } else if (this.atStart && this.prefix) {
      this.append(this.prefix);
    }
    this.breaks = 0;
    this.atStart = false;
    this.afterMarker = false;
    this.append(s);
    this.lastSpace = s.endsWith(' ');
  }

  private raw(s: string): void {
    this.append(s);
  }

  private append(s: string): void {
    if (this.spaceLast) this.out += ' ';
    this.spaceLast = s === ' ';
    if (!this.spaceLast) this.out += s;
  }

  private space(): void {
    if (this.lastSpace || this.breaks > 0 || this.atStart || this.afterMarker) return;
    this.append(' ');
    this.lastSpace = true;
  }

  private line(): void {
    if (this.afterMarker || this.atStart) return;
    this.owe(1);
  }

  private block(): void {
    if (this.afterMarker || this.atStart) return;
    this.owe(2);
  }

  private owe(n: number): void {
    if (this.breaks === 0 || this.prefix.length < this.breakPrefix.length) this.breakPrefix = this.prefix;
    this.breaks = Math.max(this.breaks, n);
  }

  private indent(p: string): void {
    const added = this.prefixes.length < MAX_INDENT_LEVELS ? p : '';
    this.prefixes.push(added);
    this.prefix += added;
  }

  private outdent(): void {
    const removed = this.prefixes.pop() ?? '';
    this.prefix = this.prefix.slice(0, this.prefix.length - removed.length);
  }

  /** A nested output, for what is written whole at its end (code, a table cell). */
  private push(): void {
    this.outs.push({ out: this.out, spaceLast: this.spaceLast });
    this.out = '';
    this.spaceLast = false;
  }

  private pop(): string {
    const s = this.spaceLast ? `${this.out} ` : this.out;
    ({ out: this.out, spaceLast: this.spaceLast } = this.outs.pop()!);
    return s;
  }

  // ---- elements ----

  private listItem(): void {
    if (this.inlineDepth > 0) { this.space(); return this.indent(''); }
    const list = this.lists[this.lists.length - 1];
    const marker = list?.ordered ? `${list.n++}. ` : '- ';
    this.afterMarker = false;
    if (!this.atStart) this.owe(1);
    this.write(marker);
    this.afterMarker = true;
    this.lastSpace = true;
    this.indent(' '.repeat(marker.length));
  }

  private openLink(href: string | undefined): void {
    // Markdown links do not nest: a link inside a link is its text.
    const url = href && this.links === 0 && !/^\s*(javascript|vbscript|data):/i.test(href) ? this.resolver.absolute(href) : undefined;
    this.inlineDepth++;
    this.links++;
    this.openers.push({ kind: 'link', at: this.pending.length, close: url ? `](${urlText(url)})` : '' });
    this.pending += url ? '[' : '';
  }

  private closeOpener(kind: Opener['kind']): void {
    const o = this.openers.pop();
    if (!o) return;
    if (kind === 'link') { this.inlineDepth--; this.links--; }
    if (o.at >= 0) { this.pending = this.pending.slice(0, o.at); return; } // nothing inside: nothing written
    if (!o.close) return;
    const space = this.spaceLast;
    this.spaceLast = false;
    this.append(o.close);
    if (space) this.append(' ');
  }

  private dropPending(): void {
    this.pending = '';
    for (const o of this.openers) if (o.at >= 0) o.at = 0;
  }

  private image(src: string | undefined, alt: string | undefined): void {
    const text = escapeText(collapse(alt ?? '').trim());
    if (src && /^\s*data:/i.test(src)) { if (text) this.inline(`[image: ${text}]`); return; }
    if (!src) return;
    this.inline(`![${text}](${urlText(this.resolver.absolute(src))})`);
  }

  private endPre(): void {
    const code = this.pop().replace(/^\n/, '').replace(/\s+$/, '');
    const longest = (code.match(/`{3,}/g) ?? []).reduce((n, f) => Math.max(n, f.length), 2);
    const fence = '`'.repeat(longest + 1);
    this.write(`${fence}${this.preLanguage}\n${code.replace(/\n/g, `\n${this.prefix}`)}\n${this.prefix}${fence}`);
    this.preLanguage = '';
    this.block();
  }

  private endCode(): void {
    const code = this.pop().trim();
    if (!code) return;
    const fence = code.includes('`') ? '``' : '`';
    this.inline(fence === '``' ? `\`\` ${code} \`\`` : `\`${code}\``);
  }

  private startRow(): void {
    const t = this.tables[this.tables.length - 1];
    if (!t) return;
    if (t.row) this.endRow();
    t.row = [];
    t.rowIsHeader = true;
  }

  private startCell(name: string): void {
    const t = this.tables[this.tables.length - 1];
    if (!t) return this.space();
    if (!t.row) this.startRow();
    if (name !== 'th' && !t.inHead) t.rowIsHeader = false;
    this.push();
    t.inCell = true;
    this.atStart = true;
    this.inlineDepth++;
  }

  private endCell(): void {
    const t = this.tables[this.tables.length - 1];
    if (!t?.row || !t.inCell) return;
    t.inCell = false;
    this.inlineDepth--;
    this.dropPending();
    const cell = collapse(this.pop()).trim().replace(/\|/g, '\\|');
    t.row.push(cell);
    this.atStart = false;
  }

  private endRow(): void {
    const t = this.tables[this.tables.length - 1];
    if (!t?.row) return;
    if (t.row.length) { t.rows.push(t.row); t.header.push(t.rowIsHeader); }
    t.row = undefined;
  }

  private endTable(): void {
    const t = this.tables.pop();
    if (!t) return;
    this.endRow();
    if (!t.rows.length) return;
    const cols = t.rows.reduce((n, r) => Math.max(n, r.length), 0);
    const line = (r: string[]) => `| ${Array.from({ length: cols }, (_, i) => r[i] ?? '').join(' | ')} |`;
    const rows = t.header[0] ? t.rows.slice(1) : t.rows;
    const head = t.header[0] ? t.rows[0] : [];
    const lines = [line(head), `| ${Array(cols).fill('---').join(' | ')} |`, ...rows.map(line)];
    this.block();
    this.write(lines.join(`\n${this.prefix}`));
    this.block();
  }
}
