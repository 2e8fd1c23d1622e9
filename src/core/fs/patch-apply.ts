// Applying the hunks of one `*** Update File` to a file's text. Each hunk's old lines (context and
// removed) are sought from where the previous hunk ended: exact, then ignoring trailing
// whitespace, then ignoring surrounding whitespace, then in the folded form (quotes, Unicode).
// Context lines keep the file's own text and every line keeps its own line ending, so a hunk
// matched loosely still changes only the lines it removes and adds.
import { foldLine } from './edit-normalize';
import { describeNearest, nearestRegion } from './edit-nearest';
import { hasPlaceholder, placeholderInNewMessage, placeholderInOldMessage, redactedStandIns } from './edit-redaction';
import type { PatchHunk, HunkLine } from './patch-parse';
import type { Eol } from './text-encoding';

interface Line {
  text: string;
  /** '' for a last line without a line break. */
  eol: string;
}

function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let at = 0;
  while (at < text.length) {
    const lf = text.indexOf('\n', at);
    if (lf === -1) {
      out.push({ text: text.slice(at), eol: '' });
      break;
    }
    const cr = lf > at && text.charCodeAt(lf - 1) === 13;
    out.push({ text: text.slice(at, cr ? lf - 1 : lf), eol: cr ? '\r\n' : '\n' });
    at = lf + 1;
  }
  return out;
}

type Pass = (s: string) => string;
const PASSES: Pass[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim(), (s) => foldLine(s).trim()];

/** First index >= `from` where `pattern` matches `lines`, trying the looser passes in turn. */
function seek(lines: readonly string[], pattern: readonly string[], from: number, endOfFile: boolean): number {
  const last = lines.length - pattern.length;
  if (last < from) return -1;
  for (const pass of PASSES) {
    const keys = new Map<number, string>();
    const key = (i: number) => {
      let k = keys.get(i);
      if (k === undefined) keys.set(i, (k = pass(lines[i]!)));
      return k;
    };
    const want = pattern.map(pass);
    const at = (i: number) => want.every((w, j) => key(i + j) === w);
    if (endOfFile && at(last)) return last;
    for (let i = from; i <= last; i++) if (at(i)) return i;
  }
  return -1;
}

/** A line named by an `@@` header: equal under some pass, or (folded) containing it. */
function seekHeader(lines: readonly string[], header: string, from: number): number {
  const exact = seek(lines, [header], from, false);
  if (exact !== -1) return exact;
  const want = foldLine(header).trim();
  if (want.length < 3) return -1;
  for (let i = from; i < lines.length; i++) if (foldLine(lines[i]!).includes(want)) return i;
  return -1;
}

interface Placement {
  at: number;
  hunk: HunkLine[];
}

export type ApplyOutcome = { ok: true; text: string; added: number; removed: number } | { ok: false; message: string };

function quote(lines: readonly string[]): string {
  const shown = lines.slice(0, 20).map((l) => `  |${l}`);
  if (lines.length > 20) shown.push(`  … (${lines.length - 20} more lines)`);
  return shown.join('\n');
}

function notFound(where: string, hunk: PatchHunk, old: string[], text: string, keys: string[], cursor: number, rel: string): string {
  if (old.some(hasPlaceholder)) {
    return `${where}: ${placeholderInOldMessage('its context or removed lines', rel, redactedStandIns(old.join('\n'), text))}`;
  }
  const earlier = cursor > 0 ? seek(keys, old, 0, false) : -1;
  const order = earlier !== -1 && earlier < cursor
    ? `\nThese lines do occur at line ${earlier + 1}, before the end of the previous hunk: hunks must follow the order of the file.`
    : '';
  return `${where}: these lines (context and "-" lines) were not found${cursor > 0 ? ` after line ${cursor}` : ''}${hunk.endOfFile ? ' at the end of the file' : ''}:\n${quote(old)}${order}\n${describeNearest(nearestRegion(text, old.join('\n')), rel)}`;
}

/** Applies `hunks` to `text`; `eol` is the file's dominant line ending, used for added lines. */
export function applyHunks(text: string, eol: Eol, hunks: readonly PatchHunk[], rel: string): ApplyOutcome {
  const lines = splitLines(text);
  const keys = lines.map((l) => l.text);
  const placements: Placement[] = [];
  let cursor = 0;
  for (let k = 0; k < hunks.length; k++) {
    const hunk = hunks[k]!;
    const where = `Update File: ${rel}, hunk ${k + 1} of ${hunks.length}${hunk.header ? ` (@@ ${hunk.header})` : ''} at patch line ${hunk.patchLine}`;
    const added = hunk.lines.filter((l) => l.op === '+').map((l) => l.text);
    if (added.some(hasPlaceholder)) {
      const removed = new Set(hunk.lines.filter((l) => l.op !== '+').map((l) => l.text));
      const fresh = added.filter((l) => hasPlaceholder(l) && !removed.has(l));
      const standIns = redactedStandIns(fresh.join('\n'), text);
      if (standIns.length) return { ok: false, message: `${where}: ${placeholderInNewMessage('its "+" lines', rel, standIns)}` };
    }
    if (hunk.header !== undefined) {
      const h = seekHeader(keys, hunk.header, cursor);
      if (h === -1) {
        return { ok: false, message: `${where}: the line named after @@, ${JSON.stringify(hunk.header)}, was not found${cursor > 0 ? ` after line ${cursor}` : ''} in ${rel}. Put a line copied exactly from the file after @@, or leave it empty.` };
      }
      cursor = h + 1;
    }
    let ops = hunk.lines;
    let old = ops.filter((l) => l.op !== '+').map((l) => l.text);
    if (!old.length) {
      // Pure addition: after the @@ line when there is one, else at the end of the file.
      placements.push({ at: hunk.header !== undefined ? cursor : lines.length, hunk: ops });
      continue;
    }
    let at = seek(keys, old, cursor, hunk.endOfFile);
    if (at === -1 && ops[ops.length - 1]!.op === ' ' && ops[ops.length - 1]!.text === '') {
      // A trailing empty context line is often the patch's own separator, not a line of the file.
      ops = ops.slice(0, -1);
      old = old.slice(0, -1);
      at = old.length ? seek(keys, old, cursor, hunk.endOfFile) : -1;
    }
    if (at === -1) return { ok: false, message: notFound(where, hunk, hunk.lines.filter((l) => l.op !== '+').map((l) => l.text), text, keys, cursor, rel) };
    placements.push({ at, hunk: ops });
    cursor = at + old.length;
  }
  placements.sort((a, b) => a.at - b.at);
  return assemble(lines, placements, eol, text === '' || text.endsWith('\n'));
}

function assemble(lines: Line[], placements: Placement[], eol: Eol, finalNewline: boolean): ApplyOutcome {
  const out: Line[] = [];
  let p = 0;
  let added = 0;
  let removed = 0;
  for (const pl of placements) {
    while (p < pl.at) out.push(lines[p++]!);
    for (const l of pl.hunk) {
      if (l.op === ' ') out.push(lines[p++]!);
      else if (l.op === '-') {
        p++;
        removed++;
      } else {
        // An added line takes the line ending of the line it lands next to.
        out.push({ text: l.text, eol: lines[p]?.eol || lines[p - 1]?.eol || eol });
        added++;
      }
    }
  }
  while (p < lines.length) out.push(lines[p++]!);
  for (let i = 0; i < out.length - 1; i++) if (out[i]!.eol === '') out[i] = { ...out[i]!, eol };
  if (out.length) {
    const lastLine = out[out.length - 1]!;
    out[out.length - 1] = { ...lastLine, eol: finalNewline ? lastLine.eol || eol : '' };
  }
  return { ok: true, text: out.map((l) => l.text + l.eol).join(''), added, removed };
}
