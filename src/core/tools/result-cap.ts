// The pipeline's last safety net on result size. Tools page their own output (read_file names the
// next offset, exec keeps its full log); this cap only stops an oversized result from flooding the
// model's context. It keeps the head and the tail, because errors and summaries sit at the end.
import { formatCount } from '../format-count';

export interface CapOutcome {
  text: string;
  truncated: boolean;
  omitted: number;
}

/** Never cuts a UTF-16 surrogate pair in half. */
function safeCut(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

export function capText(text: string, max: number, setting: string): CapOutcome {
  if (text.length <= max) return { text, truncated: false, omitted: 0 };
  const headLen = safeCut(text, Math.floor(max * 0.7));
  const tailStart = text.length - (max - headLen);
  const tailFrom = safeCut(text, tailStart);
  const omitted = tailFrom - headLen;
  const notice =
    `\n\n[… ${formatCount(omitted)} characters omitted here: the result was ` +
    `${formatCount(text.length)} characters, over the ${formatCount(max)}-character limit ` +
    `(${setting}). Ask for a narrower result (a smaller range, a filter, a page) to see the middle. …]\n\n`;
  return { text: text.slice(0, headLen) + notice + text.slice(tailFrom), truncated: true, omitted };
}
