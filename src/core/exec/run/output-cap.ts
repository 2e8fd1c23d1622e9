// What the model sees of a command's output when it is too long: the head and the tail on line
// boundaries, with one marker line between them that says how many lines and characters were left
// out and exactly how to read them (the whole output stays in the job's log). Errors and test
// summaries sit at the end, so a tail that holds them gets the bigger share.

/** Share of the room the tail gets when it holds errors or a summary. */
const IMPORTANT_TAIL_SHARE = 0.7;

/** Words that mark a tail worth more room: failures, stack traces, test and build summaries. */
const IMPORTANT = /error|ERR!|fail|exception|traceback|panic|fatal|abort|summary|passed|total|✗|✓|✔|✘|❌/i;

/** Room kept for the marker line itself. */
const MARKER_ROOM = 240;

function n(x: number): string {
  return x.toLocaleString('en-US');
}

function countNewlines(text: string, from: number, to: number): number {
  let c = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) c++;
  return c;
}

/** End (exclusive) of the longest run of whole lines from the start within `room` characters. */
function headEnd(text: string, room: number): number {
  if (room <= 0) return 0;
  const lastNl = text.lastIndexOf('\n', room - 1);
  return lastNl < 0 ? 0 : lastNl + 1;
}

/** Start of the longest run of whole lines at the end within `room` characters. */
function tailStart(text: string, room: number): number {
  if (room <= 0) return text.length;
  const from = text.length - room;
  // A line starts after a line feed; the text's own last line may lack one.
  const nl = text.indexOf('\n', Math.max(0, from - 1));
  if (from <= 0) return 0;
  return nl < 0 || nl + 1 > text.length ? text.length : nl + 1;
}

/** Never cuts a surrogate pair in half (the fallback cut inside a giant line). */
function safeCut(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

/**
 * `text` whole when it fits in `maxChars`; else its head and tail on line boundaries with a marker
 * line between them. `pageHint(omittedFromLine, omittedLines)` (1-based lines of `text`) names the
 * call that shows the omitted lines, e.g. "read them with process log id=j3 offset=120 limit=480".
 */
export function capForModel(text: string, maxChars: number, pageHint: (omittedFromLine: number, omittedLines: number) => string): string {
  if (text.length <= maxChars) return text;
  const room = Math.max(0, maxChars - MARKER_ROOM);
  const tailProbe = text.slice(Math.max(0, text.length - Math.max(room, 2000)));
  const tailRoom = Math.floor(room * (IMPORTANT.test(tailProbe) ? IMPORTANT_TAIL_SHARE : 0.5));
  const headRoom = room - tailRoom;

  // A line longer than a share of the room is cut inside rather than left out whole.
  let hEnd = headEnd(text, headRoom);
  if (hEnd === 0) hEnd = safeCut(text, headRoom);
  let tStart = tailStart(text, tailRoom);
  if (tStart >= text.length - (text.endsWith('\n') ? 1 : 0)) {
    tStart = text.length - tailRoom;
    const c = text.charCodeAt(tStart);
    if (c >= 0xdc00 && c <= 0xdfff) tStart++;
  }
  tStart = Math.max(hEnd, tStart);
  const fromLine = countNewlines(text, 0, hEnd) + 1;
  // Lines not shown whole: from the one the head stops in to the one before the tail starts.
  const tailFirstLine = countNewlines(text, 0, tStart) + 1;
  const partialTail = tStart > 0 && text[tStart - 1] !== '\n';
  const omittedLines = Math.max(1, tailFirstLine - fromLine + (partialTail ? 1 : 0));
  const omittedChars = tStart - hEnd;
  const marker = `[… ${n(omittedLines)} lines (${n(omittedChars)} characters) omitted here; ${pageHint(fromLine, omittedLines)} …]`;
  const head = text.slice(0, hEnd);
  return `${head}${head && !head.endsWith('\n') ? '\n' : ''}${marker}\n${text.slice(tStart)}`;
}
