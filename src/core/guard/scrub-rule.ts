// The shape every scrub rule shares, and the small regex helpers the rule files build with.
// Each rule becomes one alternative `(?<name>source)` of the single combined RegExp; when it
// matches, its render decides what stays (labels such as `password=` or `://user:`) and where
// the placeholder goes.

export type ScrubGroups = Readonly<Record<string, string | undefined>>;

export interface ScrubRule {
  /** A regex group name, unique in the combined pattern; the rule's own sub-groups start with it. */
  readonly name: string;
  /**
   * One character (a literal or a class) every match starts with. Rules sharing an anchor are
   * factored into one alternative `anchor(?:(?<a>…)|(?<b>…))`, so at each text position V8 tests a
   * handful of rare first characters instead of every rule. `source` then matches what follows the
   * anchor, and the matched anchor character is put back in front of the render.
   */
  readonly anchor?: string;
  /**
   * A cheap zero-width check (usually a lookbehind) shared by consecutive rules of one anchor group
   * and tested once for all of them: it must hold wherever any of them can match.
   */
  readonly guard?: string;
  /** Regex source (no flags; the combined pattern is compiled with `g` only, case-sensitive). */
  readonly source: string;
  /**
   * What replaces the match. Default: group `<name>L` + placeholder + group `<name>R`, so a rule
   * keeps a label simply by capturing it under those names.
   */
  readonly render?: (g: ScrubGroups, placeholder: string, match: string) => string;
  /**
   * The value check (scrub-value.ts), run in JS on a candidate the regex found: `value` is what the
   * placeholder would replace, `start` where the match begins in `text`. When it says no, the text
   * is kept and the scan goes on one character after the match's start, so a rule that would match
   * inside the refused candidate (a vendor token after a key name) still can.
   */
  readonly accept?: (value: string, text: string, start: number) => boolean;
}

/** The characters escapeRegExp escapes. */
const SPECIAL = '.*+?^${}()|[]\\';

export function escapeRegExp(s: string): string {
  // One character (suffixTrie's branches, hundreds of them on the first scrub of a process): no regex.
  if (s.length === 1) return SPECIAL.includes(s) ? `\\${s}` : s;
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Longest first, so a regex alternation prefers `api_key` over a shorter word it starts with. */
export function longestFirst(words: readonly string[]): string[] {
  return [...new Set(words)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** `(?:a|b|c)` of escaped literals, longest first. */
export function anyOf(words: readonly string[]): string {
  return `(?:${longestFirst(words).map(escapeRegExp).join('|')})`;
}

export function defaultRender(name: string): (g: ScrubGroups, placeholder: string) => string {
  const l = `${name}L`;
  const r = `${name}R`;
  return (g, placeholder) => (g[l] ?? '') + placeholder + (g[r] ?? '');
}

/**
 * An alternation of literals for use INSIDE A LOOKBEHIND, factored by common suffix: V8 matches a
 * lookbehind right to left, so `(?:passwo|passw)(?:r)?d`-style nesting dispatches on the last
 * character first instead of trying every word in turn.
 */
export function suffixTrie(words: readonly string[]): string {
  const byLast = new Map<string, string[]>();
  let hasEmpty = false;
  for (const w of new Set(words)) {
    if (!w) {
      hasEmpty = true;
      continue;
    }
    const last = w[w.length - 1];
    const rests = byLast.get(last);
    if (rests) rests.push(w.slice(0, -1));
    else byLast.set(last, [w.slice(0, -1)]);
  }
  const branches = [...byLast.entries()].sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([last, rests]) => (rests.length === 1 ? escapeRegExp(rests[0]) : suffixTrie(rests)) + escapeRegExp(last));
  if (!branches.length) return '';
  const body = branches.length === 1 ? branches[0] : `(?:${branches.join('|')})`;
  return hasEmpty ? `(?:${body})?` : body;
}
