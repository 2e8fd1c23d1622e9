// The last two ways edit finds an old_string that matched neither exactly nor in the folded view,
// both for mistakes models make when they copy from read_file: the line-number prefixes copied along
// (`12\t`, `12 | `, `12→`, `12:`), and the right lines at the wrong indentation. Each is tried only
// after every stricter stage failed, so text that really contains what looks like a prefix matches
// as it is; and each says what it did, for the result to report.

/** The usual forms of a line-number prefix; each keeps the text after it intact (its indentation too). */
const PREFIX_FORMS: readonly { name: string; re: RegExp }[] = [
  { name: '"12\\t"', re: /^ *(\d{1,7})\t/ },
  { name: '"12 | "', re: /^ *(\d{1,7}) ?\| ?/ },
  { name: '"12→"', re: /^ *(\d{1,7})→/ },
  { name: '"12:"', re: /^ *(\d{1,7}):/ },
];

/** A line that is only a number: read_file's line for an empty line, its tab trimmed away. */
const NUMBER_ONLY = /^ *(\d{1,7})\s*$/;

export interface Unnumbered {
  text: string;
  /** The prefix form, for messages. */
  form: string;
}

/**
 * `s` without its line-number prefixes, when every non-empty line has one in the same form and the
 * numbers count up by one per line (as a numbered listing does); otherwise undefined.
 */
export function withoutLineNumbers(s: string): Unnumbered | undefined {
  const lines = s.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (!lines.some((l) => l.trim() !== '')) return undefined;
  for (const form of PREFIX_FORMS) {
    let first: number | undefined;
    const out: string[] = [];
    let ok = true;
    for (let i = 0; i < lines.length && ok; i++) {
      const line = lines[i]!.replace(/\r$/, '');
      const m = form.re.exec(line) ?? NUMBER_ONLY.exec(line);
      if (!m) {
        ok = line === '';
        out.push('');
        continue;
      }
      const n = Number(m[1]);
      first ??= n - i;
      ok = n === first + i;
      out.push(form.re.test(line) ? line.slice(m[0].length) : '');
    }
    if (ok && first !== undefined) return { text: out.join('\n') + (s.endsWith('\n') ? '\n' : ''), form: form.name };
  }
  return undefined;
}

export interface Reindented {
  /** The one span of the file the old lines cover (whole lines). */
  start: number;
  end: number;
  /** How the file's indentation differs from old_string's, for messages: "4 more spaces". */
  offset: string;
  /** new_string moved by the same offset. */
  reindent(newString: string): string;
}

export type IndentMatch = { found: Reindented } | { ambiguous: { start: number; end: number }[] } | undefined;

interface FileLine {
  start: number;
  /** End of the line's text (before "\r\n" / "\n"). */
  end: number;
  /** Where the next line starts. */
  next: number;
  indent: string;
  key: string;
}

const leading = (s: string): string => /^[ \t]*/.exec(s)![0];

function fileLines(text: string): FileLine[] {
  const out: FileLine[] = [];
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf('\n', start);
    const next = nl === -1 ? text.length + 1 : nl + 1;
    let end = nl === -1 ? text.length : nl;
    if (end > start && text[end - 1] === '\r') end--;
    const line = text.slice(start, end);
    out.push({ start, end, next, indent: leading(line), key: line.trim() });
    start = next;
  }
  return out;
}

/** Places whose lines match but whose indentation is checked, at most: bounds the work on hostile files. */
const MAX_CANDIDATES = 2000;

/** Where `needle` occurs in `hay` (line keys), by KMP over key ids: linear in both, however repetitive. */
function keyMatches(hay: readonly string[], needle: readonly string[]): number[] {
  const ids = new Map<string, number>();
  const id = (k: string) => ids.get(k) ?? (ids.set(k, ids.size), ids.size - 1);
  const n = needle.map(id);
  const fail = new Int32Array(n.length);
  for (let i = 1, k = 0; i < n.length; i++) {
    while (k > 0 && n[i] !== n[k]) k = fail[k - 1]!;
    if (n[i] === n[k]) k++;
    fail[i] = k;
  }
  const out: number[] = [];
  for (let i = 0, k = 0; i < hay.length && out.length < MAX_CANDIDATES; i++) {
    const h = ids.get(hay[i]!) ?? -1;
    while (k > 0 && h !== n[k]) k = fail[k - 1]!;
    if (h === n[k]) k++;
    if (k === n.length) {
      out.push(i - n.length + 1);
      k = fail[k - 1]!;
    }
  }
  return out;
}

/** How to get from `from` to `to` by adding or removing one same prefix, or undefined. */
function shiftOf(from: string, to: string): { add: string } | { remove: string } | undefined {
  if (to.length >= from.length) return to.endsWith(from) ? { add: to.slice(0, to.length - from.length) } : undefined;
  return from.endsWith(to) ? { remove: from.slice(0, from.length - to.length) } : undefined;
}

function describeShift(shift: { add: string } | { remove: string }): string {
  const s = 'add' in shift ? shift.add : shift.remove;
  const tabs = [...s].filter((c) => c === '\t').length;
  const spaces = s.length - tabs;
  const parts = [spaces ? `${spaces} space${spaces === 1 ? '' : 's'}` : '', tabs ? `${tabs} tab${tabs === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
  return `${parts} ${'add' in shift ? 'more' : 'less'}`;
}

/**
 * Where the lines of `oldString` occur in `text` when indentation is ignored — each line equal after
 * trimming, and the file's indentation differing from old_string's by one same prefix on every
 * non-blank line. One place: that span, and new_string re-indented by the prefix. Several: their
 * spans, for the refusal to name (such a loose match must be unique, never a guess).
 */
export function matchIgnoringIndentation(text: string, oldString: string): IndentMatch {
  const old = oldString.replace(/\r\n?/g, '\n').split('\n');
  const wholeLines = old.length > 1 && old[old.length - 1] === '';
  if (wholeLines) old.pop();
  const keys = old.map((l) => l.trim());
  const anchor = keys.findIndex((k) => k !== '');
  if (anchor === -1) return undefined;
  const lines = fileLines(text);
  const hits: { at: number; shift: { add: string } | { remove: string } }[] = [];
  for (const s of keyMatches(lines.map((l) => l.key), keys)) {
    const shift = shiftOf(leading(old[anchor]!), lines[s + anchor]!.indent);
    const fits = shift && keys.every((k, i) => {
      if (k === '') return true;
      const want = 'add' in shift ? shift.add + leading(old[i]!) : leading(old[i]!).slice(shift.remove.length);
      return lines[s + i]!.indent === want && ('add' in shift || leading(old[i]!).startsWith(shift.remove));
    });
    if (fits) hits.push({ at: s, shift });
  }
  if (!hits.length) return undefined;
  if (hits.length > 1) return { ambiguous: hits.map((h) => ({ start: lines[h.at]!.start, end: lines[h.at + old.length - 1]!.end })) };
  const { at, shift } = hits[0]!;
  const last = lines[at + old.length - 1]!;
  return {
    found: {
      start: lines[at]!.start,
      end: wholeLines ? Math.min(last.next, text.length) : last.end,
      offset: describeShift(shift),
      reindent: (s) => s.split('\n').map((l) => {
        if (l.trim() === '') return l;
        if ('add' in shift) return shift.add + l;
        return l.startsWith(shift.remove) ? l.slice(shift.remove.length) : l.slice(Math.min(leading(l).length, shift.remove.length));
      }).join('\n'),
    },
  };
}
