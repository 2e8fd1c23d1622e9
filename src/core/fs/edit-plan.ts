// The edit engine: every edit is located in the ORIGINAL text, all of them are checked (found,
// unambiguous, not overlapping) before any is applied, and the result is built from the original's
// untouched slices and the replacements. So a multi-edit call is all-or-nothing, edits cannot
// interfere through each other's output, and nothing outside the matched spans changes.
import { eolAt, linesOf, locate, type MatchKind, type Span } from './edit-match';
import { describeNearest, nearestRegion } from './edit-nearest';
import {
  countPlaceholders, hasPlaceholder, placeholderInNewMessage, placeholderInOldMessage, redactedStandIns,
} from './edit-redaction';
import { convertEol, type DecodedText } from './text-encoding';

export interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export interface Replacement extends Span {
  /** Index of the edit in the call. */
  edit: number;
  text: string;
  kind: MatchKind;
  /** 1-based line of the span's start in the original. */
  line: number;
  /** What a fallback match did (line-number prefixes removed, indentation ignored), for the result. */
  note?: string;
}

export type EditPlan =
  | { ok: true; text: string; replacements: Replacement[] }
  | { ok: false; message: string; reason: 'empty' | 'identical' | 'not-found' | 'ambiguous' | 'overlap' | 'redacted' | 'unchanged' };

const MAX_LISTED_LINES = 20;

function listLines(lines: number[]): string {
  const shown = lines.slice(0, MAX_LISTED_LINES).join(', ');
  return lines.length > MAX_LISTED_LINES ? `${shown}, … (${lines.length} in all)` : shown;
}

/** Every non-blank line starts like `12\t` or `12| `: copied from numbered output. */
function hasLineNumbers(s: string): boolean {
  const lines = s.split(/\r?\n/).filter((l) => l.trim() !== '');
  return lines.length > 0 && lines.every((l) => /^ {0,8}\d{1,7}(?:\t|\| |→)/.test(l));
}

function planOne(doc: DecodedText, e: EditSpec, index: number, field: (name: string) => string, rel: string): Replacement[] | Exclude<EditPlan, { ok: true }> {
  const { text, eol } = doc;
  if (e.old_string === '') {
    return {
      ok: false, reason: 'empty',
      message: `${field('old_string')} is empty. To write a whole file use write_file; to insert text, include a neighbouring line in both old_string and new_string.`,
    };
  }
  if (e.old_string === e.new_string) {
    return { ok: false, reason: 'identical', message: `${field('old_string')} and ${field('new_string')} are identical, so there is nothing to change.` };
  }
  const found = locate(text, e.old_string, eol);
  if (!found) {
    if (hasPlaceholder(e.old_string)) {
      return { ok: false, reason: 'redacted', message: placeholderInOldMessage(field('old_string'), rel, redactedStandIns(e.old_string, text)) };
    }
    const prefixed = hasLineNumbers(e.old_string)
      ? ' It seems to include the line-number prefixes of read_file\'s output: they are not part of the file; leave them out.'
      : '';
    return {
      ok: false, reason: 'not-found',
      message: `${field('old_string')} was not found in ${rel} (not exactly, nor after unifying line endings, trailing spaces, quotes and Unicode forms).${prefixed}\n${describeNearest(nearestRegion(text, e.old_string), rel)}`,
    };
  }
  const starts = found.spans.map((s) => s.start);
  if (found.uniqueOnly && found.spans.length > 1) {
    const lines = [...new Set(linesOf(text, starts))];
    return {
      ok: false, reason: 'ambiguous',
      message: `${field('old_string')} was not found as written; ${found.note ?? 'it matched only loosely'}, and then it fits ${found.spans.length} places in ${rel}, at lines ${listLines(lines)}. A loose match must be unique: copy old_string exactly from the file (with its indentation), or include more lines.`,
    };
  }
  if ((found.spans.length > 1 || found.overlapping) && !e.replace_all) {
    const lines = [...new Set(linesOf(text, starts))];
    const count = found.overlapping && found.spans.length === 1 ? 'more than once (overlapping)' : `${found.spans.length} times`;
    return {
      ok: false, reason: 'ambiguous',
      message: `${field('old_string')} occurs ${count} in ${rel}, at line${lines.length > 1 ? 's' : ''} ${listLines(lines)}. Include more surrounding lines in old_string so it matches exactly one place, or set replace_all: true to change every occurrence.`,
    };
  }
  if (countPlaceholders(e.new_string) > countPlaceholders(e.old_string)) {
    const standIns = redactedStandIns(e.new_string, text);
    if (standIns.length) return { ok: false, reason: 'redacted', message: placeholderInNewMessage(field('new_string'), rel, standIns) };
  }
  const lines = linesOf(text, starts);
  // A fallback match may need new_string adjusted the same way (prefixes removed, re-indented).
  const newString = found.rewrite ? found.rewrite(convertEol(e.new_string, '\n')) : e.new_string;
  // The replacement takes the line endings of the place it lands in (CRLF in a CRLF file).
  const multiline = /[\r\n]/.test(newString);
  const asLf = convertEol(newString, '\n');
  const asCrlf = convertEol(newString, '\r\n');
  const out: Replacement[] = [];
  for (let k = 0; k < found.spans.length; k++) {
    const { start, end } = found.spans[k]!;
    const crlf = multiline && eolAt(text, { start, end }, eol) === '\r\n';
    out.push({ start, end, edit: index, kind: found.kind, line: lines[k]!, text: multiline ? (crlf ? asCrlf : asLf) : newString, ...(found.note ? { note: found.note } : {}) });
  }
  return out;
}

/** Plans `edits` against `doc`; `rel` names the file in messages. */
export function planEdits(doc: DecodedText, edits: readonly EditSpec[], rel: string): EditPlan {
  const multi = edits.length > 1;
  const all: Replacement[] = [];
  for (let i = 0; i < edits.length; i++) {
    const field = (name: string) => (multi ? `edits[${i}].${name}` : name);
    const r = planOne(doc, edits[i]!, i, field, rel);
    if (!Array.isArray(r)) return multi ? { ...r, message: `${r.message}\nNo edit was applied: the edits of one call are applied all together or not at all.` } : r;
    for (const x of r) all.push(x);
  }
  all.sort((a, b) => a.start - b.start || a.edit - b.edit);
  for (let k = 1; k < all.length; k++) {
    const prev = all[k - 1]!;
    const cur = all[k]!;
    if (cur.start < prev.end) {
      const which = prev.edit === cur.edit ? `edits[${cur.edit}]` : `edits[${prev.edit}] (line ${prev.line}) and edits[${cur.edit}] (line ${cur.line})`;
      return {
        ok: false, reason: 'overlap',
        message: `${which} overlap in ${rel}: every edit is matched against the original file, so two edits cannot change the same text. Merge them into one edit. No edit was applied.`,
      };
    }
  }
  const parts: string[] = [];
  let at = 0;
  for (const r of all) {
    parts.push(doc.text.slice(at, r.start), r.text);
    at = r.end;
  }
  parts.push(doc.text.slice(at));
  const text = parts.join('');
  if (text === doc.text) {
    return { ok: false, reason: 'unchanged', message: `The edit${multi ? 's leave' : ' leaves'} ${rel} exactly as it is (the new text equals the text it replaces); nothing was changed.` };
  }
  return { ok: true, text, replacements: all };
}
