// The text the model reads after a grep: a one-line summary, the grouped matches, then one notice per
// limit that was reached, each naming the parameter that widens it.
import type { GrepCaps, GrepCollector, GrepQuery } from './grep-collect';

export const MAX_LIMIT = 100_000;

export interface ReportInput {
  query: GrepQuery;
  caps: GrepCaps;
  collector: GrepCollector;
  /** What was searched, as the model should read it ('the workspace' or a relative path). */
  where: string;
  timedOut: boolean;
  warning?: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function describePattern(q: GrepQuery): string {
  const shown = q.pattern.length > 200 ? `${q.pattern.slice(0, 200)}…` : q.pattern;
  const how = [q.literal ? 'literal' : 'regex', q.ignoreCase ? 'ignoring case' : ''].filter(Boolean).join(', ');
  return `${JSON.stringify(shown)} (${how})${q.glob ? ` in files matching ${JSON.stringify(q.glob)}` : ''}`;
}

export function grepReport(r: ReportInput): string {
  const c = r.collector;
  const q = r.query;
  if (c.matches === 0) {
    const hints: string[] = [];
    if (!q.ignoreCase && /[a-z]/i.test(q.pattern)) hints.push('ignoreCase: true matches any case');
    if (!q.includeIgnored) hints.push('includeIgnored: true also searches .gitignored files');
    if (!q.literal && /[.*+?()[\]{}|\\^$]/.test(q.pattern)) hints.push('literal: true searches for the text as written');
    const lines = [`No matches for ${describePattern(q)} in ${r.where}.${hints.length ? ` (${hints.join('; ')}.)` : ''}`];
    if (r.timedOut) lines.push('[The search ran out of time before it finished; narrow it with path or glob.]');
    if (r.warning) lines.push(`[Some files could not be searched: ${r.warning}]`);
    return lines.join('\n');
  }
  const more = c.stopped === 'limit' ? ' (more exist)' : '';
  const out = [`${plural(c.matches, 'match', 'matches')}${more} in ${plural(c.files, 'file')} for ${describePattern(q)} in ${r.where}:`, '', c.text()];
  const notices: string[] = [];
  if (c.stopped === 'limit') {
    notices.push(`[Stopped at ${c.matches} matches (limit: ${r.caps.limit}); there are more. Raise limit (up to ${MAX_LIMIT}) or narrow the search with path or glob.]`);
  } else if (c.stopped === 'bytes') {
    notices.push(`[Output stopped at ${r.caps.maxBytes} bytes (maxBytes) after ${c.matches} matches; there may be more. Raise maxBytes or narrow the search with path or glob.]`);
  }
  if (r.timedOut) notices.push(`[The search ran out of time after ${c.matches} matches; the results are incomplete. Narrow it with path or glob.]`);
  if (c.cutCount) {
    const ex = c.cut[0];
    notices.push(`[${plural(c.cutCount, 'line')} longer than ${r.caps.maxLineChars} characters ${c.cutCount === 1 ? 'was' : 'were'} cut to a window around the match (maxLineChars). `
      + `To see one whole, raise maxLineChars or use read_file (e.g. path ${JSON.stringify(ex.file)}, offset ${ex.line}, limit 1: ${ex.chars} characters).]`);
  }
  if (r.warning) notices.push(`[Some files could not be searched: ${r.warning}]`);
  if (notices.length) out.push('', ...notices);
  return out.join('\n');
}
