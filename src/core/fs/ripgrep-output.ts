// ripgrep's `--json` output, one JSON object a line: begin / match / context / end per file, then a
// summary. Text arrives as `{text}` when it is valid UTF-8 and as `{bytes}` (base64) when it is not.

export type RgEvent =
  | { type: 'begin'; path: string }
  | { type: 'match'; path: string; line: number; text: string; atByte: number }
  | { type: 'context'; path: string; line: number; text: string }
  /** `path` is left empty: nothing reads it and rg's end lines are not parsed (see below). */
  | { type: 'end'; path: string }
  | { type: 'other' };

interface RgData {
  text?: string;
  bytes?: string;
}

export function rgText(d: RgData | undefined): string {
  if (!d) return '';
  if (typeof d.text === 'string') return d.text;
  if (typeof d.bytes === 'string') return Buffer.from(d.bytes, 'base64').toString('utf8');
  return '';
}

/** One line of `rg --json` as an event; undefined for a line that is not JSON (never expected). */
export function parseRgLine(line: string): RgEvent | undefined {
  // rg writes "type" first. `end` carries per-file statistics nobody reads and `summary` comes once:
  // skipping their JSON.parse saves a third of the parsing when many files match.
  if (line.startsWith('{"type":"end"')) return { type: 'end', path: '' };
  if (line.startsWith('{"type":"summary"')) return { type: 'other' };
  let msg: { type?: string; data?: Record<string, unknown> };
  try {
    msg = JSON.parse(line) as typeof msg;
  } catch {
    return undefined;
  }
  const d = msg.data ?? {};
  const path = rgText(d.path as RgData | undefined);
  switch (msg.type) {
    case 'begin':
      return { type: 'begin', path };
    case 'end':
      return { type: 'end', path };
    case 'match': {
      const subs = d.submatches as { start?: number }[] | undefined;
      return { type: 'match', path, line: Number(d.line_number) || 0, text: rgText(d.lines as RgData), atByte: subs?.[0]?.start ?? 0 };
    }
    case 'context':
      return { type: 'context', path, line: Number(d.line_number) || 0, text: rgText(d.lines as RgData) };
    default:
      return { type: 'other' };
  }
}

/**
 * Splits a stream of text chunks into lines. Only the new chunk is scanned for a newline and partial
 * lines are kept as parts, so one multi-megabyte line (a minified file) costs linear time.
 */
export class LineSplitter {
  private parts: string[] = [];

  /** Calls `onLine` for each complete line; stops (returns false) as soon as `onLine` does. */
  push(chunk: string, onLine: (line: string) => boolean): boolean {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', from);
      if (nl === -1) break;
      let line = chunk.slice(from, nl);
      if (this.parts.length) {
        this.parts.push(line);
        line = this.parts.join('');
        this.parts = [];
      }
      from = nl + 1;
      if (line && !onLine(line)) return false;
    }
    if (from < chunk.length) this.parts.push(chunk.slice(from));
    return true;
  }

  /** The last line when the stream did not end with a newline. */
  flush(onLine: (line: string) => boolean): boolean {
    const rest = this.parts.join('');
    this.parts = [];
    return rest ? onLine(rest) : true;
  }
}
