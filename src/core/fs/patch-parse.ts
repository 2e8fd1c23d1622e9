// Parser of the apply_patch format:
//   *** Begin Patch
//   *** Add File: path          followed by `+` lines (the new file's content)
//   *** Delete File: path
//   *** Update File: path       optionally followed by `*** Move to: new/path`, then hunks:
//   @@ optional context line    starts a hunk; the text after @@ names a line to find first
//    context / -removed / +added lines, and `*** End of File` to anchor a hunk at the file's end
//   *** End Patch
// A heredoc wrapper (`apply_patch <<'EOF' … EOF`) and code fences are tolerated. A missing
// `*** End Patch` is not: it is how a patch cut off by a token limit looks, and half a patch must
// not be applied.

export interface HunkLine {
  op: ' ' | '-' | '+';
  text: string;
}

export interface PatchHunk {
  /** Text after `@@`, when it names a line to find before the hunk's own lines. */
  header?: string;
  lines: HunkLine[];
  endOfFile: boolean;
  /** 1-based line of the patch where the hunk starts, for messages. */
  patchLine: number;
}

export type PatchOp =
  | { kind: 'add'; path: string; content: string; patchLine: number }
  | { kind: 'delete'; path: string; patchLine: number }
  | { kind: 'update'; path: string; moveTo?: string; hunks: PatchHunk[]; patchLine: number };

export type ParseOutcome = { ok: true; ops: PatchOp[] } | { ok: false; message: string };

const OP = /^\*\*\* (Add File|Delete File|Update File): ?(.*)$/;
const END = '*** End Patch';
const HEREDOC = /^(?:(?:apply_patch|applypatch)\s+)?<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1\s*$/;
/** `@@ -12,4 +12,5 @@` as in unified diffs: line numbers the format does not use. */
const UNIFIED_RANGE = /^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

/** Removes a heredoc or code-fence wrapper and surrounding blank lines; returns the patch's lines. */
export function unwrap(input: string): string[] {
  let lines = input.replace(/\r\n?/g, '\n').split('\n');
  const trimBlank = () => {
    while (lines.length && lines[0]!.trim() === '') lines.shift();
    while (lines.length && lines[lines.length - 1]!.trim() === '') lines.pop();
  };
  trimBlank();
  if (lines.length && /^```/.test(lines[0]!.trim()) && lines[lines.length - 1]!.trim() === '```') lines = lines.slice(1, -1);
  trimBlank();
  const m = lines.length ? HEREDOC.exec(lines[0]!.trim()) : null;
  if (m) {
    lines = lines.slice(1);
    if (lines.length && lines[lines.length - 1]!.trim() === m[2]) lines.pop();
    trimBlank();
  }
  return lines;
}

class ParseError extends Error {}

function parseHunks(lines: string[], from: number, to: number, path: string): PatchHunk[] {
  const hunks: PatchHunk[] = [];
  let cur: PatchHunk | undefined;
  let bareBlank = 0;
  /** Just after `*** End of File`: blank lines there separate, they do not start a hunk. */
  let afterEnd = false;
  const close = () => {
    if (!cur) return;
    // Blank lines between the last hunk and the next file are separators, not context.
    if (bareBlank) cur.lines.splice(cur.lines.length - bareBlank, bareBlank);
    if (!cur.lines.length) throw new ParseError(`line ${cur.patchLine}: a hunk of "*** Update File: ${path}" has no lines; each hunk needs context (" "), removed ("-") or added ("+") lines.`);
    hunks.push(cur);
    cur = undefined;
  };
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    if (afterEnd && line.trim() === '') continue;
    afterEnd = false;
    if (line.startsWith('@@')) {
      close();
      const rest = line.slice(2).trim();
      // `@@ text @@` closes like a unified-diff header; endsWith, not /\s*@@$/, which is quadratic on blanks.
      const named = rest.endsWith('@@') ? rest.slice(0, -2).trimEnd() : rest;
      const header = named === '' || UNIFIED_RANGE.test(rest) ? undefined : named;
      cur = { header, lines: [], endOfFile: false, patchLine: i + 1 };
      bareBlank = 0;
      continue;
    }
    if (line.trim() === '*** End of File') {
      if (!cur) throw new ParseError(`line ${i + 1}: "*** End of File" must follow a hunk's lines.`);
      cur.endOfFile = true;
      close();
      afterEnd = true;
      continue;
    }
    cur ??= { lines: [], endOfFile: false, patchLine: i + 1 };
    const op = line[0];
    if (line === '') {
      cur.lines.push({ op: ' ', text: '' });
      bareBlank++;
      continue;
    }
    if (op !== ' ' && op !== '-' && op !== '+') {
      throw new ParseError(`line ${i + 1}: unexpected ${JSON.stringify(line.slice(0, 80))} in "*** Update File: ${path}". Each line of a hunk starts with " " (context), "-" (remove) or "+" (add); a new hunk starts with "@@".`);
    }
    cur.lines.push({ op, text: line.slice(1) });
    bareBlank = 0;
  }
  close();
  return hunks;
}

type OpKind = 'Add File' | 'Delete File' | 'Update File';

/**
 * Where an operation's lines end: at the next file header. A header indented by spaces counts only
 * where no hunk line can be — after Delete File, after an Add File's `+` lines, after `*** End of
 * File` — so a context line whose text starts with `*** Update File:` never ends a hunk.
 */
function bodyEnd(lines: string[], from: number, end: number, kind: OpKind): number {
  let expected = kind !== 'Update File';
  for (let k = from; k < end; k++) {
    const line = lines[k]!;
    if (OP.test(line.trimEnd()) || (expected && OP.test(line.trim()))) return k;
    if (kind === 'Update File' && line.trim() !== '') expected = line.trim() === '*** End of File';
  }
  return end;
}

function parseOps(lines: string[]): PatchOp[] {
  const ops: PatchOp[] = [];
  let i = 1;
  const end = lines.length - 1;
  while (i < end) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    // A header is expected here, so one indented by spaces is still a header.
    const m = OP.exec(line.trim());
    if (!m) throw new ParseError(`line ${i + 1}: expected "*** Add File: <path>", "*** Delete File: <path>" or "*** Update File: <path>", got ${JSON.stringify(line.slice(0, 80))}.`);
    const path = m[2]!.trim();
    if (!path) throw new ParseError(`line ${i + 1}: "*** ${m[1]}:" needs a path.`);
    const next = bodyEnd(lines, i + 1, end, m[1] as OpKind);
    if (m[1] === 'Delete File') {
      const extra = lines.slice(i + 1, next).findIndex((l) => l.trim() !== '');
      if (extra !== -1) throw new ParseError(`line ${i + 2 + extra}: "*** Delete File: ${path}" takes no lines after it.`);
      ops.push({ kind: 'delete', path, patchLine: i + 1 });
    } else if (m[1] === 'Add File') {
      const body = lines.slice(i + 1, next);
      while (body.length && body[body.length - 1] === '') body.pop();
      const bad = body.findIndex((l) => !l.startsWith('+'));
      if (bad !== -1) throw new ParseError(`line ${i + 2 + bad}: every line of "*** Add File: ${path}" must start with "+" (the file's content), got ${JSON.stringify(body[bad]!.slice(0, 80))}.`);
      ops.push({ kind: 'add', path, content: body.map((l) => `${l.slice(1)}\n`).join(''), patchLine: i + 1 });
    } else {
      let from = i + 1;
      let moveTo: string | undefined;
      const mv = /^\*\*\* Move to: ?(.*)$/.exec((lines[from] ?? '').trimEnd());
      if (from < next && mv) {
        moveTo = mv[1]!.trim();
        if (!moveTo) throw new ParseError(`line ${from + 1}: "*** Move to:" needs a path.`);
        from++;
      }
      const hunks = parseHunks(lines, from, next, path);
      if (!hunks.length && moveTo === undefined) throw new ParseError(`line ${i + 1}: "*** Update File: ${path}" has no hunks.`);
      ops.push({ kind: 'update', path, moveTo, hunks, patchLine: i + 1 });
    }
    i = next;
  }
  return ops;
}

export function parsePatch(input: string): ParseOutcome {
  const lines = unwrap(input);
  if (!lines.length || lines[0]!.trim() !== '*** Begin Patch') {
    return { ok: false, message: `The patch must start with "*** Begin Patch"${lines.length ? `, but its first line is ${JSON.stringify(lines[0]!.slice(0, 80))}` : ', but it is empty'}.` };
  }
  if (lines.length < 2 || lines[lines.length - 1]!.trim() !== END) {
    return {
      ok: false,
      message: 'The patch does not end with "*** End Patch": it was probably cut off (a token limit). Send it again complete, or split it into smaller patches.',
    };
  }
  try {
    const ops = parseOps(lines);
    if (!ops.length) return { ok: false, message: 'The patch contains no file operations (Add File, Delete File or Update File).' };
    return { ok: true, ops };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, message: `The patch could not be parsed: ${e.message}` };
    throw e;
  }
}
