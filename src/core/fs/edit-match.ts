// Finding old_string in a file: exact bytes first, then with the file's line endings, then in the
// folded view (edit-normalize.ts), then without copied line-number prefixes, then with indentation
// ignored (edit-fallback.ts). Each stage returns spans of the ORIGINAL text, so whatever stage
// matched, only those spans are replaced.
import { matchIgnoringIndentation, withoutLineNumbers } from './edit-fallback';
import { fold, originalSpan } from './edit-normalize';
import { convertEol, type Eol } from './text-encoding';

export interface Span {
  start: number;
  end: number;
}

export type MatchKind = 'exact' | 'eol' | 'fuzzy' | 'line-numbers' | 'indentation';

export interface Located {
  kind: MatchKind;
  /** Non-overlapping occurrences, leftmost first. */
  spans: Span[];
  /** A second occurrence overlaps the first (`aa` in `aaa`): ambiguous even with one span. */
  overlapping: boolean;
  /** What a fallback did, in words for the result. */
  note?: string;
  /** new_string as it must be written at the match (prefixes removed, re-indented). */
  rewrite?: (newString: string) => string;
  /** Several places matched loosely: refused even with replace_all (a loose match is never a guess). */
  uniqueOnly?: boolean;
}

function occurrences(hay: string, needle: string): { spans: Span[]; overlapping: boolean } {
  const spans: Span[] = [];
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) {
    spans.push({ start: i, end: i + needle.length });
  }
  const overlapping = spans.length === 1 && hay.indexOf(needle, spans[0]!.start + 1) !== -1;
  return { spans, overlapping };
}

function fuzzyOccurrences(text: string, oldString: string): { spans: Span[]; overlapping: boolean } {
  const needle = fold(oldString, false).text;
  if (needle.trim() === '') return { spans: [], overlapping: false };
  const f = fold(text);
  const spans: Span[] = [];
  let overlapping = false;
  let from = 0;
  let first = -1;
  for (let a = f.text.indexOf(needle); a !== -1; a = f.text.indexOf(needle, from)) {
    const span = originalSpan(f, a, a + needle.length);
    if (!span) {
      from = a + 1;
      continue;
    }
    if (first === -1) first = a;
    spans.push(span);
    from = a + needle.length;
  }
  if (spans.length === 1) {
    // Like `aa` in `aaa`: a second, overlapping occurrence makes one match ambiguous too.
    for (let a = f.text.indexOf(needle, first + 1); a !== -1 && !overlapping; a = f.text.indexOf(needle, a + 1)) {
      overlapping = originalSpan(f, a, a + needle.length) !== undefined;
    }
  }
  return { spans, overlapping };
}

/** Where `oldString` occurs in `text`, or undefined when no stage finds it. */
export function locate(text: string, oldString: string, eol: Eol): Located | undefined {
  if (oldString === '') return undefined;
  return strict(text, oldString, eol) ?? numbered(text, oldString, eol) ?? indented(text, oldString);
}

function strict(text: string, oldString: string, eol: Eol): Located | undefined {
  const exact = occurrences(text, oldString);
  if (exact.spans.length) return { kind: 'exact', ...exact };
  if (/[\r\n]/.test(oldString)) {
    const converted = convertEol(oldString, eol);
    if (converted !== oldString) {
      const withEol = occurrences(text, converted);
      if (withEol.spans.length) return { kind: 'eol', ...withEol };
    }
  }
  const fuzzy = fuzzyOccurrences(text, oldString);
  return fuzzy.spans.length ? { kind: 'fuzzy', ...fuzzy } : undefined;
}

/** old_string with read_file's line numbers copied into it: matched without them (new_string loses them too, when it has them). */
function numbered(text: string, oldString: string, eol: Eol): Located | undefined {
  const bare = withoutLineNumbers(oldString);
  if (!bare || bare.text.trim() === '') return undefined;
  const found = strict(text, bare.text, eol) ?? indented(text, bare.text);
  if (!found) return undefined;
  const inner = found.rewrite;
  return {
    ...found,
    kind: 'line-numbers',
    note: `every line of old_string began with a line-number prefix (${bare.form}), as read_file shows them; it matched without them${found.note ? `, and ${found.note}` : ''}`,
    rewrite: (s) => {
      const plain = withoutLineNumbers(s)?.text ?? s;
      return inner ? inner(plain) : plain;
    },
  };
}

function indented(text: string, oldString: string): Located | undefined {
  const m = matchIgnoringIndentation(text, oldString);
  if (!m) return undefined;
  const note = 'old_string matched only with its indentation ignored';
  if ('ambiguous' in m) {
    return { kind: 'indentation', uniqueOnly: true, overlapping: false, note, spans: m.ambiguous };
  }
  return {
    kind: 'indentation', overlapping: false, spans: [{ start: m.found.start, end: m.found.end }], rewrite: m.found.reindent,
    note: `${note}; the file has ${m.found.offset} indentation there, and new_string was re-indented by the same`,
  };
}

/** The line ending replacement text should use at `span`: the one the span itself uses, else the file's. */
export function eolAt(text: string, span: Span, fallback: Eol): Eol {
  const inside = text.slice(span.start, Math.min(text.length, span.end + 1));
  const lf = inside.indexOf('\n');
  if (lf !== -1) return lf > 0 && inside[lf - 1] === '\r' ? '\r\n' : '\n';
  const next = text.indexOf('\n', span.end);
  if (next !== -1) return next > 0 && text[next - 1] === '\r' ? '\r\n' : '\n';
  return fallback;
}

/** 1-based line numbers of sorted offsets, in one pass. */
export function linesOf(text: string, offsets: number[]): number[] {
  const out: number[] = [];
  let line = 1;
  let pos = 0;
  for (const off of offsets) {
    for (let i = text.indexOf('\n', pos); i !== -1 && i < off; i = text.indexOf('\n', i + 1)) {
      line++;
      pos = i + 1;
    }
    out.push(line);
  }
  return out;
}
