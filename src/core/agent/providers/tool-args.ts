// A tool call's arguments as the model streamed them: JSON text, which the output token limit may cut
// off mid-value. The port hands the loop parsed JSON when it parses and the raw text with `malformed`
// set when it does not, so the loop can answer with guidance instead of running a tool on half a call.

export interface ParsedArgs {
  args: unknown;
  malformed?: string;
}

/**
 * @param raw the concatenated argument fragments
 * @param cutOff the response ended at the output token limit, so an unfinished value is expected
 */
export function parseToolArgs(raw: string, cutOff: boolean): ParsedArgs {
  if (raw.trim() === '') {
    // Models send "" for a tool without parameters; after a cut-off it means nothing arrived.
    return cutOff ? { args: raw, malformed: 'The arguments were cut off by the output token limit before any arrived.' } : { args: {} };
  }
  try {
    return { args: JSON.parse(raw) as unknown };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (cutOff || looksTruncated(raw, reason)) {
      return { args: raw, malformed: `The arguments were cut off after ${raw.length} characters (incomplete JSON: ${reason}).` };
    }
    return { args: raw, malformed: `The arguments are not valid JSON (${reason}).` };
  }
}

/** V8 says "Unexpected end", "Unterminated …", or names a position at the very end of the text. */
function looksTruncated(raw: string, reason: string): boolean {
  if (/end of JSON|Unterminated/i.test(reason)) return true;
  const at = /at position (\d+)/.exec(reason);
  return at !== null && Number(at[1]) >= raw.trimEnd().length;
}
