// The scrubber replaces secrets in everything a model reads with `[REDACTED]`. A model that copies
// what it read into an edit would write the placeholder over the real value and destroy it. These
// helpers recognise that case: a line the model sent, read with each placeholder as "some text",
// that matches a line of the file holding something else where the placeholder stands.

/** The scrubber's default placeholder (src/core/guard/scrubber.ts). */
export const REDACTED = '[REDACTED]';

/** Literal characters a placeholder line needs around it before it can point at one file line. */
const MIN_LITERAL = 3;
/** Placeholder lines checked per call: each one is a scan of the file. */
const MAX_PATTERNS = 50;

export function hasPlaceholder(s: string): boolean {
  return s.includes(REDACTED);
}

export function countPlaceholders(s: string): number {
  return s.split(REDACTED).length - 1;
}

/**
 * Whether `line` contains the pieces in order with at least one character where each placeholder
 * stood. Leftmost placement of each piece is optimal for such a pattern, so one pass decides it.
 */
function matchesWithGaps(line: string, pieces: readonly string[]): boolean {
  let at = line.indexOf(pieces[0]!);
  if (at === -1) return false;
  at += pieces[0]!.length;
  for (let k = 1; k < pieces.length; k++) {
    const next = line.indexOf(pieces[k]!, at + 1);
    if (next === -1) return false;
    at = next + pieces[k]!.length;
  }
  return true;
}

/**
 * 1-based line numbers of `fileText` (at most `max`) where a placeholder line of `sent` stands for a
 * real value: the line matches the sent line's pattern but does not contain the placeholder itself.
 */
export function redactedStandIns(sent: string, fileText: string, max = 3): number[] {
  const patterns = sent.split(/\r?\n/)
    .filter((l) => l.includes(REDACTED))
    .map((l) => l.trim().split(REDACTED))
    .filter((pieces) => pieces.join('').trim().length >= MIN_LITERAL)
    .slice(0, MAX_PATTERNS);
  if (!patterns.length) return [];
  const found: number[] = [];
  const lines = fileText.split(/\r?\n/);
  for (let i = 0; i < lines.length && found.length < max; i++) {
    const line = lines[i]!;
    if (line.includes(REDACTED)) continue;
    if (patterns.some((p) => matchesWithGaps(line, p))) found.push(i + 1);
  }
  return found;
}

function where(lines: number[]): string {
  return lines.length ? ` (the file has the real value at line${lines.length > 1 ? 's' : ''} ${lines.join(', ')})` : '';
}

/** old text with a placeholder that did not match the file literally. */
export function placeholderInOldMessage(field: string, rel: string, lines: number[]): string {
  return `${field} contains ${REDACTED}, which is not in ${rel}${where(lines)}: ${REDACTED} is a placeholder ` +
    'for a secret that was scrubbed from what you read, not the file\'s text. Edit around it: choose old ' +
    'text that stops before the secret and starts after it, so the secret stays as it is. If the value ' +
    'itself must change, ask the user to change it.';
}

/** New text that would write the placeholder over a real value. */
export function placeholderInNewMessage(field: string, rel: string, lines: number[]): string {
  return `${field} contains ${REDACTED} where ${rel} holds a real value${where(lines)}. ${REDACTED} is a ` +
    'placeholder for a secret that was scrubbed from what you read; writing it would destroy the secret. ' +
    'Leave those lines out of your change (edit only the lines around them), or ask the user to change the value.';
}
